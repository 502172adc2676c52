import { Redis } from 'ioredis';
import { describeFailure } from '../../api/index.js';
import { bullmqQueue } from './bullmq-queue.js';
import { memoryQueue } from './memory-queue.js';
import { memoryStore } from './memory-store.js';
import { abandonJob } from './pull-request-job.js';
import { runJob } from './run-job.js';
import type { Lane, WorkDeps } from './pull-request-job.js';
import type { QueueCounts, QueueEvents, QueueJob } from './queue.js';
import { redisStore } from './redis-store.js';
import type { WorkSettings } from './settings.js';

/** Keys in Redis start with this (BullMQ's and the store's), so several Apps can share one server. */
const PREFIX = 'gpu-justify';

/**
 * A named instance keeps its own queue, mailboxes and claims: two instances sharing one Redis
 * would otherwise run each other's jobs under the wrong name and answer a command only once
 * between them, the first to claim it. The unnamed one keeps the keys it always had.
 */
function prefixOf(instance: WorkDeps['instance']): string {
  return instance.name === null ? PREFIX : `${PREFIX}@${instance.name}`;
}
/** How long closing waits for BullMQ while Redis does not answer. */
const CLOSE_WITHOUT_REDIS_MS = 2000;
/** How long the intake's commands to Redis may take before the delivery is queued here instead (intake/submit.ts). */
export const INTAKE_TIMEOUT_MS = 1000;
/**
 * Any one command's limit: a Redis that accepts connections but does not answer fails the command
 * rather than hanging it. Longer than the intake's, which is judged after the event loop has read
 * its sockets: ioredis's own timer fires before a reply that arrived while the loop was held.
 */
export const COMMAND_TIMEOUT_MS = 5000;

