import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { AppMetrics } from '../../src/github/app/metrics.js';
import { prKey } from '../../src/github/app/work/jobs.js';
import { KEEP_FAILED } from '../../src/github/app/work/queue.js';
import { redisStore } from '../../src/github/app/work/redis-store.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { startAppProcess } from '../helpers/app-process.js';
import { AppServer, WEBHOOK_SECRET, deliverTo, newPrivateKey } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO, checkRunPayload } from '../helpers/payloads.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from './scenarios.js';
import { HEAD_SHA, INSTALLATION, NEWER_SHA, NUMBER, REPO_PATH, commentEvent, prEvent, pullRequest } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Replicas that share a real Redis (`REDIS_URL`) share one queue (BullMQ): a delivery is one
 * job wherever it lands, one pull request runs one job at a time across replicas, pushes during a
 * review fold into one more, re-runs of a reviewed head are answered by its review, a replica
 * killed mid-review has its job finished by another, and a Redis that goes away loses no review.
 */

const COMMENTS = `${REPO_PATH}/issues/${NUMBER}/comments`;
const CHECK_RUNS = `${REPO_PATH}/check-runs`;
/** Short locks: a job whose replica died is taken up within seconds, not a minute. */
const LOCK_SECONDS = 2;
/** The replica that takes a killed one's job up: see the test. */
const SURVIVOR_LOCK_SECONDS = 4;

interface Replica {
  server: AppServer;
  metrics: AppMetrics;
  logged: string[];
}

let redis: RunningRedis;
let fake: FakeGitHub;
let replicas: Replica[];
let key: string;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

