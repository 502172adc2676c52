import { jobId, jobKey } from './jobs.js';
import type { JobData } from './jobs.js';
import { backoffMs, RetryLater } from './queue.js';
import { KEEP_FAILED } from './queue.js';
import type { JobQueue, JobWork, QueueEvents, QueueJob, QueueOptions } from './queue.js';

interface Entry {
  data: JobData;
  id: string;
  key: string | null;
  ref: string;
  attempt: number;
  createdAt: number;
  state: 'waiting' | 'active' | 'delayed';
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * The queue without Redis: this process's memory, the same contract as BullMQ's (queue.ts). Its
 * jobs live as long as the process: one that stops loses what it had not done (GitHub does not
 * redeliver a webhook it got an answer to), so run it where one replica is enough.
 */
export function memoryQueue(work: JobWork, events: QueueEvents, options: QueueOptions): JobQueue {
  const waiting: Entry[] = [];
  const byId = new Map<string, Entry>();
  /** The job of each key, whatever its state. */
  const byKey = new Map<string, Entry>();
  /** The latest job added while its key's job ran: queued when that one ends. */
  const next = new Map<string, JobData>();
  let active = 0;
  let delayed = 0;
  /** When each job kept as failed failed (epoch ms), oldest first: counted as Redis would keep them. */
  let failedAt: number[] = [];
  const keptFailed = (): number => {
    const since = Date.now() - KEEP_FAILED.age * 1000;
    failedAt = failedAt.filter((at) => at > since).slice(-KEEP_FAILED.count);
    return failedAt.length;
  };
  let closed = false;
  let seq = 0;
  let idleWaiters: (() => void)[] = [];
  let drainWaiters: (() => void)[] = [];

  const isIdle = () => waiting.length === 0 && active === 0 && delayed === 0;
  const settle = () => {
    if (active === 0) {
      for (const resolve of drainWaiters) resolve();
      drainWaiters = [];
    }
    if (!isIdle()) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  };

  const enqueue = (data: JobData): void => {
    const key = jobKey(data);
    const entry: Entry = {
      data,
      id: jobId(data),
      key,
      ref: `local-${++seq}`,
      attempt: 1,
      createdAt: Date.now(),
      state: 'waiting',
      timer: null,
    };
    byId.set(entry.id, entry);
    if (key !== null) byKey.set(key, entry);
    waiting.push(entry);
    pump();
  };

  const end = (entry: Entry): void => {
    byId.delete(entry.id);
    if (entry.key === null || byKey.get(entry.key) !== entry) return;
    byKey.delete(entry.key);
    const following = next.get(entry.key);
    next.delete(entry.key);
    if (following && !closed) enqueue(following);
  };

  const view = (entry: Entry): QueueJob => ({
    data: entry.data,
    ref: entry.ref,
    attempt: entry.attempt,
    attempts: options.attempts,
    resumed: entry.attempt > 1,
  });

  const run = (entry: Entry): void => {
    active++;
    entry.state = 'active';
    const job = view(entry);
    if (entry.attempt === 1) events.started(job, Date.now() - entry.createdAt);
    work(job)
      .then(
        () => end(entry),
        (err: unknown) => {
          if (err instanceof RetryLater && entry.attempt < options.attempts && !closed) {
            events.retried(job, err);
            entry.state = 'delayed';
            delayed++;
            entry.timer = setTimeout(
              () => {
                delayed--;
                entry.timer = null;
                entry.attempt++;
                entry.state = 'waiting';
                waiting.push(entry);
                pump();
              },
              backoffMs(entry.attempt, err, options.retryBaseMs),
            );
            // A job waiting to try again must not keep a stopping process alive.
            entry.timer.unref();
            return;
          }
          failedAt.push(Date.now());
          events.failed(job, err);
          end(entry);
        },
      )
      .finally(() => {
        active--;
        pump();
        settle();
      });
  };

  function pump(): void {
    while (!closed && active < options.concurrency && waiting.length > 0) run(waiting.shift() as Entry);
  }

  const api: JobQueue = {
    scope: 'local',
    // A failed job leaves nothing behind here but its count: its id is free already.
    retake: (data) => api.add(data),
    add(data) {
      const key = jobKey(data);
      const current = byId.get(jobId(data)) ?? (key === null ? undefined : byKey.get(key));
      if (current) {
        if (key !== null && current.key === key && current.state === 'active' && current.id !== jobId(data)) next.set(key, data);
        events.folded(data);
        return Promise.resolve('folded');
      }
      enqueue(data);
      return Promise.resolve('queued');
    },
    counts: () => Promise.resolve({ waiting: waiting.length, active, delayed, failed: keptFailed() }),
    idle: () => (isIdle() ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    async close() {
      closed = true;
      for (const entry of byId.values()) if (entry.timer) clearTimeout(entry.timer);
      if (active > 0) await new Promise<void>((resolve) => drainWaiters.push(resolve));
    },
  };
  return api;
}
