import { createHash, randomUUID } from 'node:crypto';
import { renderFailedCheck } from '../../../report/index.js';
import type { TelemetryProvider } from '../../../telemetry/index.js';
import { concludeLeftInProgress } from '../../publish/index.js';
import type { GitHubClient, Logger, RepoRef } from '../../api/index.js';
import { describeFailure } from '../../api/index.js';
import type { AppMetrics } from '../metrics.js';
import { loadPull } from '../../api/index.js';
import type { LoadedPull } from '../../api/index.js';
import { reviewPullRequest } from '../../review-pull-request.js';
import type { OverrideGrant, ReviewOutcome } from '../../review-pull-request.js';
import type { SelfLogin } from '../../api/index.js';
import type { StateKey } from '../../overrides/index.js';
import { acknowledge, answerWithoutReview, explain, onceForComment, override } from './commands.js';
import type { CommandContext } from './commands.js';
import type { CommitJobData, JobData, PrJobData } from './jobs.js';
import { prKey } from './jobs.js';
import { RetryLater } from './queue.js';
import type { JobQueue, QueueJob } from './queue.js';
import { MAILBOX_BATCH, readRequest } from './requests.js';
import type { Request } from './requests.js';
import type { WorkStore } from './store.js';
import { transient } from './transient.js';
import { oncePerQuestion } from './reply-once.js';
import { policyDigest, pushAlreadyReviewed } from './reviewed-head.js';
import type { Instance } from '../../publish/index.js';

/**
 * How long creating our comment on a pull request stays claimed by the review that created it: a
 * review of the same pull request running at the same moment (a job taken up by another replica
 * while its first runner still runs) finds that comment instead of creating a second.
 */
const COMMENT_CLAIM_MS = 60_000;

/** What a job needs besides its queue and store. */
export interface WorkDeps {
  /** The installation's client: instrumented and paced (writers/pacing.ts). */
  client(installationId: number, store: WorkStore): Promise<GitHubClient>;
  telemetry: TelemetryProvider;
  metrics: AppMetrics;
  self: SelfLogin;
  stateKey: StateKey | null;
  /** Whose comment, suggestions and check runs these are (instance.ts). */
  instance: Instance;
  log: Logger;
  /** A re-run within this long of a review of the same head and base is answered by that review. */
  rerunWindowMs: number;
  /** The first wait before a failed job runs again, and before a comment that failed after its check concluded is written again. */
  retryBaseMs: number;
}

/** Where a job runs: its queue and the store beside it (both Redis, or both this process's memory). */
export interface Lane {
  queue: JobQueue;
  store: WorkStore;
}

/** The `external_id` of a job's check runs: a later attempt of the job finds its run by it. */
export function externalIdOf(job: Pick<QueueJob, 'ref'>): string {
  return `gpu-justify/${createHash('sha256').update(job.ref).digest('hex').slice(0, 32)}`;
}

/**
 * A commit's check event that listed no pull request (GitHub leaves fork pull requests out):
 * the open pull requests whose head it is get a job each.
 */
export async function runCommitJob(deps: WorkDeps, lane: Lane, job: QueueJob, data: CommitJobData): Promise<void> {
  const repo = { owner: data.owner, repo: data.repo };
  try {
    const octokit = await deps.client(data.installationId, lane.store);
    const { data: pulls } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: data.headSha,
      per_page: 100,
    });
    const full = `${repo.owner}/${repo.repo}`.toLowerCase();
    const numbers = pulls
      .filter((pr) => pr.state === 'open' && pr.head.sha === data.headSha && pr.base.repo.full_name.toLowerCase() === full)
      .map((pr) => pr.number);
    for (const number of numbers) {
      const next: JobData = {
        kind: 'pr',
        installationId: data.installationId,
        ...repo,
        number,
        headSha: data.headSha,
        delivery: data.delivery,
      };
      const request: Request = data.rerun
        ? { kind: 'rerun', delivery: data.delivery, headSha: data.headSha }
        : { kind: 'review', delivery: data.delivery, event: 'check_suite', at: Date.now(), headSha: data.headSha };
      await lane.store.post(prKey(repo.owner, repo.repo, number), request);
      await lane.queue.add(next);
    }
  } catch (err) {
    throw transient(err) ?? err;
  }
}

/**
 * Brings one pull request up to date: answers the requests in its mailbox, oldest first, each
 * removed once answered (a later attempt does not answer it twice). Every review is of the head
 * as it is when the job runs, so pushes that arrived while the job waited take one review, not
 * one each. Events are coalesced: one answered by a review that started after it arrived needs
 * no other, and a re-run within `rerunWindowMs` of a review that reached a verdict on the same
 * head and base is answered by that review (its command still gets its reaction). Transient
 * failures are handed back to the queue; on the last attempt a review concludes its check
 * whatever happens, and a job that fails for good leaves none of its checks in progress.
 */
