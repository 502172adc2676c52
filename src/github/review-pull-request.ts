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
import { findMarkedComment } from './comment-poster.js';
import { describeFailure } from './errors.js';
import { applyOverrideToCheck, applyOverrideToComment, overrideStillApplies, readOverride, requestFingerprint } from './override.js';
import type { OverrideRecord, StateTrust } from './override.js';
import { overrideInForce } from './override-decision.js';
import type { OverrideGrant } from './override-decision.js';
import type { SelfLogin } from './self-login.js';
import { readShown, shownMarker } from './shown-request.js';
import type { StateKey } from './state-signature.js';
import { loadPolicy } from './policy-loader.js';
import { decideOverride } from './override-permission.js';
import { postOverridden, postPlain } from './post-review.js';
import type { Posting, Rendered } from './post-review.js';
import { withRefusedFiles } from './refused-files.js';

export type { OverrideGrant };

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
}

export interface ReviewOutcome {
  /** Null when the review could not run (the check says why). */
  result: ReviewResult | null;
  /** The check's conclusion before any override. */
  conclusion: CheckOutput['conclusion'];
  /** The override in force after this review, new or kept. */
  override: OverrideRecord | null;
  /** Why a grant asked for was not recorded; null otherwise. */
  refused: string | null;
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
    const author = await options.self();
    const trust: StateTrust = { key: options.stateKey, scope: { repo: pr.repo, number: target.number } };
    // The head first, so our comment is read as late as possible, just before writing it.
    const { data: pull } = await octokit.rest.pulls.get({ ...target.base, pull_number: target.number });
    const current = pull.head.sha === target.headSha;
    const found = await findMarkedComment(octokit, { repo: target.base, issueNumber: target.number, marker: COMMENT_MARKER, author });
    const fingerprint = requestFingerprint(result);
    const shown = readShown(found, trust);
    const shownState = shownMarker({ headSha: target.headSha, fingerprint }, shown, trust);
    const render = (override: OverrideRecord | null): Rendered => {
      const plain = withShown(
        renderComment(result, {
          ...(target.headUrl === undefined ? {} : { headUrl: target.headUrl }),
          ...(target.draft ? { draft: true } : {}),
        }),
        shownState,
      );
      const body = override ? applyOverrideToComment(plain, override) : plain;
      const output = adaptCheckOutput(renderCheck(result, body), policy.diagnostics);
      return { body, output: override ? applyOverrideToCheck(output, override) : output };
    };
    const plain = render(null).output;
    const decision = overrideInForce({
      grant: options.grant,
      commentBody: found?.body ?? null,
      shown,
      result,
      output: plain,
      headSha: target.headSha,
      trust,
      now: new Date(),
    });
    if (decision.unverified > 0) log.warn({ pr, records: decision.unverified }, 'override record failed verification; ignored');
    if (decision.refused) log.info({ pr, why: decision.refused }, 'override not bound to the reviewed request');
    const granted = options.grant !== undefined && decision.override !== null && decision.override.commentId === options.grant.commentId;
    let known = decision.override;
    let revoked: number | null = null;
    if (known && !granted) {
      // A carried override holds only while its grantor may still grant it: a role or team
      // membership taken away since ends it, whatever the comment records.
      const policyNow = policy.policy.overrides;
      const now = await decideOverride(octokit, { repo: target.base, login: known.by, author: pull.user.login, policy: policyNow });
      if (!now.allowed) {
        log.info({ pr, by: known.by, why: now.why }, 'override dropped: its grantor may no longer override');
        revoked = known.commentId;
        known = null;
      }
    }
    const adopt = (body: string): OverrideRecord | null => {
      const reading = readOverride(body, trust);
      if (reading.kind !== 'verified' || reading.record.commentId === revoked) return null;
      return overrideStillApplies(reading.record, result) ? reading.record : null;
    };
    // The check belongs to the reviewed commit, so it concludes with that commit's result even
    // when the head moved; see post-review.ts for the order of comment and check.
    const posting: Posting = { octokit, log, target, check, result, changes, render, current, granted, author, adopt };
    const override = known ? await postOverridden(posting, known, found) : await postPlain(posting, found);
    return { result, conclusion: plain.conclusion, override, refused: decision.refused };
  } catch (err) {
    const reason = describeFailure(err);
    log.error({ err: reason, pr }, 'review failed');
    try {
      await check.complete(renderFailedCheck(reason));
    } catch (concludeErr) {
      log.error({ err: describeFailure(concludeErr), pr }, 'could not conclude check run');
      throw concludeErr;
    }
    return { result: null, conclusion: 'neutral', override: null, refused: null };
  }
}

/** Our comment with the signed record of what it shows, right after the comment's marker. */
function withShown(body: string, marker: string): string {
  return marker === '' ? body : body.replace(COMMENT_MARKER, () => `${COMMENT_MARKER}\n${marker}`);
}
