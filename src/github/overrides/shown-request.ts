import { z } from 'zod';
import { readStateMarkers, stateMarker } from './comment-state.js';
import { nothingNew, summaryFrom, summaryOf, TOKENS_RE } from './reviewed-state.js';
import type { ReviewedState } from './reviewed-state.js';
import { signState, verifyState } from './state-signature.js';
import type { StateTrust } from './override.js';

/**
 * What our sticky comment showed reviewers: the head and the state it judged (reviewed-state.ts),
 * and since when it has shown a state holding everything the current one holds. An override binds
 * to it: a command written before the comment showed all that is now under review was given for
 * something else, and grants nothing.
 *
 * Times are GitHub's own (a comment's `updated_at`), never this server's clock, so replicas
 * writing at once agree on the text. The write that first shows a request cannot know its own
 * time, so it records none: until the next write, the comment's `updated_at` is that time.
 */
export interface ShownRequest {
  headSha: string;
  /** The shown state's digest. */
  fingerprint: string;
  /** Its entries as tokens; absent when there were too many to keep. */
  state?: string | undefined;
  /**
   * Since when GitHub has shown, over any number of heads, states that each held everything this
   * one holds (a state that only lost entries keeps the time).
   */
  since: string;
}

interface ShownMarker {
  headSha: string;
  fingerprint: string;
  state?: string | undefined;
  /** Null: this very write first showed the state. */
  since: string | null;
  sig: string;
}

const KIND = 'shown';

const ShownSchema = z.object({
  headSha: z.string().regex(/^[0-9a-f]{40}$/i),
  fingerprint: z.string().regex(/^[0-9a-f]{16,64}$/),
  state: z.string().max(12_000).regex(TOKENS_RE).optional(),
  since: z.iso.datetime({ offset: true }).nullable(),
  sig: z.string().max(128),
});

function fields(s: Omit<ShownMarker, 'sig'>): string[] {
  const base = [s.headSha, s.fingerprint, s.since ?? ''];
  return s.state === undefined ? base : [...base, s.state];
}

/** Our comment as read: its text and when GitHub last wrote it. */
export interface ReadComment {
  body: string;
  updatedAt: string | null;
}

/** The signed marker for the comment about to be written; none without a key. */
export function shownMarker(next: { headSha: string; state: ReviewedState }, previous: ShownRequest | null, trust: StateTrust): string {
  if (!trust.key) return '';
  const kept = previous !== null && nothingNew(summaryFrom(previous.fingerprint, previous.state), next.state);
  const since = kept ? previous.since : null;
  const data = { headSha: next.headSha, ...summaryOf(next.state), since };
  return stateMarker(KIND, { ...data, sig: signState(trust.key, KIND, trust.scope, fields(data)) });
}

/** The request our comment showed and since when, only when its signature holds. */
export function readShown(comment: ReadComment | null, trust: StateTrust): ShownRequest | null {
  const key = trust.key;
  if (comment === null || !key) return null;
  for (const candidate of readStateMarkers(comment.body, KIND)) {
    const parsed = ShownSchema.safeParse(candidate);
    if (!parsed.success || !verifyState(key, KIND, trust.scope, fields(parsed.data), parsed.data.sig)) continue;
    const since = parsed.data.since ?? comment.updatedAt;
    const { headSha, fingerprint, state } = parsed.data;
    return since === null ? null : { headSha, fingerprint, ...(state === undefined ? {} : { state }), since };
  }
  return null;
}