/** The App's queues and workers: where the intake puts jobs, and what runs them. */
export interface WorkRuntime {
  /** Redis and BullMQ, shared by every replica; absent without `REDIS_URL`. */
  shared: (Lane & { ready(): boolean; reachable(): Promise<boolean> }) | null;
  /** This process's memory: the queue without `REDIS_URL`, and the fallback while Redis does not answer. */
  local: Lane;
  counts(): Promise<QueueCounts>;
  /** Work of the intake that outlives its webhook's answer (a delivery waiting for a late Redis): `idle` waits for it. */
  track(work: Promise<void>): void;
  /** Resolves once no job waits or runs in either lane, and no tracked work is pending. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function startWork(deps: WorkDeps, settings: WorkSettings, redisUrl: string | null): WorkRuntime {
  const { metrics, log } = deps;
  const options = {
    concurrency: settings.concurrency,
    attempts: settings.attempts,
    lockMs: settings.lockMs,
    retryBaseMs: settings.retryBaseMs,
  };
  const events = (lane: () => Lane): QueueEvents => ({
    started: (_job, waitedMs) => metrics.queueWaitSeconds.observe(waitedMs / 1000),
    retried(job, err) {
      metrics.jobsRetried.inc();
      log.warn(
        {
          job: job.ref,
          attempt: job.attempt,
          err: describeFailure(err.reason),
          retryAt: err.at === null ? undefined : new Date(err.at).toISOString(),
        },
        'job failed; to be tried again',
      );
    },
    failed(job, err) {
      metrics.jobsFailed.inc();
      log.error({ job: job.ref, attempt: job.attempt, err: describeFailure(err) }, 'job failed for good');
      // Its delivery is no longer done: a redelivery (GitHub's "Redeliver", by hand) queues it again.
      lane()
        .store.failDelivery(job.data.delivery)
        .catch((e: unknown) => log.warn({ delivery: job.data.delivery, err: describeFailure(e) }, 'failed job left its delivery done'));
      // A job that stalled too often never ran again: what it left in progress is concluded here.
      if (err instanceof Error && /stalled more than allowable limit/.test(err.message)) void abandonJob(deps, lane(), job, err);
    },
    folded: () => metrics.superseded.inc(),
  });

  // Counted for this replica's /metrics whichever lane the job came from.
  const run = (lane: Lane) => async (job: QueueJob) => {
    metrics.jobsRunning.inc();
    try {
      await runJob(deps, lane, job);
    } finally {
      metrics.jobsRunning.dec();
    }
  };

  const localLane = {} as Lane;
  localLane.store = memoryStore();
  localLane.queue = memoryQueue(
    run(localLane),
    events(() => localLane),
    options,
  );

  let shared: WorkRuntime['shared'] = null;
  let clients: Redis[] = [];
  if (redisUrl !== null) {
    const producer = new Redis(redisUrl, {
      // A command while disconnected fails at once: the delivery is then queued on this replica.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: INTAKE_TIMEOUT_MS * 2,
      retryStrategy: (times) => Math.min(200 * times, 5000),
    });
    // The worker waits for Redis to come back rather than failing (BullMQ's advice for workers).
    const worker = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(1000 * times, 20_000) });
    clients = [producer, worker];
    let up: boolean | null = null;
    const setUp = (now: boolean, err?: unknown) => {
      if (up === now) return;
      up = now;
      metrics.redisUp.set(now ? 1 : 0);
      if (now) log.info({ scope: 'shared' }, 'redis available: replicas share the queue through it');
      else log.warn({ scope: 'local', err: err instanceof Error ? err.message : undefined }, 'redis unavailable: queueing on this replica');
    };
    producer.on('ready', () => setUp(true));
    producer.on('error', (err) => setUp(false, err));
    producer.on('end', () => setUp(false));
    worker.on('error', () => undefined);
    const lane = {} as NonNullable<WorkRuntime['shared']>;
    const prefix = prefixOf(deps.instance);
    lane.store = redisStore(producer, `${prefix}:`);
    lane.queue = bullmqQueue(
      { producer, worker, prefix },
      run(lane),
      events(() => lane),
      options,
    );
    lane.ready = () => producer.status === 'ready';
    // A replica starting up waits for its first connection a moment; one that lost Redis does not.
    lane.reachable = () =>
      lane.ready() || up !== null
        ? Promise.resolve(lane.ready())
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(lane.ready()), INTAKE_TIMEOUT_MS * 2);
            producer.once('ready', () => {
              clearTimeout(timer);
              resolve(true);
            });
          });
    shared = lane;
  }

  const counts = async (): Promise<QueueCounts> => {
    const all = [await localLane.queue.counts(), ...(shared ? [await shared.queue.counts()] : [])];
    return {
      waiting: all.reduce((n, c) => n + c.waiting, 0),
      active: all.reduce((n, c) => n + c.active, 0),
      delayed: all.reduce((n, c) => n + c.delayed, 0),
      failed: all.reduce((n, c) => n + c.failed, 0),
    };
  };
  metrics.watchQueue(counts);
  const pending = new Set<Promise<void>>();
  return {
    shared,
    local: localLane,
    counts,
    track(work) {
      const settled = work
        .catch((err: unknown) => log.error({ err: describeFailure(err) }, 'intake work failed'))
        .finally(() => pending.delete(settled));
      pending.add(settled);
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
      // A job of one lane may queue another (a commit job its pull requests): settle both twice.
      for (let i = 0; i < 2; i++) {
        await localLane.queue.idle();
        if (shared?.ready()) await shared.queue.idle().catch(() => undefined);
      }
    },
    async close() {
      while (pending.size > 0) await Promise.all(pending);
      await localLane.queue.close();
      if (shared) {
        // Without Redis BullMQ cannot hand jobs back: running ones finish, and closing waits no longer.
        const closing = shared.queue.close().catch(() => undefined);
        await (shared.ready()
          ? closing
          : Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_WITHOUT_REDIS_MS).unref())]));
      }
      for (const client of clients) client.disconnect();
    },
  };
}
