import type { ReviewResult } from '../domain/review.js';
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
import { findMarkedComment, upsertComment } from './comment-poster.js';
import { describeFailure } from './errors.js';
import {
  applyOverrideToCheck,
  applyOverrideToComment,
  overridable,
  overrideStillApplies,
  parseOverrideMarker,
  requestFingerprint,
} from './override.js';
import type { OverrideRecord } from './override.js';
import { loadPolicy } from './policy-loader.js';
import { withRefusedFiles } from './refused-files.js';
import { syncSuggestions } from './suggestion-poster.js';
import { planSuggestions } from './suggestions.js';

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
  const reviewed = await runReview({ changes, policy, headSha: target.headSha, ...(telemetry ? { telemetry } : {}) });
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
    let body = renderComment(result, {
      ...(target.headUrl === undefined ? {} : { headUrl: target.headUrl }),
      ...(target.draft ? { draft: true } : {}),
    });
    let output = adaptCheckOutput(renderCheck(result, body), policy.diagnostics);
    const conclusion = output.conclusion;

    const existing = await findMarkedComment(octokit, target.base, target.number, COMMENT_MARKER);
    const override = currentOverride(options.grant, existing?.body ?? null, result, output, target.headSha);
    if (override) {
      body = applyOverrideToComment(body, override);
      output = applyOverrideToCheck(adaptCheckOutput(renderCheck(result, body), policy.diagnostics), override);
    }

    if (await headIsCurrent(octokit, target)) {
      const outcome = await upsertComment(octokit, {
        repo: target.base,
        issueNumber: target.number,
        marker: COMMENT_MARKER,
        body,
        createIfAbsent: worthNewComment(result) || override !== null,
        existing,
        // Asked only when another replica's comment won a creation race, before writing over it.
        stillCurrent: () => headIsCurrent(octokit, target),
        log,
      });
      log.info({ pr, verdict: result.verdict, comment: outcome, overridden: override !== null }, 'review posted');
      await postSuggestions(options, result, changes, existing !== null);
    } else {
      // A newer push has its own review coming; this result must not replace it.
      log.info({ pr, verdict: result.verdict }, 'head moved; comment not posted');
    }
    // The check belongs to the reviewed commit, so it concludes with that commit's result.
    await check.complete(output);
    return { result, conclusion, override };
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
  const recorded = commentBody === null ? null : parseOverrideMarker(commentBody);
  return overrideStillApplies(recorded, result) ? recorded : null;
}

/** Suggested changes are a convenience: failing to post them never fails the review. */
async function postSuggestions(
  { octokit, log, target }: ReviewPullRequestOptions,
  result: ReviewResult,
  changes: ApiChangeSet,
  reviewedBefore: boolean,
): Promise<void> {
  try {
    const wanted = await planSuggestions(result, changes.head);
    // Without an earlier review there are no earlier suggestions to replace.
    if (wanted.length === 0 && !reviewedBefore) return;
    const outcome = await syncSuggestions(octokit, log, target, wanted);
    if (outcome.created + outcome.deleted > 0) log.info({ number: target.number, ...outcome }, 'suggestions updated');
  } catch (err) {
    log.warn({ err: describeFailure(err), number: target.number }, 'could not update suggested changes');
  }
}

/**
 * Most pull requests touch no GPUs and deserve no comment; one whose capacity files could not be
 * read does, so the author learns why.
 */
function worthNewComment(result: ReviewResult): boolean {
  return result.verdict !== 'no-gpu-change' || result.diagnostics.some((d) => d.severity !== 'info');
}

async function headIsCurrent(octokit: GitHubClient, target: PullRequestTarget): Promise<boolean> {
  const { data } = await octokit.rest.pulls.get({ ...target.base, pull_number: target.number });
  return data.head.sha === target.headSha;
}
