import { randomUUID } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { startAppProcess } from '../helpers/app-process.js';
import { deliverTo } from '../helpers/app-server.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { HEAD_SHA, prEvent, pullRequest } from './app-harness.js';
import { CHECK_RUNS, COMMENTS, LOCK_SECONDS, connected, useRedisReplicas } from './redis-replica-harness.js';

/**
 * A replica killed (SIGKILL) mid-review, its job in a real Redis: another replica takes it up
 * within a bounded time and finishes it, concluding the check once and writing one comment.
 */

/** The replica that takes a killed one's job up: see the test. */
const SURVIVOR_LOCK_SECONDS = 4;

// The doomed replica is a process of its own; the survivor starts once it holds the job.
const h = useRedisReplicas({ count: 0, allowFakeErrors: true });

describe('a replica killed mid-review', () => {
  // Its budget covers a process started from the sources (up to 30 s on a loaded machine), its first
  // review held mid-way, and the other replica's cold first review: none of them is what it times.
  it(
    'has its job finished by another replica: its check concluded, not left in progress, and no second one',
    { timeout: 150_000 },
    async () => {
      const repo = new FakeRepo(h.fake, pullRequest()).serve();
      const doomed = await startAppProcess(h.fake.url, h.key, {
        REDIS_URL: h.redis.url,
        GPU_JUSTIFY_JOB_LOCK_SECONDS: String(LOCK_SECONDS),
        GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS: '0',
        GPU_JUSTIFY_WORKER_CONCURRENCY: '1',
      });
      // BullMQ's own events of the App's queue (runtime.ts: prefix `gpu-justify`, queue `reviews`):
      // the moment the job is taken up again, as Redis records it, not a guess by the clock.
      const events = new QueueEvents('reviews', {
        connection: { host: new URL(h.redis.url).hostname, port: Number(new URL(h.redis.url).port) },
        prefix: 'gpu-justify',
      });
      try {
        await events.waitUntilReady();
        let release = (): void => undefined;
        const held = h.fake.hold('POST', '/graphql', new Promise<void>((r) => (release = r)));
        const answer = await deliverTo(doomed.url, 'pull_request', prEvent(), { delivery: randomUUID() });
        expect(answer.status).toBe(200);
        await held.arrived;
        await h.fake.answered('POST', CHECK_RUNS, 1);
        expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'in_progress' })]);
        // The job is active already: the next time it becomes active is its take-up (before the kill
        // too, should the doomed replica's lock lapse on a loaded machine while it is held).
        const takenUp = new Promise<number>((resolve) => events.once('active', () => resolve(Date.now())));
        // The other replica starts once the doomed one holds the job, so it cannot have taken it first.
        // Its own lock is longer than the doomed one's: its first review starts cold (a worker thread
        // loading the sources) on a machine that may hold its thread a second or two, and a lock that
        // lapsed there too would count a second stall and fail the job rather than time its take-up.
        const survivor = await h.start(h.redis.url, SURVIVOR_LOCK_SECONDS);
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
        expect(h.fake.calls('POST', COMMENTS)).toHaveLength(1);
        expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
      } finally {
        await events.close();
        await doomed.kill();
      }
    },
  );
});
