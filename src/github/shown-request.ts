import { z } from 'zod';
import { readStateMarkers, stateMarker } from './comment-state.js';
import { signState, verifyState } from './state-signature.js';
import type { StateTrust } from './override.js';

/**
 * What our sticky comment showed reviewers: the head and the GPU request it judged, and since
 * when it has shown that request. An override binds to it: a command written before the comment
 * showed the request under review was given for some other request, and grants nothing.
 *
 * Times are GitHub's own (a comment's `updated_at`), never this server's clock, so replicas
 * writing at once agree on the text. The write that first shows a request cannot know its own
 * time, so it records none: until the next write, the comment's `updated_at` is that time.
 */
export interface ShownRequest {
  headSha: string;
  fingerprint: string;
  /** Since when GitHub has shown this request in our comment, over any number of heads. */
  since: string;
}

interface ShownMarker {
  headSha: string;
  fingerprint: string;
  /** Null: this very write first showed the request. */
  since: string | null;
  sig: string;
}

const KIND = 'shown';

const ShownSchema = z.object({
  headSha: z.string().regex(/^[0-9a-f]{40}$/i),
  fingerprint: z.string().regex(/^[0-9a-f]{16,64}$/),
  since: z.iso.datetime({ offset: true }).nullable(),
  sig: z.string().max(128),
});

function fields(s: Omit<ShownMarker, 'sig'>): string[] {
  return [s.headSha, s.fingerprint, s.since ?? ''];
}

/** Our comment as read: its text and when GitHub last wrote it. */
export interface ReadComment {
  body: string;
  updatedAt: string | null;
}

/** The signed marker for the comment about to be written; none without a key. */
export function shownMarker(next: { headSha: string; fingerprint: string }, previous: ShownRequest | null, trust: StateTrust): string {
  if (!trust.key) return '';
  const since = previous?.fingerprint === next.fingerprint ? previous.since : null;
  const data = { headSha: next.headSha, fingerprint: next.fingerprint, since };
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
    return since === null ? null : { headSha: parsed.data.headSha, fingerprint: parsed.data.fingerprint, since };
  }
  return null;
}
