import type { Mode } from '../domain/policy.js';
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
import { withUnlistedFiles } from './unlisted-files.js';
import { budgetWrites, WriteBudgetExceededError } from './write-budget.js';

/** Pause before concluding again a check GitHub would not conclude for a reason other than its rate. */
const CONCLUDE_AGAIN_MS = 5000;

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
  onPolicy?: (policy: LoadedPolicy) => void,
): Promise<Analysis> {
  const changes = new ApiChangeSet(octokit, target);
  const policy = await loadPolicy(octokit, target.base, changes.base);
  onPolicy?.(policy);
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
  return { changes, policy, result: withUnlistedFiles(withRefusedFiles(reviewed, changes.refusedFiles()), await changes.unlistedFiles()) };
}

/**
 * Reviews one pull request at one head commit: check run in progress, read both sides through
 * the API, judge, post. Whatever fails, the check run is concluded; the failure is logged, not
 * rethrown, once the check says so. A conclusion once computed is the one the check gets: a
 * write that fails after it (the comment, suggestions) is logged, never turned into a softer
 * conclusion.
 */
export async function reviewPullRequest(options: ReviewPullRequestOptions): Promise<ReviewOutcome> {
  const { log, target } = options;
  const octokit = budgetWrites(options.octokit, log);
  const pr = { repo: `${target.base.owner}/${target.base.repo}`, number: target.number, headSha: target.headSha };
  let check: CheckRun;
  try {
    check = await CheckRun.start(octokit, target.base, target.headSha);
  } catch (err) {
    // Nothing to conclude: let Probot record the failed delivery.
    log.error({ err: describeFailure(err), pr }, 'could not create check run');
    throw err;
  }
  // What is known when something fails: the policy's mode, and the conclusion the review reached.
  let mode: Mode | null = null;
  let computed: { result: ReviewResult; output: CheckOutput } | null = null;
  const onPolicy = (loaded: LoadedPolicy): void => {
    // An invalid policy is judged as enforce (see runReview): so is a failure after reading it.
    mode = loaded.diagnostics.some((d) => d.severity === 'error') ? 'enforce' : loaded.policy.mode;
  };
  try {
    const { changes, policy, result } = await analysePullRequest(octokit, target, options.telemetry, onPolicy);
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
    computed = { result, output: plain };

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
    if (computed && check.concluded !== null) {
      // The check already says what the review found; only a later write (the comment) failed.
      log.error({ err: reason, pr, conclusion: check.concluded }, 'review concluded, but posting the rest failed');
      if (check.concluded === computed.output.conclusion) await noteUnposted(check, computed.output, reason, log);
      return { result: computed.result, conclusion: computed.output.conclusion, override: null };
    }
    log.error({ err: reason, pr }, 'review failed');
    // A review that reached a verdict concludes with it, never with the softer "could not run".
    const output = computed ? computed.output : renderFailedCheck(reason, mode);
    try {
      await check.complete(output);
    } catch (concludeErr) {
      // Never left in progress: tried again later, when the rate limit lifts or after a pause.
      const limited = concludeErr instanceof WriteBudgetExceededError;
      const at = limited ? concludeErr.retryAt : Date.now() + CONCLUDE_AGAIN_MS;
      check.concludeLater(output, at, log);
      log.warn({ pr, err: describeFailure(concludeErr), retryAt: new Date(at).toISOString() }, 'check run to be concluded later');
      // A rate limit is waited out; anything else also marks the delivery failed, for Probot to record.
      if (!limited) throw concludeErr;
    }
    return computed
      ? { result: computed.result, conclusion: computed.output.conclusion, override: null }
      : { result: null, conclusion: output.conclusion, override: null };
  }
}

/** Says on the check, its conclusion unchanged, that the comment could not be posted. Best effort. */
async function noteUnposted(check: CheckRun, output: CheckOutput, reason: string, log: Logger): Promise<void> {
  try {
    await check.revise({ ...output, summary: `${output.summary}\n\n_The comment could not be posted: ${reason}._` });
  } catch (err) {
    log.warn({ err: describeFailure(err) }, 'could not note on the check that the comment was not posted');
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
