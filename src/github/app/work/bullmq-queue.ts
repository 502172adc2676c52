import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { describeFailure } from '../../api/index.js';
import { JobData, jobId, jobKey } from './jobs.js';
import { DONE_SECONDS } from './store.js';
import { backoffMs, KEEP_FAILED, RetryLater } from './queue.js';
import type { JobQueue, JobWork, QueueEvents, QueueJob, QueueOptions } from './queue.js';

/** The queue's name under the BullMQ prefix: its keys are `<prefix>:reviews:…`. */
const QUEUE_NAME = 'reviews';

/**
 * Completed jobs are kept as long as their delivery is remembered (store.ts): a redelivery's add,
 * sent with its claim (intake/submit.ts), then finds the job's id taken and queues nothing. The
 * count bounds Redis's memory (a job is well under 2 KiB). A job that failed for good is kept
 * too, bounded (KEEP_FAILED in queue.ts); a redelivery that takes its delivery up again removes
 * it first (retake), since it holds the id.
 */
const KEEP_COMPLETED = { age: DONE_SECONDS, count: 50_000 };

/** How often `idle()` asks Redis for the counts. */
const IDLE_POLL_MS = 50;

export interface BullmqConnections {
  /** For adding jobs and counting them: fails at once when Redis does not answer. */
  producer: Redis;
  /** For the worker: waits for Redis to come back rather than failing (BullMQ's advice). */
  worker: Redis;
  /** BullMQ's key prefix. */
  prefix: string;
}

/**
 * The queue on Redis, shared by every replica (BullMQ). One pull request runs one job at a time
 * through BullMQ's deduplication keyed by the pull request with `keepLastIfActive`: an add while
 * the key's job waits is dropped in its favour (that job reads the pull request when it starts),
 * an add while it runs is stored, the latest only, and queued when it ends. A worker that dies
 * stops renewing its jobs' locks; BullMQ's stalled-job check (every `lockMs`) moves them back to
 * wait for another worker, and fails one that stalls twice.
 */
export function bullmqQueue(connections: BullmqConnections, work: JobWork, events: QueueEvents, options: QueueOptions): JobQueue {
  const queue = new Queue(QUEUE_NAME, { connection: connections.producer, prefix: connections.prefix });
  // Errors are logged by whoever owns the connection; unhandled they would end the process.
  queue.on('error', () => undefined);
  const worker = new Worker(QUEUE_NAME, (job: Job) => process(job), {
    connection: connections.worker,
    prefix: connections.prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.lockMs,
    maxStalledCount: 1,
    settings: { backoffStrategy: (failed: number, _type?: string, err?: Error) => backoffMs(failed, err, options.retryBaseMs) },
  });
  worker.on('error', () => undefined);
  worker.on('failed', (job: Job | undefined, err: Error) => {
    if (!job) return;
    const view = viewOf(job, jobData(job) ?? null);
    if (view === null) return;
    // Every failed attempt is reported; one with no attempt to come has finished.
    if (job.finishedOn !== undefined) events.failed(view, err);
    else if (err instanceof RetryLater) events.retried(view, err);
  });

  async function process(job: Job): Promise<void> {
    const data = jobData(job);
    if (data === null) throw new UnrecoverableError('job data is not a gpu-justify job');
    const view = viewOf(job, data) as QueueJob;
    if (job.attemptsStarted <= 1) events.started(view, Math.max(0, Date.now() - job.timestamp - (job.delay || 0)));
    try {
      await work(view);
    } catch (err) {
      if (err instanceof RetryLater) throw err;
      // Anything else would fail the same way again. Kept with the failed job in Redis, where an
      // operator reads it: described as the log has it, redacted.
      throw new UnrecoverableError(describeFailure(err));
    }
  }

  const viewOf = (job: Job, data: JobData | null): QueueJob | null =>
    data === null
      ? null
      : {
          data,
          ref: `${job.id ?? 'job'}@${job.timestamp}`,
          attempt: job.attemptsMade + 1,
          attempts: options.attempts,
          resumed: job.attemptsMade > 0 || job.attemptsStarted > 1 || job.stalledCounter > 0,
        };

  const counts = async () => {
    const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'waiting-children', 'failed');
    return {
      waiting: (c['waiting'] ?? 0) + (c['prioritized'] ?? 0) + (c['waiting-children'] ?? 0),
      active: c['active'] ?? 0,
      delayed: c['delayed'] ?? 0,
      failed: c['failed'] ?? 0,
    };
  };

  const api: JobQueue = {
    scope: 'shared',
    async retake(data) {
      const kept = await queue.getJob(jobId(data));
      // Only a failed copy: one the add sent with the claim queued just now is left to run.
      if (kept && (await kept.isFailed())) await kept.remove();
      return api.add(data);
    },
    async add(data) {
      const id = jobId(data);
      const key = jobKey(data);
      const job = await queue.add(data.kind, data, {
        jobId: id,
        attempts: options.attempts,
        backoff: { type: 'github' },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
        // One stack, the last attempt's: the reason is in its first line, the frames are ours.
        stackTraceLimit: 1,
        ...(key === null ? {} : { deduplication: { id: key, keepLastIfActive: true } }),
      });
      if (job.id === id) return 'queued';
      events.folded(data);
      return 'folded';
    },
    counts,
    async idle() {
      for (;;) {
        const c = await counts();
        if (c.waiting + c.active + c.delayed === 0) return;
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    },
    async close() {
      await worker.close();
      await queue.close();
    },
  };
  return api;
}

function jobData(job: Job): JobData | null {
  const parsed = JobData.safeParse(job.data);
  return parsed.success ? parsed.data : null;
}
