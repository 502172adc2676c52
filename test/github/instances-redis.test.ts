import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { AppMetrics } from '../../src/github/app/metrics.js';
import { REPLY_MARKER } from '../../src/github/overrides/explain.js';
import { AppServer, WEBHOOK_SECRET, newPrivateKey } from '../helpers/app-server.js';
import { eventually } from '../helpers/eventually.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';
import { commentEvent, pullRequest } from './app-harness.js';

/**
 * Two named instances of the App (a staging and a production one) on one repository, sharing one
 * Redis as an operator may run them: a command addressed to one (`/gpu-justify@staging`) is
 * answered by that one alone; an unaddressed one by each instance once, however often it is
 * delivered, and neither swallows the other's through the store they share.
 */

interface Instance {
  name: string;
  server: AppServer;
  metrics: AppMetrics;
}

let redis: RunningRedis;
let fake: FakeGitHub;
let instances: Instance[];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

async function startInstance(name: string): Promise<Instance> {
  const metrics = new AppMetrics({ processMetrics: false });
  const app = createGpuJustifyApp({
    metrics,
    redisUrl: redis.url,
    stateSecret: WEBHOOK_SECRET,
    telemetry: () => undefined,
    instance: name,
  });
  const server = await AppServer.start(app, fake.url, { privateKey: newPrivateKey() });
  await eventually(async () => (await metrics.registry.getSingleMetricAsString('gpu_justify_redis_up')).endsWith(' 1'), {
    what: `instance ${name} connected to Redis`,
    timeoutMs: 5000,
  });
  return { name, server, metrics };
}

let comments = 100;
/** One comment as GitHub sends it to every App installed on the repository, each its own delivery. */
async function sendToAll(body: string, commentId = ++comments): Promise<void> {
  const event = commentEvent(body, { commentId });
  for (const i of instances) await i.server.deliver('issue_comment', event, { delivery: `${i.name}-${commentId}` });
}

describe('two named instances sharing one Redis', () => {
  beforeEach(async () => {
    fake = await FakeGitHub.start();
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    instances = [await startInstance('staging'), await startInstance('prod')];
  });
  afterEach(async () => {
    for (const i of instances) await i.server.close();
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  it('answer a command addressed to one of them by that one alone', { timeout: 90_000 }, async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await sendToAll('/gpu-justify@staging help');
    expect(repo.comments.filter((c) => c.body.includes(REPLY_MARKER))).toHaveLength(1);
    expect(repo.reactions).toHaveLength(1);

    await sendToAll('/gpu-justify@PROD');
    expect(repo.checkRuns.map((r) => r.name)).toEqual(['gpu-justify (prod)']);
    // A name no instance has: nobody answers, nothing is written.
    await sendToAll('/gpu-justify@nobody explain');
    expect(repo.comments.filter((c) => c.body.includes(REPLY_MARKER))).toHaveLength(1);
    expect(repo.reactions).toHaveLength(2);
  });

  it('answer an unaddressed command once each, however often it is delivered', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await sendToAll('/gpu-justify help', 7001);
    // GitHub redelivers both deliveries: each instance has answered already.
    await sendToAll('/gpu-justify help', 7001);
    expect(repo.comments.filter((c) => c.body.includes(REPLY_MARKER))).toHaveLength(2);
    expect(repo.reactions).toHaveLength(2);

    await sendToAll('/gpu-justify', 7002);
    await sendToAll('/gpu-justify', 7002);
    expect(repo.checkRuns.map((r) => r.name).sort()).toEqual(['gpu-justify (prod)', 'gpu-justify (staging)']);
    expect(repo.checkRuns.every((r) => r.status === 'completed')).toBe(true);
  });
});
