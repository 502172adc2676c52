import { ProbotOctokit } from 'probot';
import { writeBudgetSeconds } from '../publish/index.js';

interface ThrottledRequest {
  method: string;
  url: string;
}
interface ThrottleLog {
  log: { warn: (message: string) => void };
}

/**
 * Whether octokit's throttling plugin may wait out a rate limit itself. Writes never: a write
 * waits only within the review's budget (write-budget.ts), which knows what else the review has
 * waited and concludes the check later when the wait would not fit. A read waits once, and only
 * when the wait fits in the budget: past that, the review fails honestly now rather than holding
 * a check in progress until the limit resets (an hour, for a spent primary limit).
 */
function throttleMayWait(budgetSeconds: number) {
  return (retryAfter: number, options: ThrottledRequest, octokit: ThrottleLog, retryCount: number): boolean => {
    const read = options.method === 'GET' || options.method === 'HEAD';
    const wait = read && retryCount === 0 && retryAfter <= budgetSeconds;
    octokit.log.warn(
      `GitHub rate limit on ${options.method} ${options.url}: ${wait ? `asking again in ${retryAfter} s` : 'not waited out here'}`,
    );
    return wait;
  };
}

/**
 * Lets every request through at once. Stands in for the throttling plugin's per-installation
 * write and notification limiters, which the App's own pacing replaces (writers/pacing.ts): it
 * spaces an installation's writes across jobs and replicas, and a second limiter of this process
 * inside it would hold a write past the turn it took, next to another job's.
 */
const UNLIMITED = { key: () => ({ schedule: <T>(_options: unknown, task: () => T) => Promise.resolve(task()) }) };

/**
 * Probot's Octokit as the App runs it in production: retries and throttling on, except that
 * rate limits are waited out within the operator's budget (`GPU_JUSTIFY_WRITE_BUDGET_SECONDS`),
 * not for as long as GitHub says. Probot's own handlers would wait out a spent primary limit
 * twice, each until its reset, on writes too. A function, so that it is applied over the
 * defaults Probot merges in, whatever they hold.
 */
export const ProductionOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => {
  const mayWait = throttleMayWait(writeBudgetSeconds());
  // With REDIS_URL Probot clusters octokit's limiters on Redis: every GitHub request would then
  // cost several Redis round trips (submit, register, free) on the thread that answers webhooks
  // and on the Redis the queue shares. What those limiters keep across replicas, the App keeps
  // itself (writes paced per installation through Redis); the rest (at most 10 requests at once
  // per installation) is kept per process.
  const { connection: _connection, Bottleneck: _bottleneck, ...throttle } = (options['throttle'] ?? {}) as Record<string, unknown>;
  return {
    ...options,
    throttle: {
      ...throttle,
      onRateLimit: mayWait,
      onSecondaryRateLimit: mayWait,
      write: UNLIMITED,
      notifications: UNLIMITED,
    },
  };
});
