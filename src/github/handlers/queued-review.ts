import type { GitHubClient, Logger, PullRequestTarget } from '../client.js';
import type { TelemetryProvider } from '../../telemetry/from-env.js';
import type { AppMetrics } from '../metrics.js';
import type { PrQueue } from '../pr-queue.js';
import { prKey } from '../pr-queue.js';
import { reviewPullRequest } from '../review-pull-request.js';
import type { OverrideGrant, ReviewOutcome } from '../review-pull-request.js';

/** What every handler shares: the App instance's per-PR queue, the operator's telemetry, its metrics. */
export interface HandlerDeps {
  queue: PrQueue;
  telemetry: TelemetryProvider;
  metrics: AppMetrics;
}

export function keyOf(target: PullRequestTarget): string {
  return prKey(target.base.owner, target.base.repo, target.number);
}

/** Reviews a pull request after any work already queued for it. */
export async function queuedReview(
  deps: HandlerDeps,
  octokit: GitHubClient,
  log: Logger,
  target: PullRequestTarget,
  grant?: OverrideGrant,
): Promise<ReviewOutcome> {
  const key = keyOf(target);
  return deps.queue.run(key, async () => {
    const outcome = await deps.metrics.timeReview(() =>
      reviewPullRequest({ octokit, log, target, telemetry: deps.telemetry, ...(grant ? { grant } : {}) }),
    );
    await deps.queue.markReviewed(key, target.headSha);
    return outcome;
  });
}
