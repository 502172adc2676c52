import { CreationAllowanceSpent, WriteTurnsTaken } from '../writers/pacing.js';
import { rateLimitWait, WriteBudgetExceededError } from '../../publish/index.js';
import { RetryLater } from './queue.js';

/**
 * A failure worth another attempt of its job, as RetryLater (with the time a rate limit names),
 * or null when trying again would fail the same way. GitHub's best practices ask to wait for
 * `retry-after`, or for `x-ratelimit-reset` when the primary limit is spent, else at least a
 * minute for a secondary limit, and to back off exponentially on repeated failures
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api).
 */
export function transient(err: unknown, now = Date.now()): RetryLater | null {
  if (err instanceof RetryLater) return err;
  if (err instanceof WriteBudgetExceededError || err instanceof CreationAllowanceSpent || err instanceof WriteTurnsTaken)
    return new RetryLater(err, err.retryAt);
  const limited = rateLimitWait(err, now);
  if (limited !== null) return new RetryLater(err, now + limited);
  const status = statusOf(err);
  if (status !== null && status >= 500 && status <= 599) return new RetryLater(err);
  // No answer at all: a reset connection, a timeout, DNS. Octokit reports these as status 500
  // (caught above) or leaves the cause to fetch; Bottleneck's cluster expires a write held too long.
  if (err instanceof Error && (networkError(err) || /timed out after \d+ ?ms/i.test(err.message))) return new RetryLater(err);
  return null;
}

function statusOf(err: unknown): number | null {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return status;
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause !== undefined && cause !== err ? statusOf(cause) : null;
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET']);

function networkError(err: Error): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e.name === 'TimeoutError' || e.message === 'fetch failed') return true;
  }
  return false;
}
