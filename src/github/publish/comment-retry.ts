import type { Logger } from '../api/index.js';
import { describeFailure } from '../api/index.js';
import type { CommentOutcome } from './comment-poster.js';
import { rateLimitWait, serverError } from './write-budget.js';
import type { WriteBudget } from './write-budget.js';

/**
 * Our comment written again after its check concluded. The check already carries the verdict, so
 * only the comment is tried again, here, in the same review: handing the review back to the queue
 * would run it again and conclude the check again, and a rate limit past the write budget would
 * hold the job for as long as the limit lasts. What is tried again, and how:
 *
 * - GitHub's 5xx, and rate limits (GitHub's, or this installation's write line queued ahead):
 *   anything else (a 404, a 422) would fail the same way again.
 * - After an exponential backoff (`baseMs`, doubling, ±25%), never before the time a rate limit
 *   names, and only while the wait fits what is left of the client's write budget (write-budget.ts,
 *   shared with its waits for rate limits): a limit past the budget is not waited for.
 * - At most COMMENT_RETRIES times, and only while the reviewed commit is still the head (asked
 *   afresh; unknown counts as moved): a newer push has its own review, whose comment this one
 *   must not replace.
 * - Each try reads our comment again (the write that failed may have landed), so a creation whose
 *   answer was lost is edited, not made twice.
 *
 * When the last try fails, the failure is thrown: the review says on the check that the comment
 * could not be posted (review-and-publish.ts).
 */

/** Tries after the first. */
export const COMMENT_RETRIES = 3;

export interface CommentRetry {
  /** The client's write budget: every wait here is taken from it. */
  budget: WriteBudget;
  /** The first wait; each later one doubles. */
  baseMs: number;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Asked afresh before each new try. */
  stillCurrent: () => Promise<boolean>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** The least wait before a failed comment write is worth trying again, in ms; null when it is not. */
export function commentRetryWait(err: unknown, now = Date.now()): number | null {
  // The App's own pacing and the budget's refusals name when the write could succeed.
  const at = (err as { retryAt?: unknown } | null)?.retryAt;
  if (err instanceof Error && typeof at === 'number' && Number.isFinite(at)) return Math.max(0, at - now);
  const limited = rateLimitWait(err, now);
  if (limited !== null) return limited;
  return serverError(err) ? 0 : null;
}

/** Runs `write` (its argument: the try, 0 first) until it succeeds or may no longer be tried again. */
export async function retryCommentWrite(write: (attempt: number) => Promise<CommentOutcome>, r: CommentRetry): Promise<CommentOutcome> {
  const sleep = r.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = r.random ?? Math.random;
  const now = r.now ?? Date.now;
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(attempt);
    } catch (err) {
      const least = commentRetryWait(err, now());
      if (least === null || attempt >= COMMENT_RETRIES) throw err;
      const wait = Math.max(least, Math.round(r.baseMs * 2 ** attempt * (0.75 + random() * 0.5)));
      if (!r.budget.take(wait)) {
        r.log.warn(
          { err: describeFailure(err), waitMs: wait, budgetLeftMs: r.budget.leftMs },
          'comment not tried again: past the write budget',
        );
        throw err;
      }
      r.log.warn(
        { err: describeFailure(err), attempt: attempt + 1, waitMs: wait },
        'comment write failed after the check concluded; trying again',
      );
      await sleep(wait);
      // Unknown is not current: a stale comment must not replace a newer review's.
      let current: boolean;
      try {
        current = await r.stillCurrent();
      } catch {
        throw err;
      }
      if (!current) {
        r.log.info({}, 'head moved while the comment waited to be tried again; left to the newer review');
        return 'skipped';
      }
    }
  }
}
