import { renderCheck, renderFailedCheck } from '../../../report/index.js';
import type { CheckOutput } from '../../../report/index.js';
import { renderComment } from '../../../report/index.js';
import { noteGroupReview, renderCarriedCheck, renderUnnamedGroup } from '../../../report/index.js';
import type { GroupReviewReason } from '../../../report/index.js';
import { redactSecrets } from '../../../util/redact.js';
import { adaptCheckOutput } from '../../publish/index.js';
import { CheckRun, inProgressAfterSeconds } from '../../publish/index.js';
import type { GitHubClient, Logger, PullRequestTarget, RepoRef } from '../../api/index.js';
import { findMarkedComment } from '../../publish/index.js';
import { describeFailure } from '../../api/index.js';
import { loadPull } from '../../api/index.js';
import { analysePullRequest } from '../../review-pull-request.js';
import { reviewedState } from '../../overrides/index.js';
import type { ReviewedState } from '../../overrides/index.js';
import { readShown } from '../../overrides/index.js';
import type { MergeGroupJobData } from './jobs.js';
import type { Lane, WorkDeps } from './pull-request-job.js';
import { externalIdOf } from './pull-request-job.js';
import type { QueueJob } from './queue.js';
import { transient } from './transient.js';

/** `refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>`: the group's last pull request. */
const QUEUE_REF = /(?:^|\/)gh-readonly-queue\/.+\/pr-(\d+)-[0-9a-f]{40}$/;

function pullOfGroup(headRef: string): number | null {
  const n = Number(QUEUE_REF.exec(headRef)?.[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Concludes our check on a merge group's head. The group (base_sha..head_sha) is always read and
 * judged with the base branch's policy; where the state it judges (every capacity change, file
 * not followed, missing evidence and the policy: reviewed-state.ts) is the very one our signed
 * comment on the pull request shows for its current head, and our own check on that head has
 * concluded, the group gets that verdict, an override granted on the pull request included.
 * Anywhere else (several pull requests' capacity, a base that moved, a verdict not read back
 * and verified) the group's own review concludes it. A failure concludes it failed: a merge
 * queue never passes what was not judged.
 */
export async function runMergeGroupJob(deps: WorkDeps, lane: Lane, job: QueueJob, data: MergeGroupJobData): Promise<void> {
  const repo: RepoRef = { owner: data.owner, repo: data.repo };
  const last = job.attempt >= job.attempts;
  const log = deps.log.child({ mergeGroup: data.headRef, headSha: data.headSha, job: job.ref, attempt: job.attempt });
  const octokit = await deps.client(data.installationId, lane.store).catch((err: unknown) => {
    throw transient(err) ?? err;
  });
  const check = CheckRun.deferred(
    octokit,
    repo,
    data.headSha,
    inProgressAfterSeconds() * 1000,
    { externalId: externalIdOf(job), resume: job.resumed },
    deps.instance.checkName,
  );
  try {
    const number = pullOfGroup(data.headRef);
    if (number === null) {
      log.warn({}, 'merge group names no pull request; its check fails');
      await check.complete(renderUnnamedGroup(data.headRef));
      return;
    }
    const target: PullRequestTarget = {
      base: repo,
      head: repo,
      number,
      baseSha: data.baseSha,
      headSha: data.headSha,
      baseRef: data.baseRef.replace(/^refs\/heads\//, ''),
      compared: true,
    };
    const { policy, result } = await analysePullRequest(octokit, target, deps.telemetry, undefined, log);
    const state = reviewedState(result, policy, deps.stateKey);
    const verdict = await pullVerdict(octokit, deps, repo, number, state, log);
    if ('output' in verdict) {
      log.info({ pr: number, conclusion: verdict.output.conclusion }, "merge group carries its pull request's verdict");
      await check.complete(verdict.output);
      return;
    }
    const body = redactSecrets(renderComment(result));
    const own = adaptCheckOutput(renderCheck(result, body), policy.diagnostics);
    log.info({ pr: number, why: verdict.why, conclusion: own.conclusion }, 'merge group reviewed whole');
    await check.complete(noteGroupReview(own, number, verdict.why));
  } catch (err) {
    const retry = transient(err);
    if (retry && !last) {
      check.abandon();
      throw retry;
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
  octokit: GitHubClient,
  deps: WorkDeps,
  repo: RepoRef,
  number: number,
  state: ReviewedState,
  log: Logger,
): Promise<{ output: CheckOutput } | { why: GroupReviewReason }> {
  if (!deps.stateKey) return { why: 'no-verdict' };
  const pull = await loadPull(octokit, repo, number);
  const headSha = pull.target.headSha;
  const author = await deps.self();
  const comment = await findMarkedComment(octokit, { repo, issueNumber: number, marker: deps.instance.commentMarker, author });
  const shown = readShown(comment, { key: deps.stateKey, scope: { repo: `${repo.owner}/${repo.repo}`, number } });
  if (shown === null || shown.headSha !== headSha) return { why: 'no-verdict' };
  if (shown.fingerprint !== state.digest) return { why: 'changed' };
  const { data } = await octokit.rest.checks.listForRef({
    ...repo,
    ref: headSha,
    check_name: deps.instance.checkName,
    filter: 'latest',
    per_page: 100,
  });
  // Newest first; only a run our App wrote, and only once it has concluded.
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
