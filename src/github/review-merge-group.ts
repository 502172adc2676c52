import { noteGroupReview, renderCarriedCheck, renderCheck, renderComment, renderFailedCheck, renderUnnamedGroup } from '../report/index.js';
import type { CheckOutput, GroupReviewReason } from '../report/index.js';
import { redactSecrets } from '../util/redact.js';
import type { TelemetryProvider } from '../telemetry/index.js';
import { adaptCheckOutput, CheckRun, findMarkedComment, inProgressAfterSeconds } from './publish/index.js';
import type { Instance, RunIdentity } from './publish/index.js';
import type { GitHubClient, Logger, PullRequestTarget, RepoRef, SelfLogin } from './api/index.js';
import { describeFailure, loadPull } from './api/index.js';
import { analysePullRequest } from './review-pull-request.js';
import type { ReviewRunner } from './review-runner.js';
import { readShown, reviewedState } from './overrides/index.js';
import type { ReviewedState, StateKey } from './overrides/index.js';

/** A merge group as GitHub's `merge_group` event names it. */
interface MergeGroup {
  /** `refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>`: names the group's last pull request. */
  headRef: string;
  headSha: string;
  baseSha: string;
  /** `refs/heads/main`: the branch whose policy judges the group. */
  baseRef: string;
}

export interface MergeGroupReviewOptions {
  octokit: GitHubClient;
  log: Logger;
  repo: RepoRef;
  group: MergeGroup;
  telemetry?: TelemetryProvider;
  /** Checks the state our comment carries; null: no pull request's verdict is trusted, the group is judged whole. */
  stateKey: StateKey | null;
  instance: Instance;
  /** Our own login: only our comment and our check run on the pull request count. */
  self: SelfLogin;
  /** How a later attempt of the same queued job finds this check run; null: none will. */
  checkRun: RunIdentity | null;
  /** Where the group is judged: the App's review workers unless told. */
  runner?: ReviewRunner;
  /** Whether the caller runs this again for a failure: the check is then left to that run. */
  retry?: (err: unknown) => boolean;
}

/** `refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>`: the group's last pull request. */
const QUEUE_REF = /(?:^|\/)gh-readonly-queue\/.+\/pr-(\d+)-[0-9a-f]{40}$/;

function pullOfGroup(headRef: string): number | null {
  const n = Number(QUEUE_REF.exec(headRef)?.[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Concludes our check on a merge group's head, for the App and the Action alike. The group
 * (base_sha..head_sha) is always read and judged with the base branch's policy; where the state
 * it judges (every capacity change, file not followed, missing evidence and the policy:
 * reviewed-state.ts) is the very one our signed comment on the pull request shows for its current
 * head, and our own check on that head has concluded, the group gets that verdict, an override
 * granted on the pull request included. Anywhere else (several pull requests' capacity, a base
 * that moved, a verdict not read back and verified) the group's own review concludes it. A
 * failure concludes it failed: a merge queue never passes what was not judged.
 */
export async function reviewMergeGroup(o: MergeGroupReviewOptions): Promise<CheckOutput['conclusion']> {
  const { octokit, log, repo, group } = o;
  const check = CheckRun.deferred(octokit, repo, group.headSha, inProgressAfterSeconds() * 1000, o.checkRun, o.instance.checkName);
  try {
    const number = pullOfGroup(group.headRef);
    if (number === null) {
      log.warn({}, 'merge group names no pull request; its check fails');
      const unnamed = renderUnnamedGroup(group.headRef);
      await check.complete(unnamed);
      return unnamed.conclusion;
    }
    const target: PullRequestTarget = {
      base: repo,
      head: repo,
      number,
      baseSha: group.baseSha,
      headSha: group.headSha,
      baseRef: group.baseRef.replace(/^refs\/heads\//, ''),
      compared: true,
    };
    const { policy, result } = await analysePullRequest(octokit, target, o.telemetry, undefined, log, o.runner ? { runner: o.runner } : {});
    const state = reviewedState(result, policy, o.stateKey);
    const verdict = await pullVerdict(o, number, state);
    if ('output' in verdict) {
      log.info({ pr: number, conclusion: verdict.output.conclusion }, "merge group carries its pull request's verdict");
      await check.complete(verdict.output);
      return verdict.output.conclusion;
    }
    const body = redactSecrets(renderComment(result));
    const own = adaptCheckOutput(renderCheck(result, body), policy.diagnostics);
    log.info({ pr: number, why: verdict.why, conclusion: own.conclusion }, 'merge group reviewed whole');
    const noted = noteGroupReview(own, number, verdict.why);
    await check.complete(noted);
    return noted.conclusion;
  } catch (err) {
    if (o.retry?.(err)) {
      check.abandon();
      throw err;
    }
    const reason = describeFailure(err);
    log.error({ err: reason }, 'merge group could not be reviewed; its check fails');
    await check.complete(renderFailedCheck(reason, null)).catch((e: unknown) => {
      log.error({ err: describeFailure(e) }, 'merge group check could not be concluded');
    });
    throw err;
  }
}

/**
 * The pull request's verdict as our own writes have it: the state our signed comment shows for
 * the pull request's current head, and our check's conclusion on that head. Anything else a pull
 * request or a workflow can write (a check of the same name from another app, an unsigned or
 * edited marker) is no verdict.
 */
async function pullVerdict(
  o: MergeGroupReviewOptions,
  number: number,
  state: ReviewedState,
): Promise<{ output: CheckOutput } | { why: GroupReviewReason }> {
  const { octokit, repo, log } = o;
  if (!o.stateKey) return { why: 'no-verdict' };
  const pull = await loadPull(octokit, repo, number);
  const headSha = pull.target.headSha;
  const author = await o.self();
  const comment = await findMarkedComment(octokit, { repo, issueNumber: number, marker: o.instance.commentMarker, author });
  const shown = readShown(comment, { key: o.stateKey, scope: { repo: `${repo.owner}/${repo.repo}`, number } });
  if (shown === null || shown.headSha !== headSha) return { why: 'no-verdict' };
  if (shown.fingerprint !== state.digest) return { why: 'changed' };
  const { data } = await octokit.rest.checks.listForRef({
    ...repo,
    ref: headSha,
    check_name: o.instance.checkName,
    filter: 'latest',
    per_page: 100,
  });
  // Newest first; only a run our App (or the workflow token's github-actions) wrote, and only once it has concluded.
  const ours = data.check_runs.find((r) => r.app !== null && `${r.app.slug ?? ''}[bot]` === author);
  const conclusion = ours?.status === 'completed' ? ours.conclusion : null;
  if (!ours || (conclusion !== 'success' && conclusion !== 'failure' && conclusion !== 'neutral')) {
    log.info({ pr: number, headSha, status: ours?.status ?? null }, 'no concluded check of ours on the pull request head');
    return { why: 'no-verdict' };
  }
  const title = ours.output.title ?? '';
  const summary = ours.output.summary ?? '';
  return { output: renderCarriedCheck({ conclusion, title, summary }, number, headSha) };
}
