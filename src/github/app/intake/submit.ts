import type { Logger } from '../../api/index.js';
import type { AppMetrics } from '../metrics.js';
import { jobKey } from '../work/jobs.js';
import type { JobData } from '../work/jobs.js';
import type { Lane } from '../work/pull-request-job.js';
import type { Request } from '../work/requests.js';
import { COMMAND_TIMEOUT_MS, INTAKE_TIMEOUT_MS } from '../work/runtime.js';
import type { WorkRuntime } from '../work/runtime.js';
import { stage } from './timing.js';

/** One job to queue, with the requests to post to its pull request's mailbox first. */
export interface Submission {
  data: JobData;
  requests: Request[];
}

/**
 * What a webhook handler does with a delivery: claim its id and post its requests (one step),
 * queue its jobs, and answer; the delivery is marked done after. A redelivery of one marked done
 * answers without queueing anything; one whose replica died before finishing, or whose job failed
 * for good, is queued again. No GitHub request, no review: the answer goes back in milliseconds,
 * Redis or not.
 *
 * Jobs go to Redis when it is configured and answers. When it does not (it is down, or has failed
 * or not answered the commands sent), the delivery is queued on this replica instead, and the log and /metrics say so: GitHub does not redeliver a webhook
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
    const attempt = submitTo(shared, delivery, submissions, { log, metrics, work });
    try {
      await within(attempt, INTAKE_TIMEOUT_MS);
      return;
    } catch (err) {
      // Redis may still take it: the command was sent. Queued here only once Redis has failed
      // it, or has not answered within LATE_ANSWER_MS: a delivery queued both here and in Redis
      // would be answered twice (a second check run, a command replied to twice).
      log.warn(
        { delivery, err: err instanceof Error ? err.message : String(err) },
        'redis did not answer; waiting for it in the background',
      );
      work.track(
        settledWithin(attempt, LATE_ANSWER_MS).then(async (taken) => {
          if (taken) {
            log.info({ delivery }, 'redis answered late; delivery queued there');
            return;
          }
          log.warn({ delivery }, 'redis did not take the delivery; queued on this replica');
          metrics.coordinationFallbacks.inc({ operation: 'enqueue' });
          await submitTo(work.local, delivery, submissions, { log, metrics, work });
        }),
      );
      return;
    }
  }
  if (shared) metrics.coordinationFallbacks.inc({ operation: 'enqueue' });
  await submitTo(work.local, delivery, submissions, { log, metrics, work });
}

/**
 * How long a delivery whose Redis commands outlived the intake's limit waits for them before it is
 * queued on this replica: longer than ioredis's own limit on any one command, so Redis has either
 * answered or failed them by then unless it hangs.
 */
const LATE_ANSWER_MS = 4 * COMMAND_TIMEOUT_MS;

/** True once `op` resolves within `ms`; false when it fails or takes longer. */
async function settledWithin(op: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      op.then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function submitTo(
  lane: Lane,
  delivery: string,
  submissions: Submission[],
  { log, metrics, work }: { log: Pick<Logger, 'info'>; metrics: AppMetrics; work: Pick<WorkRuntime, 'track'> },
): Promise<void> {
  const posts = submissions.flatMap(({ data, requests }) => {
    const key = jobKey(data);
    return key === null ? [] : requests.map((request) => ({ key, request }));
  });
  // Claimed and posted in one step, before the jobs are queued: the job that runs next reads them.
  const claimed = stage(metrics, 'record', () => lane.store.claimDelivery(delivery, posts));
  // In Redis the jobs are queued in the same write as the claim, not a round trip later: one
  // connection's commands run in the order sent, so no worker sees a job before its requests are
  // posted, and the answer waits for one round trip instead of two (each a turn of a loaded
  // machine's scheduler). A redelivery of a delivery done queues nothing all the same: its job's
  // id is kept as long as the delivery is remembered (bullmq-queue.ts), and BullMQ adds no job
  // under an id it holds.
  const together = lane.store.scope === 'shared';
  const enqueue = () => stage(metrics, 'enqueue', () => Promise.all(submissions.map(({ data }) => lane.queue.add(data))));
  const queued = together ? enqueue() : null;
  const [state] = await Promise.all([claimed, queued]);
  if (state === 'done') {
    // Queued to the end before, and its job not failed since (a failed job frees its delivery
    // and its id, runtime.ts): nothing is queued again.
    metrics.redeliveriesSkipped.inc();
    log.info({ delivery }, 'redelivered webhook skipped');
    return;
  }
  // Claimed but never finished: the replica that took it may have died before queueing its jobs.
  // Queueing them again costs nothing (one job per id, one waiting per pull request) and its
  // requests, already posted, are not posted twice.
  if (state === 'working') log.info({ delivery }, 'redelivered webhook skipped; its jobs queued again in case its replica died');
  if (state === 'failed') {
    // Its job failed for good and is kept under the same id (KEEP_FAILED): the add sent with the
    // claim was dropped for it, so it is removed and the job queued again, a round trip later.
    // Only a redelivery by hand of a failed delivery pays for it.
    log.info({ delivery }, 'redelivered webhook of a failed job; queued again');
    await stage(metrics, 'enqueue', () => Promise.all(submissions.map(({ data }) => lane.queue.retake(data))));
  } else if (!together) await enqueue();
  // Marked done after the answer, not before it: a redelivery meanwhile finds the delivery
  // `working` and queues its jobs again, which changes nothing, so the answer need not wait for it.
  work.track(stage(metrics, 'finish', () => lane.store.finish(delivery)));
}

/** A timer this late means the thread was held, not that Redis was slow. */
const LATE_MS = 100;
/** However held the thread, the intake gives Redis no more than this many times its limit. */
const MAX_FACTOR = 5;

/**
 * `op`, or a failure once it has had `ms` of this thread's time without answering. Judged after
 * the event loop has read its sockets (setImmediate runs after I/O), and a timer that fired late
 * (other work held the loop) gives Redis its time again, up to MAX_FACTOR times: a timer alone
 * fires before a reply that arrived meanwhile, and the delivery would be queued here although
 * Redis took it, and its pull request reviewed twice.
 */
export function within<T>(op: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const arm = (due: number): void => {
      timer = setTimeout(
        () =>
          setImmediate(() => {
            if (settled) return;
            const now = performance.now();
            if (now - due > LATE_MS && now + ms - started <= ms * MAX_FACTOR) arm(now + ms);
            else reject(new Error(`redis did not answer within ${ms} ms`));
          }),
        Math.max(0, due - performance.now()),
      );
    };
    arm(started + ms);
    op.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
