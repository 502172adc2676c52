import { reviewMergeGroup } from '../../review-merge-group.js';
import type { MergeGroupJobData } from './jobs.js';
import type { Lane, WorkDeps } from './pull-request-job.js';
import { externalIdOf } from './pull-request-job.js';
import type { QueueJob } from './queue.js';
import { transient } from './transient.js';

/**
 * Concludes our check on a merge group's head (review-merge-group.ts decides how). A transient
 * failure is handed back to the queue, its check left to the next attempt; on the last attempt,
 * or for any other failure, the check is concluded failed.
 */
export async function runMergeGroupJob(deps: WorkDeps, lane: Lane, job: QueueJob, data: MergeGroupJobData): Promise<void> {
  const last = job.attempt >= job.attempts;
  const octokit = await deps.client(data.installationId, lane.store).catch((err: unknown) => {
    throw transient(err) ?? err;
  });
  await reviewMergeGroup({
    octokit,
    log: deps.log.child({ mergeGroup: data.headRef, headSha: data.headSha, job: job.ref, attempt: job.attempt }),
    repo: { owner: data.owner, repo: data.repo },
    group: { headRef: data.headRef, headSha: data.headSha, baseSha: data.baseSha, baseRef: data.baseRef },
    telemetry: deps.telemetry,
    stateKey: deps.stateKey,
    instance: deps.instance,
    self: deps.self,
    checkRun: { externalId: externalIdOf(job), resume: job.resumed },
    retry: (err) => !last && transient(err) !== null,
  }).catch((err: unknown) => {
    throw (!last && transient(err)) || err;
  });
}