export async function runPullRequestJob(deps: WorkDeps, lane: Lane, job: QueueJob, data: PrJobData): Promise<void> {
  const { store } = lane;
  const key = prKey(data.owner, data.repo, data.number);
  const repo: RepoRef = { owner: data.owner, repo: data.repo };
  const last = job.attempt >= job.attempts;
  const log = deps.log.child({ pr: key, job: job.ref, attempt: job.attempt });
  let octokit: GitHubClient | null = null;
  let pull: LoadedPull | null = null;
  let reviews = 0;
  try {
    const entries = await store.peek(key, MAILBOX_BATCH);
    // Nothing asked since the last job answered (a redelivery queued again, a fold after the
    // mailbox was read): no GitHub request. A job run before may have a check to conclude.
    if (entries.length === 0 && !job.resumed) {
      log.debug({}, 'mailbox empty; nothing to do');
      return;
    }
    octokit = await deps.client(data.installationId, store);
    const client = octokit;
    const requests = entries.map(readRequest);
    pull = await loadPull(client, repo, data.number);
    const current = pull;
    if (!current.open) {
      log.info({ requests: entries.length }, 'pull request is closed; nothing to review');
      await store.drop(key, entries.length);
      return;
    }
    const { headSha, baseSha } = current.target;
    const review = async (grant?: OverrideGrant): Promise<ReviewOutcome> => {
      reviews++;
      const startedAt = Date.now();
      let policy: string | undefined;
      const claim = { key: `comment:${key}|${deps.instance.checkName}`, holder: randomUUID() };
      const outcome = await deps.metrics.timeReview(
        () =>
          reviewPullRequest({
            octokit: client,
            log,
            target: current.target,
            telemetry: deps.telemetry,
            self: deps.self,
            stateKey: deps.stateKey,
            instance: deps.instance,
            onPolicy: (loaded) => (policy = policyDigest(loaded)),
            ...(grant ? { grant } : {}),
            // The first review of a job picks up the run an earlier attempt left.
            checkRun: { externalId: externalIdOf(job), resume: job.resumed && reviews === 1 },
            retry: (err) => !last && transient(err) !== null,
            claimComment: () => store.lease(claim.key, COMMENT_CLAIM_MS, claim.holder),
            commentRetryBaseMs: deps.retryBaseMs,
          }).catch(async (err: unknown) => {
            const retry = transient(err);
            // Handed back to the queue: its next attempt reads our comment before creating one,
            // so it need not wait out the claim this attempt took (a comment that failed to post).
            if (retry) await store.unlease(claim.key, claim.holder).catch(() => undefined);
            throw retry ?? err;
          }),
        (err) => err instanceof RetryLater,
      );
      await store.markReviewed(key, headSha, baseSha, {
        at: startedAt,
        verdict: outcome.result?.verdict ?? null,
        ...(policy === undefined ? {} : { policy }),
      });
      // The review is over: the comment it may have created is on GitHub for the next review to
      // find. Held on, the claim would make a later review whose comment is missing (deleted, or
      // never ours) wait out WAIT_FOR_WINNER_MS for a winner that is not coming.
      await store.unlease(claim.key, claim.holder).catch(() => undefined);
      return outcome;
    };
    const context: CommandContext = { octokit: client, log, repo, pull: current, telemetry: deps.telemetry, store, review };
    for (const request of requests) {
      if (request === null) log.warn({}, 'mailbox entry that is not a request dropped');
      else {
        try {
          await answer(deps, context, key, request);
        } catch (err) {
          // Tried again with its job; anything else would fail the same way again and hold
          // every later request of the pull request behind it.
          if (transient(err)) throw err;
          log.error(
            { command: request.kind, delivery: request.delivery, err: describeFailure(err) },
            'request could not be answered; dropped',
          );
        }
      }
      await store.drop(key, 1);
    }
    // Taken up after its replica died: that replica may have left a check in progress on the head
    // it was queued for, which a newer push has since replaced. The newer head was reviewed here;
    // the older one's check is concluded rather than left in progress for good.
    if (job.resumed && data.headSha !== headSha)
      await concludeChecks(client, repo, [data.headSha], externalIdOf(job), SUPERSEDED_WHILE_STOPPED, log, deps.instance.checkName);
  } catch (err) {
    const retry = transient(err);
    if (retry && !last) throw retry;
    // Failed for good: no check of this job stays in progress, on the head it reviewed or was queued for.
    if (octokit)
      await concludeChecks(
        octokit,
        repo,
        [pull?.target.headSha, data.headSha],
        externalIdOf(job),
        describeFailure(err),
        log,
        deps.instance.checkName,
      );
    throw err;
  }
}

