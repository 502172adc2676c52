import type { Logger } from '../client.js';
import type { AppMetrics } from '../metrics.js';
import { jobKey } from '../work/jobs.js';
import type { JobData } from '../work/jobs.js';
import type { Lane } from '../work/pull-request-job.js';
import type { Request } from '../work/requests.js';
import type { WorkRuntime } from '../work/runtime.js';

/** One job to queue, with the requests to post to its pull request's mailbox first. */
export interface Submission {
  data: JobData;
  requests: Request[];
}

/**
 * What a webhook handler does with a delivery: claim its id (a redelivery, wherever it lands, is
 * skipped), post its requests, queue its jobs, and answer. No GitHub request, no review: the
 * answer goes back in milliseconds, Redis or not.
 *
 * Jobs go to Redis when it is configured and answers. When it does not, the delivery is queued on
 * this replica instead, and the log and /metrics say so: GitHub does not redeliver a webhook
 * whose delivery failed on its own, so refusing it would lose the review, while a local job
 * reviews it now (the sticky comment's settling keeps one comment if another replica reviews the
 * same pull request meanwhile). What such a job loses is the shared queue's guarantees: it dies
 * with its replica, and may run beside another replica's job for the same pull request.
 */
export async function submit(
  work: WorkRuntime,
  metrics: AppMetrics,
  delivery: string,
  submissions: Submission[],
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<void> {
  const { shared } = work;
  if (shared && (await shared.reachable())) {
    try {
      await submitTo(shared, delivery, submissions, log);
      return;
    } catch (err) {
      log.warn(
        { delivery, err: err instanceof Error ? err.message : String(err) },
        'redis did not answer; delivery queued on this replica',
      );
    }
  }
  if (shared) metrics.coordinationFallbacks.inc({ operation: 'enqueue' });
  await submitTo(work.local, delivery, submissions, log);
}

async function submitTo(lane: Lane, delivery: string, submissions: Submission[], log: Pick<Logger, 'info'>): Promise<void> {
  const posts = submissions.flatMap(({ data, requests }) => {
    const key = jobKey(data);
    return key === null ? [] : requests.map((request) => ({ key, request }));
  });
  // Claimed and posted in one step, before the jobs are queued: the job that runs next reads them.
  const state = await lane.store.claimDelivery(delivery, posts);
  if (state === 'done') {
    log.info({ delivery }, 'redelivered webhook skipped');
    return;
  }
  // Claimed but never finished: the replica that took it may have died before queueing its jobs.
  // Queueing them again costs nothing (one job per id, one waiting per pull request) and its
  // requests, already posted, are not posted twice.
  if (state === 'working') log.info({ delivery }, 'redelivered webhook skipped; its jobs queued again in case its replica died');
  for (const { data } of submissions) await lane.queue.add(data);
  await lane.store.finish(delivery);
}
