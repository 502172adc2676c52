import { ExecutionError, Redlock } from '@sesamecare-oss/redlock';
import type { Lock } from '@sesamecare-oss/redlock';
import { Redis } from 'ioredis';
import type { Coordination } from './coordination.js';
import { localCoordination } from './coordination.js';

/** What the coordination tells the rest of the App: the log and /metrics. */
export interface CoordinationEvents {
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Redis answers (true) or not (false); called on every change. */
  available(up: boolean): void;
  /** An operation that ran on this replica's memory because Redis did not answer. */
  fellBack(operation: string): void;
}

export interface RedisCoordinationOptions {
  /** Keys are prefixed with this, so several Apps can share one Redis. */
  prefix?: string;
  /** How long a lock lives unless its holder extends it: a dead replica holds a PR no longer. */
  lockTtlMs?: number;
  /** How long a replica waits for another's review of the same PR before going ahead anyway. */
  lockWaitMs?: number;
  /** How long a Redis command may take before the replica goes on without it. */
  commandTimeoutMs?: number;
}

/** A delivery being handled: if its replica dies, a redelivery after this long is handled again. */
const IN_PROGRESS_SECONDS = 10 * 60;
/** GitHub lets a delivery be redelivered by hand for three days. */
const DONE_SECONDS = 3 * 24 * 60 * 60;
/** Heads reviewed, to skip the duplicate check-suite events of one push. */
const REVIEWED_SECONDS = 24 * 60 * 60;
const RETRY_DELAY_MS = 100;

/**
 * Replicas share delivery dedupe, a per-PR lock and the heads reviewed in Redis. Redis is a help,
 * never a dependency: when it does not answer, each operation runs on this replica's memory (the
 * settle-after-create of the sticky comment still keeps one comment per PR), the log says so once
 * and /metrics counts it, and no review waits for Redis longer than one command timeout.
 */
export function redisCoordination(url: string, events: CoordinationEvents, options: RedisCoordinationOptions = {}): Coordination {
  const prefix = options.prefix ?? 'gpu-justify:';
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const lockWaitMs = options.lockWaitMs ?? 120_000;
  const timeout = options.commandTimeoutMs ?? 1000;
  const client = new Redis(url, {
    lazyConnect: true,
    // A command while disconnected fails at once instead of queueing behind a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeout,
    connectTimeout: timeout * 2,
    retryStrategy: (times) => Math.min(200 * times, 5000),
  });
  const local = localCoordination();
  const redlock = new Redlock([client], { retryCount: 0 });
  let up: boolean | null = null;
  const setUp = (now: boolean, err?: unknown) => {
    if (up === now) return;
    up = now;
    events.available(now);
    if (now) events.log.info({ scope: 'shared' }, 'redis available: replicas coordinate through it');
    else events.log.warn({ scope: 'local', err: errorText(err) }, 'redis unavailable: coordinating locally');
  };
  client.on('ready', () => setUp(true));
  client.on('error', (err) => setUp(false, err));
  client.on('end', () => setUp(false));
  // Connected in the background: the first review does not wait for it.
  client.connect().catch((err: unknown) => setUp(false, err));

  const ready = () => client.status === 'ready';
  /** Runs `shared` against Redis, or `fallback` on this replica when Redis does not answer. */
  async function attempt<T>(operation: string, shared: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (ready()) {
      try {
        return await shared();
      } catch (err) {
        setUp(false, err);
      }
    } else setUp(false, new Error(`connection ${client.status}`));
    events.fellBack(operation);
    return fallback();
  }

  return {
    scope: 'shared',
    claimDelivery: (id) =>
      attempt(
        'claim-delivery',
        async () => (await client.set(`${prefix}delivery:${id}`, 'working', 'EX', IN_PROGRESS_SECONDS, 'NX')) === 'OK',
        () => local.claimDelivery(id),
      ),
    releaseDelivery: (id) =>
      attempt(
        'release-delivery',
        async () => void (await client.del(`${prefix}delivery:${id}`)),
        () => local.releaseDelivery(id),
      ),
    finishDelivery: (id) =>
      attempt(
        'finish-delivery',
        async () => void (await client.set(`${prefix}delivery:${id}`, 'done', 'EX', DONE_SECONDS)),
        () => local.finishDelivery(id),
      ),
    markReviewed: (key, headSha) =>
      attempt(
        'mark-reviewed',
        async () => void (await client.set(`${prefix}reviewed:${key}@${headSha}`, '1', 'EX', REVIEWED_SECONDS)),
        () => local.markReviewed(key, headSha),
      ),
    wasReviewed: (key, headSha) =>
      attempt(
        'was-reviewed',
        async () => (await client.exists(`${prefix}reviewed:${key}@${headSha}`)) === 1,
        () => local.wasReviewed(key, headSha),
      ),
    async exclusive(key, task) {
      const lock = await lockFor(`${prefix}pr:${key}`);
      if (!lock) return task();
      let held = lock;
      // The holder extends its lock while it works; a replica that dies stops, and the lock expires.
      const timer = setInterval(() => {
        held.extend(lockTtlMs).then(
          (next) => (held = next),
          () => events.fellBack('extend-lock'),
        );
      }, lockTtlMs / 3);
      timer.unref();
      try {
        return await task();
      } finally {
        clearInterval(timer);
        await held.release().catch(() => undefined);
      }
    },
    async close() {
      await redlock.quit().catch(() => undefined);
      client.disconnect();
    },
  };

  /** The pull request's lock, or null to go ahead without it (Redis gone, or held too long). */
  async function lockFor(resource: string): Promise<Lock | null> {
    if (ready()) {
      try {
        return await acquire(resource);
      } catch (err) {
        if (err instanceof LockWaitExceeded) {
          events.log.warn({ resource }, 'pull request lock not acquired in time: reviewing without it');
          return null;
        }
        setUp(false, err);
      }
    } else setUp(false, new Error(`connection ${client.status}`));
    events.fellBack('lock');
    return null;
  }

  /** Waits for another replica's lock to go; a Redis that stops answering ends the wait at once. */
  async function acquire(resource: string): Promise<Lock> {
    const deadline = Date.now() + lockWaitMs;
    for (;;) {
      try {
        return await redlock.acquire([resource], lockTtlMs);
      } catch (err) {
        if (!(err instanceof ExecutionError) || !ready()) throw err;
        if (Date.now() >= deadline) throw new LockWaitExceeded();
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS + Math.random() * RETRY_DELAY_MS));
      }
    }
  }
}

/** Another replica held the pull request for longer than a review should take. */
class LockWaitExceeded extends Error {
  constructor() {
    super('pull request lock not acquired in time');
  }
}

function errorText(err: unknown): string | undefined {
  return err instanceof Error ? err.message : undefined;
}