async function answer(deps: WorkDeps, c: CommandContext, key: string, request: Request): Promise<void> {
  const { octokit, repo, pull } = c;
  const log = c.log.child({ command: request.kind, delivery: request.delivery, ...('by' in request ? { by: request.by } : {}) });
  if ('commentId' in request && request.commentId !== undefined && request.kind !== 'invalid')
    await acknowledge(octokit, repo, request.commentId);
  if ((request.kind === 'review' || request.kind === 'rerun') && request.headSha !== undefined && request.headSha !== pull.target.headSha) {
    log.info({ headSha: request.headSha, head: pull.target.headSha }, 'commit is no longer the head of the pull request; not reviewed');
    return;
  }
  switch (request.kind) {
    case 'help':
    case 'invalid':
    case 'explain': {
      // A burst of one question on one head is answered once (reply-once.ts); a command not
      // understood is answered once per commenter, since the reply quotes what they wrote.
      const asked = request.kind === 'invalid' ? `invalid:${request.by.toLowerCase()}` : request.kind;
      const reviewedAt =
        request.kind === 'explain' ? ((await c.store.reviewed(key, pull.target.headSha, pull.target.baseSha))?.at ?? null) : null;
      const question = { pr: key, asked, headSha: pull.target.headSha, baseSha: pull.target.baseSha, reviewedAt };
      const reply = () =>
        request.kind === 'explain' ? explain({ ...c, log }) : answerWithoutReview(octokit, repo, pull.target.number, request);
      return onceForComment({ ...c, log }, request.commentId, () => oncePerQuestion(c.store, log, question, deps.rerunWindowMs, reply));
    }
    case 'override':
      return override({ ...c, log }, request);
    case 'review': {
      const done = await c.store.reviewed(key, pull.target.headSha, pull.target.baseSha);
      // Events that arrived together are answered by one review: the first runs it, the rest find it.
      // A push for a head already reviewed and checked is a redelivery (reviewed-head.ts).
      const answered =
        request.event === 'check_suite'
          ? done !== null
          : done !== null &&
            (done.at >= request.at ||
              (request.push === true &&
                (await pushAlreadyReviewed(
                  { octokit, repo, pull, self: deps.self, checkName: deps.instance.checkName },
                  done,
                  request.before === undefined ? null : await c.store.reviewed(key, request.before, pull.target.baseSha),
                ))));
      if (answered) log.debug({ headSha: pull.target.headSha }, 'event answered by a review of the same head');
      else await c.review();
      return;
    }
    case 'rerun': {
      const { headSha, baseSha } = pull.target;
      const done = await c.store.reviewed(key, headSha, baseSha);
      if (done !== null && done.verdict !== null && Date.now() - done.at < deps.rerunWindowMs) {
        deps.metrics.rerunsCoalesced.inc();
        log.info({ headSha, reviewedAt: new Date(done.at).toISOString() }, 're-run answered by the review of the same head');
        return;
      }
      await c.review();
      return;
    }
  }
}

const SUPERSEDED_WHILE_STOPPED =
  'the App replica reviewing this commit stopped before it finished, and a newer commit was pushed meanwhile: the newer commit is reviewed instead';

/** Concludes the job's checks left in progress, on each head named; best effort, logged. */
async function concludeChecks(
  octokit: GitHubClient,
  repo: RepoRef,
  heads: (string | undefined)[],
  externalId: string,
  reason: string,
  log: Logger,
  checkName: string,
): Promise<void> {
  for (const head of new Set(heads.filter((h): h is string => h !== undefined))) {
    try {
      const n = await concludeLeftInProgress(octokit, repo, head, externalId, renderFailedCheck(reason, null), checkName);
      if (n > 0) log.warn({ headSha: head, runs: n, err: reason }, 'check left in progress concluded');
    } catch (err) {
      log.error({ headSha: head, err: describeFailure(err) }, 'job failed for good, and its check could not be concluded');
    }
  }
}

/** Concludes what a job left in progress when it fails without running (too many stalls). */
export async function abandonJob(deps: WorkDeps, lane: Lane, job: QueueJob, err: unknown): Promise<void> {
  const { data } = job;
  if (data.kind === 'merge-group') {
    try {
      const octokit = await deps.client(data.installationId, lane.store);
      const repo = { owner: data.owner, repo: data.repo };
      await concludeChecks(octokit, repo, [data.headSha], externalIdOf(job), describeFailure(err), deps.log, deps.instance.checkName);
    } catch (e) {
      deps.log.error({ err: describeFailure(e) }, 'could not reach GitHub to conclude a failed merge group job');
    }
    return;
  }
  if (data.kind !== 'pr') return;
  const log = deps.log.child({ pr: prKey(data.owner, data.repo, data.number), job: job.ref });
  try {
    const repo = { owner: data.owner, repo: data.repo };
    const octokit = await deps.client(data.installationId, lane.store);
    // The job may have reviewed a newer head than the one it was queued for.
    const now = await loadPull(octokit, repo, data.number).then(
      (p) => p.target.headSha,
      () => undefined,
    );
    await concludeChecks(octokit, repo, [now, data.headSha], externalIdOf(job), describeFailure(err), log, deps.instance.checkName);
  } catch (e) {
    log.error({ err: describeFailure(e) }, 'could not reach GitHub to conclude a failed job');
  }
}
