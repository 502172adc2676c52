import type { GitHubClient, Logger } from '../api/index.js';
import { GitHubApiError } from '../api/index.js';
import { GpuJustifyError } from '../../domain/errors.js';

/** Seconds a review may spend waiting out rate limits on its writes, unless the operator says otherwise. */
export const DEFAULT_WRITE_BUDGET_SECONDS = 120;

/** Secondary limits without `retry-after`: GitHub asks for at least a minute. */
const SECONDARY_FALLBACK_SECONDS = 60;

/** Waits for server errors on idempotent writes: short, since GitHub's 5xx are mostly brief. */
const SERVER_ERROR_WAITS_SECONDS = [1, 2];

/** A write refused for a rate limit whose wait no longer fits the budget; `retryAt` is when it would. */
export class WriteBudgetExceededError extends GpuJustifyError {
  override readonly kind = 'github-write-budget';

  constructor(
    readonly retryAt: number,
    options: { cause?: unknown } = {},
  ) {
    const refused = GitHubApiError.from(options.cause)?.message ?? 'GitHub refused a write';
    super(`${refused}, rate-limited until ${new Date(retryAt).toISOString()}: past the time this review may wait`, options);
    this.name = 'WriteBudgetExceededError';
  }
}

/** The operator's budget: `GPU_JUSTIFY_WRITE_BUDGET_SECONDS`, a number of seconds, else the default. */
export function writeBudgetSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env['GPU_JUSTIFY_WRITE_BUDGET_SECONDS'];
  const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_WRITE_BUDGET_SECONDS;
}

/** The wait a refusal asks for, in milliseconds from now; null when it is no rate limit. */
export function rateLimitWait(err: unknown, now = Date.now()): number | null {
  if (typeof err !== 'object' || err === null) return null;
  const { status, response, message } = err as { status?: unknown; response?: { headers?: Record<string, unknown> }; message?: unknown };
  if (status !== 403 && status !== 429) return null;
  const headers = response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    // GitHub resets at that second; one more second makes sure the retry lands after it.
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) + 1000 : SECONDARY_FALLBACK_SECONDS * 1000;
  }
  if (status === 429 || /secondary rate/i.test(typeof message === 'string' ? message : '')) return SECONDARY_FALLBACK_SECONDS * 1000;
  return null;
}

/** A 5xx from GitHub (Octokit also reports a request that got no answer as 500). */
export function serverError(err: unknown): boolean {
  // A request that got no answer from a client that already gave up on the host (token-client.ts).
  if (err instanceof GitHubApiError && err.network !== undefined) return false;
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 500 && status <= 599;
}

/**
 * What one client may still spend waiting before its writes are tried again: the waits for rate
 * limits and server errors here, and the retries of a comment written after its check concluded
 * (comment-retry.ts), draw on the same budget.
 */
export class WriteBudget {
  private left: number;

  constructor(seconds: number) {
    this.left = seconds * 1000;
  }

  /** Milliseconds left. */
  get leftMs(): number {
    return this.left;
  }

  /** Takes `ms` from the budget: false, and nothing taken, when it does not fit. */
  take(ms: number): boolean {
    if (ms > this.left) return false;
    this.left -= ms;
    return true;
  }
}

const budgets = new WeakMap<object, WriteBudget>();

/** The budget `budgetWrites` gave this client; null when its writes are not budgeted. */
export function writeBudgetOf(octokit: GitHubClient): WriteBudget | null {
  return budgets.get(octokit) ?? null;
}

/**
 * Every write of this client waits out a rate limit (`retry-after`, or `x-ratelimit-reset` when
 * the primary limit is spent) and tries again, as long as the waits of this client stay within
 * `budgetSeconds` in all; past it the write fails with WriteBudgetExceededError, saying when it
 * could succeed. A write GitHub refused for its rate was not made, so trying again is safe. A
 * server error is tried again only on an edit (PATCH), which lands the same however often sent;
 * a creation might have been made before the error.
 */
export function budgetWrites(octokit: GitHubClient, log: Pick<Logger, 'warn'>, budgetSeconds = writeBudgetSeconds()): GitHubClient {
  if (budgets.has(octokit)) return octokit;
  const budget = new WriteBudget(budgetSeconds);
  budgets.set(octokit, budget);
  octokit.hook.wrap('request', async (request, options) => {
    // A GraphQL query reads: refused, it falls back to REST (a separate rate limit) rather than wait.
    if (options.method === 'GET' || options.method === 'HEAD' || /\/graphql$/.test(String(options.url))) return request(options);
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(options);
      } catch (err) {
        const limited = rateLimitWait(err);
        const wait = limited ?? (options.method === 'PATCH' && serverError(err) ? SERVER_ERROR_WAITS_SECONDS[attempt] : undefined);
        if (wait === undefined) throw err;
        const ms = limited === null ? wait * 1000 : wait;
        if (!budget.take(ms)) {
          if (limited === null) throw err;
          throw new WriteBudgetExceededError(Date.now() + ms, { cause: err });
        }
        log.warn({ method: options.method, url: options.url, waitMs: ms }, 'write refused by GitHub; waiting to try again');
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
    }
  });
  return octokit;
}
