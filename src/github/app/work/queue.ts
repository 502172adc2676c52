import type { JobData } from './jobs.js';
import { GpuJustifyError } from '../../../domain/errors.js';

/**
 * The App's job queue, as the intake and the workers see it. Two engines keep one contract:
 * BullMQ on Redis, shared by every replica (bullmq-queue.ts), and this process's memory without
 * `REDIS_URL` (memory-queue.ts).
 *
 * - Jobs with the same key (one pull request) run one at a time: one running, at most one more
 *   waiting. A job added while one waits for the key folds into it (its work reads the pull
 *   request as it is when it starts); one added while the key's job runs is kept, the latest
 *   only, and queued when that job ends.
 * - Jobs with the same id (jobs.ts) are one job while it exists.
 * - A job whose work throws RetryLater runs again after a backoff, up to its attempts; any other
 *   error ends it. A job whose process died is taken up again by another worker (BullMQ's
 *   stalled-job check), within the lock time plus the stall-check interval.
 */
export interface JobQueue {
  readonly scope: 'shared' | 'local';
  /** `folded` when a job already waiting or running for its key (or its id) takes it in. */
  add(data: JobData): Promise<'queued' | 'folded'>;
  /**
   * Adds a job whose earlier copy under the same id failed for good: that copy, kept for
   * inspection (KEEP_FAILED), is removed first, else it would hold the id and the add be dropped.
   */
  retake(data: JobData): Promise<'queued' | 'folded'>;
  counts(): Promise<QueueCounts>;
  /** Resolves once nothing waits, runs or is scheduled to run again (this queue's jobs anywhere). */
  idle(): Promise<void>;
  /** Stops taking jobs and waits for those running here. */
  close(): Promise<void>;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  /** Waiting out a backoff before their next attempt. */
  delayed: number;
  /** Failed for good, kept for inspection (KEEP_FAILED): not work to do. */
  failed: number;
}

/**
 * Jobs that failed for good are kept this long, at most this many, so an operator can see what
 * failed and why (BullMQ keeps each one's data, error and attempts; `gpu_justify_queue_jobs{state="failed"}`
 * counts them) without Redis growing with every failure: a week covers a weekend's failures
 * read on Monday, and a thousand failed jobs (each a few KiB with its stack trace) stay within a
 * few MiB. `gpu_justify_queue_jobs_failed_total` counts every failure, kept or not.
 */
export const KEEP_FAILED = { age: 7 * 24 * 60 * 60, count: 1000 };

export interface QueueJob {
  data: JobData;
  /** Unique to this job and its attempts: the id of a job may be used again once it is gone. */
  ref: string;
  /** 1 on the first run. */
  attempt: number;
  attempts: number;
  /** Run before (a failed attempt, or a process that died mid-way): its check run may already exist. */
  resumed: boolean;
}

export type JobWork = (job: QueueJob) => Promise<void>;

/** What a queue tells the rest of the App: the log and /metrics. */
export interface QueueEvents {
  /** A job starts its first attempt after waiting this long in the queue. */
  started(job: QueueJob, waitedMs: number): void;
  /** An attempt failed with RetryLater and the job will run again. */
  retried(job: QueueJob, err: RetryLater): void;
  /** The job ended without success: no attempts left, an error not worth retrying, or too many stalls. */
  failed(job: QueueJob, err: unknown): void;
  /** An added job was taken in by one already waiting or running. */
  folded(data: JobData): void;
}

export interface QueueOptions {
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Runs of one job before it fails. */
  attempts: number;
  /** BullMQ: how long a job's lock lives unless its worker renews it. */
  lockMs: number;
  /** The first wait before trying a job again; each later one doubles. */
  retryBaseMs: number;
}

/** A failure worth another attempt (GitHub's 5xx, a rate limit, a network error). */
export class RetryLater extends GpuJustifyError {
  override readonly kind = 'retry-later';
  constructor(
    readonly reason: unknown,
    /** When it could succeed (a rate limit's reset), epoch ms; null: use the backoff. */
    readonly at: number | null = null,
  ) {
    super(reason instanceof Error ? reason.message : String(reason), { cause: reason });
    this.name = 'RetryLater';
  }
}

/** Ceiling of the exponential backoff between attempts. */
const BACKOFF_MAX_MS = 5 * 60_000;

/**
 * The wait before the next attempt, after `failedAttempts` failures: base, twice, four times …
 * (2 s, 4 s, 8 s by default) with ±25% jitter so replicas do not retry in step; never before
 * the time a rate limit names.
 */
export function backoffMs(failedAttempts: number, err: unknown, baseMs: number, now = Date.now(), random = Math.random): number {
  const exponential = Math.min(BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, failedAttempts - 1));
  const jittered = Math.round(exponential * (0.75 + random() * 0.5));
  const at = err instanceof RetryLater && err.at !== null ? err.at - now : 0;
  return Math.max(jittered, at);
}
