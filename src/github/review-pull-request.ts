import { redactSecrets, redactor } from '../domain/redact.js';
import type { ReviewResult } from '../domain/review.js';
import { sharedParsePool } from '../detect/parse-pool.js';
import { renderCheck, renderFailedCheck } from '../report/check.js';
import type { CheckOutput } from '../report/check.js';
import { COMMENT_MARKER, renderComment } from '../report/comment.js';
import type { TelemetryProvider } from '../telemetry/from-env.js';
import { POLICY_PATHS, runReview } from '../review.js';
import type { LoadedPolicy } from '../review.js';
import { ApiChangeSet } from './api-change-set.js';
import { adaptCheckOutput } from './check-output.js';
import { CheckRun } from './check-run.js';
import type { GitHubClient, Logger, PullRequestTarget } from './client.js';
import { findMarkedComment } from './comment-poster.js';
import { describeFailure } from './errors.js';
import { applyOverrideToCheck, applyOverrideToComment, overridable, recordedOverride, requestFingerprint } from './override.js';
import type { OverrideRecord } from './override.js';
import { loadPolicy } from './policy-loader.js';
import { headIsCurrent, postOverridden, postPlain } from './post-review.js';
import type { Posting, Rendered } from './post-review.js';
import { withRefusedFiles } from './refused-files.js';

export interface OverrideGrant {
  by: string;
  reason: string;
}

export interface ReviewPullRequestOptions {
  octokit: GitHubClient;
  log: Logger;
  target: PullRequestTarget;
  /** An override already authorised; recorded when the check does not pass on its own. */
  grant?: OverrideGrant;
  /** The operator's telemetry; absent when none is configured. */
  telemetry?: TelemetryProvider;
}

export interface ReviewOutcome {
  /** Null when the review could not run (the check says why). */
  result: ReviewResult | null;
  /** The check's conclusion before any override. */
  conclusion: CheckOutput['conclusion'];
  /** The override in force after this review, new or kept. */
  override: OverrideRecord | null;
}

/** One review's analysis: both sides read through the API, judged by the base policy. */
export interface Analysis {
  changes: ApiChangeSet;
  policy: LoadedPolicy;
  result: ReviewResult;
}

export async function analysePullRequest(
  octokit: GitHubClient,
  target: PullRequestTarget,
  provider?: TelemetryProvider,
): Promise<Analysis> {
  const changes = new ApiChangeSet(octokit, target);
  const policy = await loadPolicy(octokit, target.base, changes.base);
  // The policy and the catalog decide what is trusted: always read as the base commit has them.
  changes.readSparingly([...POLICY_PATHS, policy.policy.catalog]);
  const telemetry = provider?.(policy.policy);
  // The App serves webhooks and /ping from this thread: large files are parsed in workers.
  const reviewed = await runReview({
    changes,
    policy,
    headSha: target.headSha,
    offload: sharedParsePool(),
    ...(telemetry ? { telemetry } : {}),
  });
  return { changes, policy, result: withRefusedFiles(reviewed, changes.refusedFiles()) };
}

/**
 * Reviews one pull request at one head commit: check run in progress, read both sides through
 * the API, judge, post. Whatever fails, the check run is concluded; the failure is logged, not
 * rethrown, once the check says so.
 */
export async function reviewPullRequest(options: ReviewPullRequestOptions): Promise<ReviewOutcome> {
  const { octokit, log, target } = options;
  const pr = { repo: `${target.base.owner}/${target.base.repo}`, number: target.number, headSha: target.headSha };
  let check: CheckRun;
  try {
    check = await CheckRun.start(octokit, target.base, target.headSha);
  } catch (err) {
    // Nothing to conclude: let Probot record the failed delivery.
    log.error({ err: describeFailure(err), pr }, 'could not create check run');
    throw err;
  }
  try {
    const { changes, policy, result } = await analysePullRequest(octokit, target, options.telemetry);
    const render = (override: OverrideRecord | null): Rendered => {
      const plain = renderComment(result, {
        ...(target.headUrl === undefined ? {} : { headUrl: target.headUrl }),
        ...(target.draft ? { draft: true } : {}),
      });
      // What GitHub shows carries no secret of the process, in any encoding, whatever echoed it.
      const body = redactSecrets(override ? applyOverrideToComment(plain, override) : plain);
      const output = adaptCheckOutput(renderCheck(result, body), policy.diagnostics);
      return { body, output: redactor().redactDeep(override ? applyOverrideToCheck(output, override) : output) };
    };
    const plain = render(null).output;

    // The head first, so our comment is read as late as possible, just before writing it.
    const current = await headIsCurrent(octokit, target);
    const found = await findMarkedComment(octokit, target.base, target.number, COMMENT_MARKER);
    const known = currentOverride(options.grant, found?.body ?? null, result, plain, target.headSha);
    // The check belongs to the reviewed commit, so it concludes with that commit's result even
    // when the head moved; see post-review.ts for the order of comment and check.
    const posting: Posting = { octokit, log, target, check, result, changes, render, current, granted: options.grant !== undefined };
    const override = known ? await postOverridden(posting, known, found) : await postPlain(posting, found);
    return { result, conclusion: plain.conclusion, override };
  } catch (err) {
    const reason = describeFailure(err);
    log.error({ err: reason, pr }, 'review failed');
    try {
      await check.complete(renderFailedCheck(reason));
    } catch (concludeErr) {
      log.error({ err: describeFailure(concludeErr), pr }, 'could not conclude check run');
      throw concludeErr;
    }
    return { result: null, conclusion: 'neutral', override: null };
  }
}

/**
 * The override in force: a new grant when the check would not pass on its own, else the one
 * recorded in our comment while the GPU request is unchanged.
 */
function currentOverride(
  grant: OverrideGrant | undefined,
  commentBody: string | null,
  result: ReviewResult,
  output: CheckOutput,
  headSha: string,
): OverrideRecord | null {
  if (!overridable(output)) return null;
  if (grant) {
    return { ...grant, at: new Date().toISOString(), headSha, fingerprint: requestFingerprint(result) };
  }
  return recordedOverride(commentBody, result);
}
