import type { ReviewResult } from '../domain/review.js';
import type { TelemetryProvider } from '../telemetry/index.js';
import { DEFAULT_POLICY } from '../domain/policy.js';
import { POLICY_PATHS } from '../review/index.js';
import type { LoadedPolicy } from '../review/index.js';
import { ApiChangeSet } from './api/index.js';
import type { RunIdentity } from './publish/index.js';
import type { GitHubClient, Logger, PullRequestTarget } from './api/index.js';
import { GraphqlBlobs, ReadBudget } from './api/index.js';
import { loadPolicy, policyCandidates, policyTrees } from './api/index.js';
import { withRefusedFiles } from './api/index.js';
import { withUnlistedFiles } from './api/index.js';
import { budgetWrites } from './publish/index.js';
import type { OverrideGrant } from './overrides/index.js';
import type { SelfLogin } from './api/index.js';
import type { StateKey } from './overrides/index.js';
import { DEFAULT_INSTANCE } from './publish/index.js';
import type { Instance } from './publish/index.js';
import { githubPublisher } from './publish/index.js';
import { reviewAndPublish } from './review-and-publish.js';
import type { ReviewOutcome } from './review-and-publish.js';
import { githubReads } from './review-reads.js';
import { ReviewDeadline } from './review-deadline.js';
import { sharedReviewRunner } from './review-pool.js';
import type { ReviewRunner } from './review-runner.js';

export type { OverrideGrant, ReviewOutcome };

export interface ReviewPullRequestOptions {
  octokit: GitHubClient;
  log: Logger;
  target: PullRequestTarget;
  /** An override already authorised; recorded when the check does not pass on its own. */
  grant?: OverrideGrant;
  /** The operator's telemetry; absent when none is configured. */
  telemetry?: TelemetryProvider;
  /** Our own login: only our comments are read or written as ours. */
  self: SelfLogin;
  /** Signs and checks the state our comment carries; null: none is trusted. */
  stateKey: StateKey | null;
  /** Told the policy that judges, once it is read (a job keeps its digest beside the head it reviewed). */
  onPolicy?: (policy: LoadedPolicy) => void;
  /** Where the review reads and judges: the App's review workers unless told (see AnalysisRun). */
  runner?: ReviewRunner;
  /** How a later attempt of the same queued job finds this review's check run (work/queue.ts). */
  checkRun?: RunIdentity;
  /**
   * Whether the caller runs this review again for a failure (GitHub's 5xx, a rate limit): the
   * failure is then thrown and the check left to that run, never concluded "could not run" here.
   */
  retry?: (err: unknown) => boolean;
  /** Whose comment, suggestions and check run these are (instance.ts); the unnamed one unless told. */
  instance?: Instance;
  /** Taken before our comment is created: reviews of one pull request running at once create it once. */
  claimComment?: () => Promise<boolean>;
  /** The first wait before our comment, failed after the check concluded, is written again; 1 s unless told. */
  commentRetryBaseMs?: number;
}

/** One review's analysis: both sides read through the API, judged by the base policy. */
export interface Analysis {
  changes: ApiChangeSet;
  policy: LoadedPolicy;
  result: ReviewResult;
}

/** How one analysis runs: where, and within what deadline. */
export interface AnalysisRun {
  /** The App's review workers (`GPU_JUSTIFY_REVIEW_WORKERS`) by default; the Action runs in its own thread. */
  runner?: ReviewRunner;
  /** Seconds it may take; `GPU_JUSTIFY_REVIEW_DEADLINE_SECONDS` by default. */
  deadlineSeconds?: number;
}

/**
 * Reads and judges the pull request within the review's deadline: past it, the review is stopped
 * (its worker terminated) and this fails with a ReviewDeadlineError, which the check names.
 */
export async function analysePullRequest(
  octokit: GitHubClient,
  target: PullRequestTarget,
  provider?: TelemetryProvider,
  onPolicy?: (policy: LoadedPolicy) => void,
  log?: Logger,
  run: AnalysisRun = {},
): Promise<Analysis> {
  const deadline = new ReviewDeadline(run.deadlineSeconds);
  return deadline.race(analyse(octokit, target, { runner: run.runner ?? sharedReviewRunner(), deadline }, provider, onPolicy, log));
}