async function startReplica(redisUrl: string, lockSeconds = LOCK_SECONDS): Promise<Replica> {
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

/** Waits until every replica has connected, so the test races reviews, not connects. */
async function connected(replica: Replica): Promise<void> {
  await eventually(async () => (await replica.metrics.registry.getSingleMetricAsString('gpu_justify_redis_up')).endsWith(' 1'), {
    what: 'the replica connected to Redis',
    timeoutMs: 20_000,
    state: () => replica.logged.join(''),
  });
}

async function metric(replicas: Replica[], name: string): Promise<number> {
  let total = 0;
  for (const r of replicas) {
    const text = await r.metrics.registry.getSingleMetricAsString(name);
    total += Number(/ (\d+(?:\.\d+)?)$/m.exec(text)?.[1] ?? 0);
  }
  return total;
}

async function flush(url: string): Promise<void> {
  const admin = new Redis(url);
  await admin.flushall();
  admin.disconnect();
}

describe('replicas sharing Redis', () => {
  beforeEach(async () => {
    fake = await FakeGitHub.start();
    await flush(redis.url);
    key = newPrivateKey();
    replicas = [await startReplica(redis.url), await startReplica(redis.url)];
    await Promise.all(replicas.map(connected));
  });
  afterEach(async () => {
    for (const r of replicas) await r.server.close();
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  // The file's first review pays the workers' start, and a job whose lock lapses on a loaded machine runs twice.
  it('queue a delivery that reaches both once: one check run, one comment, nothing to settle', { timeout: 90_000 }, async () => {
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

  it('queue a redelivery whose first replica died after claiming it, before queueing its job', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    // What the dead replica left: the delivery claimed and its request posted, in one step; no job.
    const client = new Redis(redis.url);
    const store = redisStore(client, 'gpu-justify:');
    const request = {
      kind: 'review' as const,
      delivery: 'died-mid-way',
      event: 'pull_request' as const,
      at: Date.now(),
      headSha: HEAD_SHA,
    };
    expect(await store.claimDelivery('died-mid-way', [{ key: prKey(EXAMPLE_REPO.owner, EXAMPLE_REPO.repo, NUMBER), request }])).toBe('new');
    expect(await store.claimDelivery('died-mid-way', [{ key: 'other', request }])).toBe('working');
    client.disconnect();

    await replicas[1]?.server.deliver('pull_request', prEvent(), { delivery: 'died-mid-way' });
    expect(repo.checkRuns).toEqual([expect.objectContaining({ head_sha: HEAD_SHA, status: 'completed' })]);
    // The request was posted once: one review, and a redelivery now finds the delivery done.
    await replicas[0]?.server.deliver('pull_request', prEvent(), { delivery: 'died-mid-way' });
    expect(repo.checkRuns).toHaveLength(1);
    expect(replicas.flatMap((r) => r.logged).filter((l) => l.includes('its jobs queued again in case its replica died'))).toHaveLength(1);
  });

  it('answer a redelivery of a delivery queued to the end without queueing: no job, not one GitHub request', async () => {
    for (const [event, payload] of [
      ['pull_request', prEvent()],
      ['issue_comment', commentEvent('/gpu-justify help')],
      ['issue_comment', commentEvent('/gpu-justify')],
    ] as const) {
      const delivery = randomUUID();
      new FakeRepo(fake, pullRequest()).serve();
      await replicas[0]?.server.deliver(event, payload, { delivery });
      const before = fake.requests.length;
      expect(before).toBeGreaterThan(0);
      // Wherever it lands: the replica that took it, or the other.
      for (const replica of replicas) expect((await replica.server.deliver(event, payload, { delivery })).status).toBe(200);
      expect(fake.requests.slice(before)).toEqual([]);
    }
    expect(await metric(replicas, 'gpu_justify_redeliveries_skipped_total')).toBe(6);
  });

  it('take up a redelivery of a delivery whose job failed for good, on either replica', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    // Not worth another attempt: the job fails for good at once.
    fake.fail('GET', `${REPO_PATH}/pulls/${NUMBER}`, { status: 404, body: { message: 'Not Found' } }, 1);
    await replicas[0]?.server.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
    await eventually(async () => (await metric(replicas, 'gpu_justify_queue_jobs_failed_total')) === 1, {
      what: 'the job failed for good',
    });
    expect(repo.checkRuns).toEqual([]);
    // Kept for an operator to read: what it was for and why it failed, counted on /metrics.
    const queue = new Queue('reviews', {
      connection: { host: new URL(redis.url).hostname, port: Number(new URL(redis.url).port) },
      prefix: 'gpu-justify',
    });
    try {
      const [kept, ...others] = await queue.getFailed();
      expect(others).toEqual([]);
      expect(kept?.data).toMatchObject({ kind: 'pr', number: NUMBER, delivery: 'failed-for-good' });
      expect(kept?.failedReason).toContain('404');
      expect(await replicas[0]?.metrics.registry.getSingleMetricAsString('gpu_justify_queue_jobs')).toMatch(/state="failed"\} 1$/m);

      await replicas[1]?.server.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
      expect(repo.checkRuns).toEqual([expect.objectContaining({ head_sha: HEAD_SHA, status: 'completed' })]);
      // Its failed copy made way for the job that reviewed it.
      expect(await queue.getFailedCount()).toBe(0);
      await replicas[0]?.server.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
      expect(repo.checkRuns).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('keep failed jobs within their bounds: each one, until KEEP_FAILED.count', async () => {
    new FakeRepo(fake, pullRequest()).serve();
    const failures = 3;
    fake.fail('GET', `${REPO_PATH}/pulls/${NUMBER}`, { status: 404, body: { message: 'Not Found' } }, failures);
    for (let i = 0; i < failures; i++) {
      await replicas[i % 2]?.server.deliver('pull_request', prEvent(), { delivery: `fails-${i}` });
      await eventually(async () => (await metric(replicas, 'gpu_justify_queue_jobs_failed_total')) === i + 1, { what: 'a job failed' });
    }
    const queue = new Queue('reviews', {
      connection: { host: new URL(redis.url).hostname, port: Number(new URL(redis.url).port) },
      prefix: 'gpu-justify',
    });
    try {
      expect((await queue.getFailed()).map((j) => (j.data as { delivery: string }).delivery).sort()).toEqual([
        'fails-0',
        'fails-1',
        'fails-2',
      ]);
      // BullMQ trims by the options each job was added with: the App's bounds.
      for (const job of await queue.getFailed()) expect(job.opts.removeOnFail).toEqual(KEEP_FAILED);
    } finally {
      await queue.close();
    }
  });

  it('answer webhooks before reviewing: the answer does not wait for a review held by GitHub', async () => {
    new FakeRepo(fake, pullRequest()).serve();
    let release = (): void => undefined;
    const held = fake.hold('POST', '/graphql', new Promise<void>((r) => (release = r)));
    const [a] = replicas as [Replica, Replica];
    const started = Date.now();
    const answer = await a.server.deliver('pull_request', prEvent(), { settle: false });
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    await held.arrived;
    // Either replica's worker may take the job from the shared queue: the one running it says so,
    // the other runs nothing.
    const running = await Promise.all(replicas.map((r) => metric([r], 'gpu_justify_worker_jobs_running')));
    release();
    expect([...running].sort()).toEqual([0, 1]);
    await Promise.all(replicas.map((r) => r.server.settled()));
    expect(await metric(replicas, 'gpu_justify_worker_jobs_running')).toBe(0);
  });

  it('review one pull request at a time, and fold pushes made during a review into one more, of the newest head', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    const [a, b] = replicas as [Replica, Replica];
    // The first review is held mid-way (its file reads) while three pushes arrive, on both replicas.
    let release = (): void => undefined;
    const held = fake.hold('POST', '/graphql', new Promise<void>((r) => (release = r)));
    await a.server.deliver('pull_request', prEvent(), { settle: false });
    await held.arrived;
    const heads = ['1', '2', '3'].map((d) => d.repeat(40));
    for (const [i, head] of heads.entries()) {
      repo.push(head, { [QUEUE_FILE]: clusterQueue(8 + i), 'gpu-workloads.yaml': CATALOG, 'README.md': README });
      await (i % 2 === 0 ? b : a).server.deliver('pull_request', prEvent({ action: 'synchronize', headSha: head }), { settle: false });
    }
    release();
    await a.server.settled();

    // One review of the first head, one of the newest: the two pushes between were never reviewed.
    expect(repo.checkRuns.map((r) => r.head_sha)).toEqual([HEAD_SHA, heads[2]]);
    expect(repo.checkRuns.every((r) => r.status === 'completed')).toBe(true);
    // Never two at once: the second review's check run was created after the first concluded.
    const [first, second] = repo.checkRuns;
    expect(second?.id).toBeGreaterThan(first?.id ?? Infinity);
    expect(await metric(replicas, 'gpu_justify_queue_superseded_total')).toBeGreaterThanOrEqual(2);
    const ours = repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain(`blob/${heads[2] ?? ''}`);
  });

  it('coalesce re-runs of a reviewed head: fifteen /gpu-justify comments give one review, each still acknowledged', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await replicas[0]?.server.deliver('pull_request', prEvent());
    expect(repo.checkRuns).toHaveLength(1);
    const ids = Array.from({ length: 15 }, () => repo.addComment('/gpu-justify', 'User').id);
    await Promise.all(
      ids.map((id, i) => (replicas[i % 2] as Replica).server.deliver('issue_comment', commentEvent('/gpu-justify', { commentId: id }))),
    );
    // Re-run from the Checks tab too.
    await replicas[1]?.server.deliver(
      'check_run',
      checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }),
    );

    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.reactions.map((r) => r.commentId).sort()).toEqual([...ids].sort());
    expect(await metric(replicas, 'gpu_justify_reruns_coalesced_total')).toBe(16);
  });

  it('re-run a head whose review could not run, once', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    // Every attempt of the first review is refused its reads: it concludes "could not run".
    fake.fail('POST', '/graphql', { status: 403, body: { message: 'Resource not accessible by integration' } }, 1000);
    fake.on('GET', '/repos/:owner/:repo/contents/*path', () => ({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    }));
    await replicas[0]?.server.deliver('pull_request', prEvent());
    expect(repo.checkRuns[0]?.output.title).toContain('could not run');
    const ids = [repo.addComment('/gpu-justify', 'User').id, repo.addComment('/gpu-justify', 'User').id];
    for (const id of ids) await replicas[1]?.server.deliver('issue_comment', commentEvent('/gpu-justify', { commentId: id }));
    // Each re-run of a review that reached no verdict runs; none is coalesced.
    expect(repo.checkRuns).toHaveLength(3);
    expect(await metric(replicas, 'gpu_justify_reruns_coalesced_total')).toBe(0);
  });
});

