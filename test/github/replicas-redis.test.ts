import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app.js';
import type { Coordination } from '../../src/github/coordination.js';
import { coordinationFromEnv } from '../../src/github/coordination-from-env.js';
import { AppMetrics } from '../../src/github/metrics.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { AppServer, newPrivateKey } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { checkSuitePayload } from '../helpers/payloads.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';
import { HEAD_SHA, INSTALLATION, NUMBER, REPO_PATH, prEvent, pullRequest } from './app-harness.js';

/**
 * Replicas that share a real Redis (`REDIS_URL`): a delivery is handled once wherever it lands,
 * one pull request is reviewed by one replica at a time, and a Redis that goes away slows no
 * review down — each replica then coordinates through GitHub alone, and says so.
 */

const COMMENTS = `${REPO_PATH}/issues/${NUMBER}/comments`;
const CHECK_RUNS = `${REPO_PATH}/check-runs`;

interface Replica {
  server: AppServer;
  coordination: Coordination;
  metrics: AppMetrics;
  logged: string[];
}

let redis: RunningRedis;
let fake: FakeGitHub;
let replicas: Replica[];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

async function startReplica(key: string, env: NodeJS.ProcessEnv): Promise<Replica> {
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const metrics = new AppMetrics({ processMetrics: false });
  const coordination = coordinationFromEnv(env, log, metrics);
  const server = await AppServer.start(createGpuJustifyApp({ metrics, coordination, telemetry: () => undefined }), fake.url, {
    privateKey: key,
    log,
  });
  return { server, coordination, metrics, logged };
}

/** Waits until every replica's client has connected, so the test races reviews, not connects. */
async function connected(replica: Replica): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await replica.metrics.registry.getSingleMetricAsString('gpu_justify_redis_up')).endsWith(' 1') === false) {
    if (Date.now() > deadline) throw new Error(`replica never connected to Redis: ${replica.logged.join('')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('replicas sharing Redis', () => {
  let redisEnv: NodeJS.ProcessEnv;
  beforeEach(async () => {
    fake = await FakeGitHub.start();
    // Each test its own database-wide namespace: flush between tests instead of sharing keys.
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    redisEnv = { REDIS_URL: redis.url };
    const key = newPrivateKey();
    replicas = [await startReplica(key, redisEnv), await startReplica(key, redisEnv)];
    await Promise.all(replicas.map(connected));
  });
  afterEach(async () => {
    for (const r of replicas) {
      await r.server.close();
      await r.coordination.close();
    }
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  it('handle a delivery that reaches both once: one check run, one comment, nothing to settle', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    const event = prEvent();
    const answers = await Promise.all(replicas.map((r) => r.server.deliver('pull_request', event, { delivery: 'same-delivery' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);

    expect(fake.calls('POST', CHECK_RUNS)).toHaveLength(1);
    expect(fake.calls('POST', COMMENTS)).toHaveLength(1);
    expect(fake.calls('DELETE', /\/issues\/comments\/\d+$/)).toEqual([]);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    expect(replicas.flatMap((r) => r.logged).filter((l) => l.includes('redelivered webhook skipped'))).toHaveLength(1);
  });

  it('review one pull request one at a time: a push and its check suite at the same moment give one check run', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    const [a, b] = replicas as [Replica, Replica];
    // Both events arrive while neither replica has written anything.
    const answers = await Promise.all([
      a.server.deliver('pull_request', prEvent()),
      b.server.deliver(
        'check_suite',
        checkSuitePayload('requested', { installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }),
      ),
    ]);
    expect(answers.map((x) => x.status)).toEqual([200, 200]);
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, status: 'completed' });
    expect(fake.calls('POST', COMMENTS)).toHaveLength(1);
  });

  it('never let a dead replica hold a pull request: its lock expires', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    // A replica that took the lock and died: nobody extends or releases it.
    const dead = new Redis(redis.url);
    await dead.set(`gpu-justify:pr:${'codertocat/hello-world'}#${NUMBER}`, 'dead-replica', 'PX', 1500, 'NX');
    dead.disconnect();
    const started = Date.now();
    const answer = await replicas[0]?.server.deliver('pull_request', prEvent());
    expect(answer?.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'completed' })]);
  });
});

describe('replicas whose Redis goes away', () => {
  let lost: RunningRedis;
  beforeEach(async () => {
    fake = await FakeGitHub.start();
    lost = await startRedis();
    const key = newPrivateKey();
    replicas = [await startReplica(key, { REDIS_URL: lost.url }), await startReplica(key, { REDIS_URL: lost.url })];
    await Promise.all(replicas.map(connected));
  });
  afterEach(async () => {
    for (const r of replicas) {
      await r.server.close();
      await r.coordination.close();
    }
    await lost.stop();
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  it('go on without it, each settling on one comment through GitHub, and say so in the log and on /metrics', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await lost.stop({ crash: true });
    const event = prEvent();
    const started = Date.now();
    const answers = await Promise.all(replicas.map((r) => r.server.deliver('pull_request', event, { delivery: randomUUID() })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // No review waited for Redis: both ran, and the comment settled to one.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(repo.checkRuns.every((c) => c.status === 'completed')).toBe(true);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    for (const r of replicas) {
      expect(r.logged.some((l) => l.includes('redis unavailable: coordinating locally'))).toBe(true);
      const text = await r.metrics.registry.metrics();
      expect(text).toMatch(/^gpu_justify_redis_up 0$/m);
      expect(text).toMatch(/^gpu_justify_coordination_fallbacks_total\{operation="claim-delivery"\} [1-9]/m);
    }
  });
});