async function analyse(
  octokit: GitHubClient,
  target: PullRequestTarget,
  run: { runner: ReviewRunner; deadline: ReviewDeadline },
  provider?: TelemetryProvider,
  onPolicy?: (policy: LoadedPolicy) => void,
  log?: Logger,
): Promise<Analysis> {
  // Each file is bounded by GitHub's size limit; the pull request, by the review's read budget,
  // which also bounds the text its prefetches download.
  const budget = new ReadBudget();
  const blobs = new GraphqlBlobs(octokit, log ?? null, budget.maxBytes);
  const changes = new ApiChangeSet(octokit, target, blobs, budget);
  // The file list first; then the policy, the usual catalog and the changed files share one
  // query. A list that failed is reported by the review, after the policy says how to judge it.
  await changes.changedPaths().catch(() => undefined);
  blobs.prefetch([
    ...policyCandidates(target.base, target.baseSha),
    { repo: target.base, ref: target.baseSha, path: DEFAULT_POLICY.catalog },
    { repo: target.head, ref: target.headSha, path: DEFAULT_POLICY.catalog },
  ]);
  // The policy's directories too, here and in the organisation's `.github`: a policy path that
  // gives no text is asked what stands there (a submodule, a link, a directory, or inside one),
  // and its directory's and the root's entries ride in the same query.
  blobs.prefetchTrees(policyTrees(target.base, target.baseSha));
  const policy = await loadPolicy(octokit, target.base, changes.base, blobs);
  onPolicy?.(policy);
  // The policy and the catalog decide what is trusted: always read as the base commit has them.
  changes.readSparingly([...POLICY_PATHS, policy.policy.catalog]);
  const telemetry = provider?.(policy.policy);
  // The App serves webhooks and /ping from this thread: the review itself runs in a worker.
  const input = {
    changes: run.deadline.track(changes),
    policy,
    headSha: target.headSha,
    ...(target.baseRef === undefined ? {} : { baseBranch: target.baseRef }),
    ...(telemetry ? { telemetry } : {}),
  };
  const reviewed = await run.runner.run(input, run.deadline.signal);
  return { changes, policy, result: withUnlistedFiles(withRefusedFiles(reviewed, changes.refusedFiles()), await changes.unlistedFiles()) };
}

/**
 * Reviews one pull request at one head commit through GitHub: reads both sides through the API,
 * judges, renders, and publishes the check run, our comment and suggestions (review-and-publish.ts
 * holds the rules; this wires it to GitHub). Every write is within the review's write budget.
 */
export async function reviewPullRequest(options: ReviewPullRequestOptions): Promise<ReviewOutcome> {
  const { log, target } = options;
  const instance = options.instance ?? DEFAULT_INSTANCE;
  const octokit = budgetWrites(options.octokit, log);
  // The check is set up first: in progress once the review runs long (see CheckRun.deferred).
  const publisher = githubPublisher({
    octokit,
    log,
    target,
    instance,
    checkRun: options.checkRun ?? null,
    ...(options.claimComment ? { claimComment: options.claimComment } : {}),
    ...(options.commentRetryBaseMs === undefined ? {} : { commentRetryBaseMs: options.commentRetryBaseMs }),
  });
  const judge = (onPolicy: (policy: LoadedPolicy) => void): Promise<Analysis> =>
    analysePullRequest(
      octokit,
      target,
      options.telemetry,
      (policy) => {
        onPolicy(policy);
        options.onPolicy?.(policy);
      },
      log,
      options.runner ? { runner: options.runner } : {},
    );
  return reviewAndPublish({
    log,
    target,
    reads: githubReads(octokit, target, options.self, judge),
    publisher,
    grant: options.grant,
    stateKey: options.stateKey,
    instance,
    retry: options.retry,
  });
}