describe('a replica killed mid-review', () => {
  beforeEach(async () => {
    fake = await FakeGitHub.start();
    await flush(redis.url);
    key = newPrivateKey();
    replicas = [];
  });
  afterEach(async () => {
    for (const r of replicas) await r.server.close();
    await fake.close();
  });

  // Its budget covers a process started from the sources (up to 30 s on a loaded machine), its first
  // review held mid-way, and the other replica's cold first review: none of them is what it times.
  it(
    'has its job finished by another replica: its check concluded, not left in progress, and no second one',
    { timeout: 150_000 },
    async () => {
      const repo = new FakeRepo(fake, pullRequest()).serve();
      const doomed = await startAppProcess(fake.url, key, {
        REDIS_URL: redis.url,
        GPU_JUSTIFY_JOB_LOCK_SECONDS: String(LOCK_SECONDS),
        GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS: '0',
        GPU_JUSTIFY_WORKER_CONCURRENCY: '1',
      });
      // BullMQ's own events of the App's queue (runtime.ts: prefix `gpu-justify`, queue `reviews`):
      // the moment the job is taken up again, as Redis records it, not a guess by the clock.
      const events = new QueueEvents('reviews', {
        connection: { host: new URL(redis.url).hostname, port: Number(new URL(redis.url).port) },
        prefix: 'gpu-justify',
      });
      try {
        await events.waitUntilReady();
        let release = (): void => undefined;
        const held = fake.hold('POST', '/graphql', new Promise<void>((r) => (release = r)));
        const answer = await deliverTo(doomed.url, 'pull_request', prEvent(), { delivery: randomUUID() });
        expect(answer.status).toBe(200);
        await held.arrived;
        await fake.answered('POST', CHECK_RUNS, 1);
        expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'in_progress' })]);
        // The job is active already: the next time it becomes active is its take-up (before the kill
        // too, should the doomed replica's lock lapse on a loaded machine while it is held).
        const takenUp = new Promise<number>((resolve) => events.once('active', () => resolve(Date.now())));
        // The other replica starts once the doomed one holds the job, so it cannot have taken it first.
        // Its own lock is longer than the doomed one's: its first review starts cold (a worker thread
        // loading the sources) on a machine that may hold its thread a second or two, and a lock that
        // lapsed there too would count a second stall and fail the job rather than time its take-up.
        const survivor = await startReplica(redis.url, SURVIVOR_LOCK_SECONDS);
        replicas.push(survivor);
        await connected(survivor);
        const killedAt = Date.now();
        await doomed.kill();
        release();

        // Taken up once the doomed lock lapsed (LOCK_SECONDS) and a stall check of the survivor
        // marked and then moved it (two of its intervals), with slack for a loaded machine.
        const tookMs = (await takenUp) - killedAt;
        expect(tookMs).toBeLessThan((LOCK_SECONDS + 2 * SURVIVOR_LOCK_SECONDS + 10) * 1000);
        await survivor.server.settled();
        expect(repo.checkRuns).toHaveLength(1);
        expect(repo.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, status: 'completed', conclusion: 'neutral' });
        // Concluded once, by the survivor: the killed replica never got as far.
        expect(repo.checkRuns[0]?.history.filter((b) => b.conclusion !== undefined).map((b) => b.conclusion)).toEqual(['neutral']);
        expect(fake.calls('POST', COMMENTS)).toHaveLength(1);
        expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
      } finally {
        await events.close();
        await doomed.kill();
      }
    },
  );
});

