import type { GitHubClient, Logger, PullRequestTarget } from '../client.js';
import type { TelemetryProvider } from '../../telemetry/from-env.js';
import type { DeliveryLog } from '../deliveries.js';
import type { AppMetrics } from '../metrics.js';
import type { PrQueue } from '../pr-queue.js';
import { prKey } from '../pr-queue.js';
import { reviewPullRequest } from '../review-pull-request.js';
import type { OverrideGrant, ReviewOutcome } from '../review-pull-request.js';
import type { SelfLogin } from '../self-login.js';
import type { StateKey } from '../state-signature.js';

/**
 * What every handler shares: the App instance's per-PR queue, the operator's telemetry, its
 * metrics, who it is and the key that signs the state its comment carries.
 */
export interface HandlerDeps {
  queue: PrQueue;
  telemetry: TelemetryProvider;
  metrics: AppMetrics;
  self: SelfLogin;
  stateKey: StateKey | null;
  /** Override commands already handled, by comment: a command re-sent grants nothing twice. */
  commands: DeliveryLog;
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
      reviewPullRequest({ ...reviewDeps(deps), octokit, log, target, ...(grant ? { grant } : {}) }),
    );
    await deps.queue.markReviewed(key, target.headSha);
    return outcome;
  });
}

/** The parts of the handlers' shared state a review takes. */
export function reviewDeps(deps: HandlerDeps): Pick<HandlerDeps, 'telemetry' | 'self' | 'stateKey'> {
  return { telemetry: deps.telemetry, self: deps.self, stateKey: deps.stateKey };
}
