import { z } from 'zod';

/**
 * What people asked of a pull request, kept in its mailbox until a `pr` job answers it: the
 * commands of comments and the "Re-run" of a check. Kept apart from the job's data because a job
 * waiting for a pull request takes in every later event for it (jobs.ts): a command must not be
 * lost when a push folds into the same job. Entries are read back from Redis; each is checked on
 * the way out, and an override is decided from the comment as GitHub has it, never from here.
 */

const Common = {
  /** The webhook delivery that brought it: in the logs, and what tells two entries apart. */
  delivery: z.string().min(1),
};

/**
 * The commit an event is about. One that is no longer the head asks nothing: the head's own
 * events ask for its review (pushes may arrive newest first).
 */
const Sha = z.string().regex(/^[0-9a-f]{40}$/);

const Comment = {
  ...Common,
  commentId: z.number().int().positive(),
  by: z.string().min(1),
};

export const Request = z.discriminatedUnion('kind', [
  /**
   * An event that asks for the head to be reviewed: a pull_request event (opened, a push, ready
   * for review, a new base) is answered by a review that started after it arrived (`at`, epoch
   * ms); a new commit's check suite by any review of the head.
   */
  z.object({
    kind: z.literal('review'),
    ...Common,
    event: z.enum(['pull_request', 'check_suite']),
    at: z.number(),
    headSha: Sha,
    /**
     * A push (`synchronize`), or a new base (`edited`): GitHub sends one per new head or base, so
     * one for a head already reviewed against the same base and policy, its check written, is a
     * redelivery and asks for nothing.
     */
    push: z.boolean().optional(),
    /**
     * The head the push moved from (GitHub's `before`). A push back to a head reviewed earlier
     * (a force-push to a commit already judged) comes after the review of the head it left: it is
     * a new push, not a redelivery, and is reviewed again.
     */
    before: Sha.optional(),
  }),
  /** `/gpu-justify` (any head), or "Re-run" on the check of one head (no comment then). */
  z.object({
    kind: z.literal('rerun'),
    ...Common,
    commentId: z.number().int().positive().optional(),
    by: z.string().optional(),
    headSha: Sha.optional(),
  }),
  z.object({ kind: z.literal('explain'), ...Comment }),
  z.object({ kind: z.literal('help'), ...Comment }),
  z.object({ kind: z.literal('invalid'), ...Comment, given: z.string(), problem: z.string() }),
  z.object({ kind: z.literal('override'), ...Comment, reason: z.string().min(1), createdAt: z.string() }),
]);
export type Request = z.infer<typeof Request>;

/** Entries a job reads at once: a burst of hundreds is answered over several jobs. */
export const MAILBOX_BATCH = 50;

/** A stored entry, or null when it is not one of ours (the caller drops it). */
export function readRequest(text: string): Request | null {
  try {
    const parsed = Request.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
