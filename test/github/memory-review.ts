import type { CheckOutput } from '../../src/report/check.js';
import type { LoadedPolicy } from '../../src/review/index.js';
import type { CommentOutcome, MarkedComment } from '../../src/github/publish/comment-poster.js';
import type { CommentWrite, ReviewCheck, ReviewPublisher } from '../../src/github/publish/publisher.js';
import type { SuggestionOutcome } from '../../src/github/publish/suggestion-poster.js';
import type { Suggestion } from '../../src/github/publish/suggestions.js';
import type { OverrideDecision } from '../../src/github/overrides/override-permission.js';
import type { Judged, PullNow, ReviewReads } from '../../src/github/review-reads.js';

/** A write the memory publisher refuses, as GitHub would with an error. */
export type Refusal = (() => Error) | null;

/** The check run as a list of what was written to it. */
class MemoryCheck implements ReviewCheck {
  concluded: CheckOutput['conclusion'] | null = null;
  /** Every conclusion accepted, first to last (`complete`, then `revise`). */
  readonly conclusions: CheckOutput[] = [];
  readonly rewrites: CheckOutput[] = [];
  readonly later: { output: CheckOutput; at: number }[] = [];
  abandoned = false;
  /** Set to make the next conclusions fail. */
  refuse: Refusal = null;

  complete(output: CheckOutput): Promise<void> {
    return this.#conclude(output);
  }

  revise(output: CheckOutput): Promise<void> {
    return this.#conclude(output);
  }

  async rewriteText(output: CheckOutput): Promise<void> {
    this.rewrites.push(output);
  }

  abandon(): void {
    this.abandoned = true;
  }

  concludeLater(output: CheckOutput, at: number): void {
    this.later.push({ output, at });
  }

  /** The conclusion a reader of the pull request sees: the last accepted. */
  get shown(): CheckOutput | undefined {
    return this.conclusions.at(-1);
  }

  async #conclude(output: CheckOutput): Promise<void> {
    if (this.refuse) throw this.refuse();
    this.conclusions.push(output);
    this.concluded = output.conclusion;
  }
}

/**
 * One pull request's writes in memory: our comment (one, kept as upsertComment keeps it), the
 * suggestions last synced, and a fresh check run per review (`nextReview`). Times advance a
 * minute per comment write, as GitHub's `updated_at` would.
 */
export class MemoryPublisher implements ReviewPublisher {
  check = new MemoryCheck();
  comment: (MarkedComment & { author: string }) | null = null;
  suggestions: Suggestion[] | null = null;
  readonly outcomes: CommentOutcome[] = [];
  /** Set to make comment writes fail. */
  refuseComment: Refusal = null;
  #clock = Date.parse('2026-01-01T00:00:00Z');
  #ids = 1000;

  /** The same pull request's next review: a new check run, the comment kept. */
  nextReview(): this {
    this.check = new MemoryCheck();
    return this;
  }

  async findComment(author: string): Promise<MarkedComment | null> {
    const c = this.comment;
    return c && c.author === author ? { id: c.id, body: c.body, updatedAt: c.updatedAt } : null;
  }

  async writeComment(write: CommentWrite): Promise<CommentOutcome> {
    if (this.refuseComment) throw this.refuseComment();
    const outcome = this.#write(write);
    this.outcomes.push(outcome);
    return outcome;
  }

  async syncSuggestions(wanted: Suggestion[]): Promise<SuggestionOutcome> {
    this.suggestions = wanted;
    return { kept: 0, created: wanted.length, deleted: 0, writes: wanted.length > 0 ? 1 : 0 };
  }

  #write(write: CommentWrite): CommentOutcome {
    const existing = write.existing ?? (this.comment?.author === write.author ? this.comment : null);
    if (existing && this.comment?.id === existing.id) {
      const body = write.merge ? write.merge(existing.body) : write.body;
      if (body === this.comment.body) return 'unchanged';
      this.comment = { ...this.comment, body, updatedAt: this.#tick() };
      return 'updated';
    }
    if (!write.createIfAbsent && !existing) return 'skipped';
    this.comment = { id: this.#ids++, body: write.body, author: write.author, updatedAt: this.#tick() };
    return 'created';
  }

  #tick(): string {
    this.#clock += 60_000;
    return new Date(this.#clock).toISOString();
  }
}

/** Reads answered from memory: the judged review (or its failure), the pull request now, the grantor's right. */
export interface MemoryReadsOptions {
  /** What the review judged, or how it judges (and fails to). */
  judged: Judged | ReviewReads['judge'];
  self?: string;
  /** The pull request's head now; the reviewed head unless told. */
  headSha: string;
  author?: string;
  mayOverride?: OverrideDecision;
  commandGone?: string | null;
}

export function memoryReads(options: MemoryReadsOptions): ReviewReads & { pulls: number } {
  const reads = {
    pulls: 0,
    self: () => Promise.resolve(options.self ?? 'gpu-justify[bot]'),
    judge: async (onPolicy: (policy: LoadedPolicy) => void): Promise<Judged> => {
      if (typeof options.judged === 'function') return options.judged(onPolicy);
      onPolicy(options.judged.policy);
      return options.judged;
    },
    pull: async (): Promise<PullNow> => {
      reads.pulls++;
      return { headSha: options.headSha, author: options.author ?? 'octocat' };
    },
    mayOverride: async (): Promise<OverrideDecision> => options.mayOverride ?? { allowed: true, via: 'admin permission' },
    commandNoLongerStands: async (): Promise<string | null> => options.commandGone ?? null,
  };
  return reads;
}
