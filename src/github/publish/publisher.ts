import type { CheckOutput } from '../../report/index.js';
import type { Logger } from '../api/index.js';
import type { CommentOutcome, MarkedComment } from './comment-poster.js';
import type { SuggestionOutcome } from './suggestion-poster.js';
import type { Suggestion } from './suggestions.js';

/**
 * Where one review's verdict goes: its check run on the reviewed head, our comment on the pull
 * request, our suggested changes. The review decides what to write and in which order
 * (post-review.ts); a publisher only writes it. github-publisher.ts writes to GitHub; the review's
 * unit tests write to memory.
 */
export interface ReviewPublisher {
  readonly check: ReviewCheck;
  /** Our comment: the oldest comment by `author` under this review's marker; null when there is none. */
  findComment(author: string): Promise<MarkedComment | null>;
  /** Keeps our one comment (comment-poster.ts's upsertComment): what became of the write. */
  writeComment(write: CommentWrite): Promise<CommentOutcome>;
  /** Makes our suggested changes exactly `wanted`; `earlier`: a review of ours came before, so some may exist. */
  syncSuggestions(wanted: Suggestion[], earlier: boolean): Promise<SuggestionOutcome>;
}

/** One write of our comment. */
export interface CommentWrite {
  /** The login our comments are written under. */
  author: string;
  body: string;
  /** Whether a new comment is worth creating when none exists yet. */
  createIfAbsent: boolean;
  /** Our comment as already looked up (null: none). */
  existing: MarkedComment | null;
  /** Asked only when another replica's comment won a creation race, before writing over it. */
  stillCurrent: () => Promise<boolean>;
  /** The text to write over a comment holding `theirs`, so what another review recorded is kept. */
  merge?: (theirs: string) => string;
}

/** The review's check run (check-run.ts's CheckRun): created in progress or concluded, then revised. */
export interface ReviewCheck {
  /** The conclusion last accepted; null while the run is in progress or not created. */
  readonly concluded: CheckOutput['conclusion'] | null;
  /** Concludes the run (creating it concluded when it does not exist yet). */
  complete(output: CheckOutput): Promise<void>;
  /** Concludes it again with another outcome: an override learnt after the first conclusion. */
  revise(output: CheckOutput): Promise<void>;
  /** Rewrites its text, the conclusion untouched. */
  rewriteText(output: CheckOutput): Promise<void>;
  /** Leaves the run to a later attempt of the same job: nothing more is created now. */
  abandon(): void;
  /** Concludes it at `at` (epoch ms), when a conclusion could not be written now. */
  concludeLater(output: CheckOutput, at: number, log: Pick<Logger, 'warn' | 'info'>): void;
}
