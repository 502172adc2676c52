import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { prKey } from '../../src/github/app/work/jobs.js';
import { KEEP_FAILED } from '../../src/github/app/work/queue.js';
import { redisStore } from '../../src/github/app/work/redis-store.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { eventually } from '../helpers/eventually.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { HEAD_SHA, NUMBER, REPO_PATH, commentEvent, prEvent, pullRequest } from './app-harness.js';
import { CHECK_RUNS, COMMENTS, appQueue, metric, useRedisReplicas } from './redis-replica-harness.js';

/**
 * Two replicas sharing a real Redis (`REDIS_URL`) share one queue (BullMQ): a delivery is one job
 * wherever it lands, a redelivery of one queued to the end queues nothing, one whose replica died
 * mid-way or whose job failed for good is taken up again, and failed jobs are kept within bounds.
 */

/**
 * Both replicas, the fake GitHub and the test share one thread here: a loaded machine holding it
 * past a short lock (LOCK_SECONDS) lets BullMQ's stalled-job check give the running job to the
 * other replica, which reviews and comments again (settled after by deleting one comment). These
 * tests are of deliveries, not of lapsed locks (replicas-redis-kill.test.ts): their locks outlast a stall.
 */
const LOCK_OUTLASTING_A_STALL_SECONDS = 30;

const h = useRedisReplicas({ count: 2, lockSeconds: LOCK_OUTLASTING_A_STALL_SECONDS });

describe('replicas sharing Redis', () => {
  // The file's first review pays the workers' start.
  it('queue a delivery that reaches both once: one check run, one comment, nothing to settle', { timeout: 90_000 }, async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    const event = prEvent();
    const answers = await Promise.all(h.replicas.map((r) => r.server.deliver('pull_request', event, { delivery: 'same-delivery' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);

    expect(h.fake.calls('POST', CHECK_RUNS)).toHaveLength(1);
    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(1);
    expect(h.fake.calls('DELETE', /\/issues\/comments\/\d+$/)).toEqual([]);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    expect(h.replicas.flatMap((r) => r.logged).filter((l) => l.includes('redelivered webhook skipped'))).toHaveLength(1);
  });

  it('queue a redelivery whose first replica died after claiming it, before queueing its job', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // What the dead replica left: the delivery claimed and its request posted, in one step; no job.
    const client = new Redis(h.redis.url);
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

    await h.replicas[1]?.server.deliver('pull_request', prEvent(), { delivery: 'died-mid-way' });
    expect(repo.checkRuns).toEqual([expect.objectContaining({ head_sha: HEAD_SHA, status: 'completed' })]);
    // The request was posted once: one review, and a redelivery now finds the delivery done.
    await h.replicas[0]?.server.deliver('pull_request', prEvent(), { delivery: 'died-mid-way' });
    expect(repo.checkRuns).toHaveLength(1);
    expect(h.replicas.flatMap((r) => r.logged).filter((l) => l.includes('its jobs queued again in case its replica died'))).toHaveLength(1);
  });

  it('answer a redelivery of a delivery queued to the end without queueing: no job, not one GitHub request', async () => {
    for (const [event, payload] of [
      ['pull_request', prEvent()],
      ['issue_comment', commentEvent('/gpu-justify help')],
      ['issue_comment', commentEvent('/gpu-justify')],
    ] as const) {
      const delivery = randomUUID();
      new FakeRepo(h.fake, pullRequest()).serve();
      await h.replicas[0]?.server.deliver(event, payload, { delivery });
      const before = h.fake.requests.length;
      expect(before).toBeGreaterThan(0);
      // Wherever it lands: the replica that took it, or the other.
      for (const replica of h.replicas) expect((await replica.server.deliver(event, payload, { delivery })).status).toBe(200);
      expect(h.fake.requests.slice(before)).toEqual([]);
    }
    expect(await metric(h.replicas, 'gpu_justify_redeliveries_skipped_total')).toBe(6);
  });

  it('take up a redelivery of a delivery whose job failed for good, on either replica', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Not worth another attempt: the job fails for good at once.
    h.fake.fail('GET', `${REPO_PATH}/pulls/${NUMBER}`, { status: 404, body: { message: 'Not Found' } }, 1);
    await h.replicas[0]?.server.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
    await eventually(async () => (await metric(h.replicas, 'gpu_justify_queue_jobs_failed_total')) === 1, {
      what: 'the job failed for good',
    });
    expect(repo.checkRuns).toEqual([]);
    // Kept for an operator to read: what it was for and why it failed, counted on /metrics.
    const queue = appQueue(h.redis.url);
    try {
      const [kept, ...others] = await queue.getFailed();
      expect(others).toEqual([]);
      expect(kept?.data).toMatchObject({ kind: 'pr', number: NUMBER, delivery: 'failed-for-good' });
      expect(kept?.failedReason).toContain('404');
      expect(await h.replicas[0]?.metrics.registry.getSingleMetricAsString('gpu_justify_queue_jobs')).toMatch(/state="failed"\} 1$/m);

      await h.replicas[1]?.server.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
      expect(repo.checkRuns).toEqual([expect.objectContaining({ head_sha: HEAD_SHA, status: 'completed' })]);
      // Its failed copy made way for the job that reviewed it.
      expect(await queue.getFailedCount()).toBe(0);
      await h.replicas[0]?.server.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
      expect(repo.checkRuns).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('keep failed jobs within their bounds: each one, until KEEP_FAILED.count', async () => {
    new FakeRepo(h.fake, pullRequest()).serve();
    const failures = 3;
    h.fake.fail('GET', `${REPO_PATH}/pulls/${NUMBER}`, { status: 404, body: { message: 'Not Found' } }, failures);
    for (let i = 0; i < failures; i++) {
      await h.replicas[i % 2]?.server.deliver('pull_request', prEvent(), { delivery: `fails-${i}` });
      await eventually(async () => (await metric(h.replicas, 'gpu_justify_queue_jobs_failed_total')) === i + 1, { what: 'a job failed' });
    }
    const queue = appQueue(h.redis.url);
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
});
