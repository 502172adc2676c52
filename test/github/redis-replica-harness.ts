import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { AppMetrics } from '../../src/github/app/metrics.js';
import { AppServer, WEBHOOK_SECRET, newPrivateKey } from '../helpers/app-server.js';
import { eventually } from '../helpers/eventually.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';
import { NUMBER, REPO_PATH } from './app-harness.js';

/**
 * Replicas of the App sharing a real Redis (`REDIS_URL`), each with its own metrics and log, for
 * the replicas-redis-*.test.ts files (one per job the queue does: dedupe, supersession, a
 * replica killed, Redis down). Each file starts its own `redis-server`.
 */

export const COMMENTS = `${REPO_PATH}/issues/${NUMBER}/comments`;
export const CHECK_RUNS = `${REPO_PATH}/check-runs`;
/** Short locks: a job whose replica died is taken up within seconds, not a minute. */
export const LOCK_SECONDS = 2;

export interface Replica {
  server: AppServer;
  metrics: AppMetrics;
  logged: string[];
}

export interface RedisReplicas {
  /** The file's Redis, flushed before each test. */
  redis: RunningRedis;
  fake: FakeGitHub;
  /** The replicas started for the test; stopped after it. */
  replicas: Replica[];
  /** The App's private key, shared by every replica of a test. */
  key: string;
  /** Another replica against `redisUrl` (default: the file's Redis), added to `replicas`. */
  start(redisUrl?: string, lockSeconds?: number): Promise<Replica>;
}

/**
 * Registers the hooks: the file's Redis, and for each test a fake GitHub, a flushed Redis and
 * `count` replicas connected to it (none: the test starts its own), their jobs' locks of
 * `lockSeconds` (default LOCK_SECONDS). After each test the replicas
 * and the fake stop, and the fake must have seen no request it could not answer (unless
 * `allowFakeErrors`).
 */
export function useRedisReplicas(options: { count: number; allowFakeErrors?: boolean; lockSeconds?: number }): RedisReplicas {
  const h = { replicas: [] as Replica[] } as RedisReplicas;
  h.start = async (redisUrl = h.redis.url, lockSeconds = LOCK_SECONDS) => {
    const replica = await startReplica(h.fake, h.key, redisUrl, lockSeconds);
    h.replicas.push(replica);
    return replica;
  };
  beforeAll(async () => {
    h.redis = await startRedis();
  });
  afterAll(async () => {
    await h.redis.stop();
  });
  beforeEach(async () => {
    h.fake = await FakeGitHub.start();
    await flush(h.redis.url);
    h.key = newPrivateKey();
    h.replicas = [];
    for (let i = 0; i < options.count; i++) await h.start(undefined, options.lockSeconds);
    await Promise.all(h.replicas.map(connected));
  });
  afterEach(async () => {
    for (const r of h.replicas) await r.server.close();
    await h.fake.close();
    if (!options.allowFakeErrors) expect(h.fake.errors).toEqual([]);
  });
  return h;
}

async function startReplica(fake: FakeGitHub, key: string, redisUrl: string, lockSeconds: number): Promise<Replica> {
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const metrics = new AppMetrics({ processMetrics: false });
  const app = createGpuJustifyApp({
    metrics,
    redisUrl,
    stateSecret: WEBHOOK_SECRET,
    telemetry: () => undefined,
    work: { lockMs: lockSeconds * 1000 },
  });
  const server = await AppServer.start(app, fake.url, { privateKey: key, log });
  return { server, metrics, logged };
}

/** Waits until the replica has connected, so the test races reviews, not connects. */
export async function connected(replica: Replica): Promise<void> {
  await eventually(async () => (await replica.metrics.registry.getSingleMetricAsString('gpu_justify_redis_up')).endsWith(' 1'), {
    what: 'the replica connected to Redis',
    timeoutMs: 20_000,
    state: () => replica.logged.join(''),
  });
}

/** A metric summed over `replicas`. */
export async function metric(replicas: Replica[], name: string): Promise<number> {
  let total = 0;
  for (const r of replicas) {
    const text = await r.metrics.registry.getSingleMetricAsString(name);
    total += Number(/ (\d+(?:\.\d+)?)$/m.exec(text)?.[1] ?? 0);
  }
  return total;
}

/** The App's BullMQ queue as Redis holds it (runtime.ts: prefix `gpu-justify`, queue `reviews`). */
export function appQueue(redisUrl: string): Queue {
  const url = new URL(redisUrl);
  return new Queue('reviews', { connection: { host: url.hostname, port: Number(url.port) }, prefix: 'gpu-justify' });
}

async function flush(url: string): Promise<void> {
  const admin = new Redis(url);
  await admin.flushall();
  admin.disconnect();
}
