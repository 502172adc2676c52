// The dispatcher sits apart from the jobs it runs: the merge-group job shares the pull-request
// job's lane and check-run naming, and a dispatcher inside either would close an import cycle.
import { runMergeGroupJob } from './merge-group-job.js';
import { runCommitJob, runPullRequestJob } from './pull-request-job.js';
import type { Lane, WorkDeps } from './pull-request-job.js';
import type { QueueJob } from './queue.js';

/** Runs one job of the lane's queue. */
export async function runJob(deps: WorkDeps, lane: Lane, job: QueueJob): Promise<void> {
  const { data } = job;
  if (data.kind === 'commit') return runCommitJob(deps, lane, job, data);
  if (data.kind === 'merge-group') return runMergeGroupJob(deps, lane, job, data);
  return runPullRequestJob(deps, lane, job, data);
}