describe('replicas whose Redis goes away', () => {
  let lost: RunningRedis;
  beforeEach(async () => {
    fake = await FakeGitHub.start();
    lost = await startRedis();
    key = newPrivateKey();
    replicas = [await startReplica(lost.url), await startReplica(lost.url)];
    await Promise.all(replicas.map(connected));
  });
  afterEach(async () => {
    for (const r of replicas) await r.server.close();
    await lost.stop();
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  it('queue on each replica instead, so no review is lost, settle on one comment through GitHub, and say so', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await lost.stop({ crash: true });
    const event = prEvent();
    const started = Date.now();
    const answers = await Promise.all(replicas.map((r) => r.server.deliver('pull_request', event, { delivery: randomUUID() })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // No answer waited for Redis: both queued here and reviewed, and the comment settled to one.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(repo.checkRuns.length).toBeGreaterThanOrEqual(1);
    expect(repo.checkRuns.every((c) => c.status === 'completed')).toBe(true);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    for (const r of replicas) {
      expect(r.logged.some((l) => l.includes('redis unavailable: queueing on this replica'))).toBe(true);
      const text = await r.metrics.registry.metrics();
      expect(text).toMatch(/^gpu_justify_redis_up 0$/m);
      expect(text).toMatch(/^gpu_justify_coordination_fallbacks_total\{operation="enqueue"\} [1-9]/m);
    }
  });

  it('a push after Redis went away is still reviewed, with the newest head', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await replicas[0]?.server.deliver('pull_request', prEvent());
    await lost.stop({ crash: true });
    repo.push(NEWER_SHA, { [QUEUE_FILE]: clusterQueue(10), 'gpu-workloads.yaml': CATALOG, 'README.md': README });
    await replicas[1]?.server.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    expect(repo.checkRuns.map((r) => [r.head_sha, r.status])).toEqual([
      [HEAD_SHA, 'completed'],
      [NEWER_SHA, 'completed'],
    ]);
  });
});
