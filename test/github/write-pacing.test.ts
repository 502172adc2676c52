import { Redis } from 'ioredis';
import { ProbotOctokit } from 'probot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubClient } from '../../src/github/api/client.js';
import { memoryStore } from '../../src/github/app/work/memory-store.js';
import { RetryLater } from '../../src/github/app/work/queue.js';
import { redisStore } from '../../src/github/app/work/redis-store.js';
import type { WorkStore } from '../../src/github/app/work/store.js';
import { transient } from '../../src/github/app/work/transient.js';
import { paceWrites, WriteTurnsTaken, writeSpacingMs } from '../../src/github/app/writers/pacing.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';

/** Short enough for a test, long enough that timer jitter on a loaded machine stays well below it. */
const SPACING_MS = 150;
/** Redis keeps expiries to the millisecond: a line freed 150 ms ahead may be free a millisecond early. */
const TOLERANCE_MS = 2;

interface Arrival {
  at: number;
  method: string;
  path: string;
}

/** A client of one installation whose requests land in `arrivals` at once (GitHub answers 201). */
function client(arrivals: Arrival[]): GitHubClient {
  return new ProbotOctokit({
    auth: 'ghs_test',
    baseUrl: 'https://github.test',
    retry: { enabled: false },
    throttle: { enabled: false },
    request: {
      fetch: (url: string, init: { method: string }) => {
        arrivals.push({ at: performance.now(), method: init.method, path: new URL(url).pathname });
        return Promise.resolve(new Response('{}', { status: 201, headers: { 'content-type': 'application/json' } }));
      },
    },
  });
}

function paced(arrivals: Arrival[], store: WorkStore, installationId: number, spacingMs = SPACING_MS): GitHubClient {
  return paceWrites(client(arrivals), { store, installationId, perHour: 1_000_000, spacingMs }, { warn: () => undefined });
}

const checkRun = (octokit: GitHubClient, i: number) =>
  octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { owner: 'o', repo: 'r', check_run_id: i });
const comment = (octokit: GitHubClient, i: number) =>
  octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: i, body: 'x' });

function gaps(arrivals: Arrival[]): number[] {
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  return times.slice(1).map((t, i) => t - (times[i] ?? t));
}

let redis: RunningRedis;
const clients: Redis[] = [];
const replicaStore = (): WorkStore => {
  const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  clients.push(c);
  return redisStore(c, 'pacing-test:');
};
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis.stop();
});

describe('writes of one installation, spaced across jobs and replicas', () => {
  it('keeps every write a turn apart when two replicas each run two jobs of the installation at once', async () => {
    const arrivals: Arrival[] = [];
    const [a, b] = [replicaStore(), replicaStore()];
    const jobs = [paced(arrivals, a, 7), paced(arrivals, a, 7), paced(arrivals, b, 7), paced(arrivals, b, 7)];
    const started = performance.now();
    await Promise.all(jobs.flatMap((job, j) => [checkRun(job, j * 10), checkRun(job, j * 10 + 1)]));
    expect(arrivals).toHaveLength(8);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(SPACING_MS - TOLERANCE_MS);
    // Eight turns: the last seven each waited at least one spacing.
    expect(performance.now() - started).toBeGreaterThanOrEqual(7 * SPACING_MS - TOLERANCE_MS);
  });

  it('keeps writes a spacing apart at GitHub when a write reaches it late or is answered slowly', async () => {
    // Each write reaches GitHub 200 ms after it leaves (a thread held before sending, a slow
    // network) and is answered 300 ms later: a line taken by time alone would let the next write
    // of the other replica arrive first, next to it.
    const arrivals: Arrival[] = [];
    const late = (store: WorkStore) =>
      paceWrites(
        new ProbotOctokit({
          auth: 'ghs_test',
          baseUrl: 'https://github.test',
          retry: { enabled: false },
          throttle: { enabled: false },
          request: {
            fetch: async (url: string, init: { method: string }) => {
              await new Promise((r) => setTimeout(r, 200));
              arrivals.push({ at: performance.now(), method: init.method, path: new URL(url).pathname });
              await new Promise((r) => setTimeout(r, 300));
              return new Response('{}', { status: 201, headers: { 'content-type': 'application/json' } });
            },
          },
        }),
        { store, installationId: 13, perHour: 1_000_000, spacingMs: SPACING_MS },
        { warn: () => undefined },
      );
    const [a, b] = [replicaStore(), replicaStore()];
    await Promise.all([late(a), late(b), late(a), late(b)].map((job, j) => checkRun(job, j)));
    expect(arrivals).toHaveLength(4);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(SPACING_MS + 500 - TOLERANCE_MS);
  });

  it('spaces a write Octokit retries from its failed attempt, holding the line', async () => {
    const arrivals: Arrival[] = [];
    let failures = 2;
    const octokit = paceWrites(
      new ProbotOctokit({
        auth: 'ghs_test',
        baseUrl: 'https://github.test',
        retry: { enabled: true, retryAfterBaseValue: 1 },
        throttle: { enabled: false },
        request: {
          fetch: (url: string, init: { method: string }) => {
            arrivals.push({ at: performance.now(), method: init.method, path: new URL(url).pathname });
            const status = failures-- > 0 ? 502 : 201;
            return Promise.resolve(new Response('{}', { status, headers: { 'content-type': 'application/json' } }));
          },
        },
      }),
      { store: replicaStore(), installationId: 14, perHour: 1_000_000, spacingMs: SPACING_MS },
      { warn: () => undefined },
    );
    await checkRun(octokit, 1);
    expect(arrivals).toHaveLength(3);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(SPACING_MS - TOLERANCE_MS);
  });

  it('spaces notifying writes three turns apart, and leaves reads and other installations alone', async () => {
    const arrivals: Arrival[] = [];
    const others: Arrival[] = [];
    const [a, b] = [replicaStore(), replicaStore()];
    const reads: Arrival[] = [];
    const reader = paced(reads, a, 8);
    const started = performance.now();
    await Promise.all([
      comment(paced(arrivals, a, 8), 1),
      comment(paced(arrivals, b, 8), 2),
      comment(paced(arrivals, b, 8), 3),
      checkRun(paced(others, b, 9), 1),
      reader.request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' }),
      reader.request('POST /graphql', { query: '{ viewer { login } }' }),
    ]);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(3 * SPACING_MS - TOLERANCE_MS);
    // The other installation's write and the reads did not queue behind installation 8's turns.
    for (const r of [...others, ...reads]) expect(r.at - started).toBeLessThan(SPACING_MS);
  });

  it('does not hold a write past the longest wait: the job is tried again when the line frees up', async () => {
    const store = replicaStore();
    const arrivals: Arrival[] = [];
    // 40 s apart: the second write would wait more than the 30 s a write waits here.
    const octokit = paced(arrivals, store, 10, 40_000);
    await checkRun(octokit, 1);
    const refused = await checkRun(octokit, 2).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(WriteTurnsTaken);
    expect(arrivals).toHaveLength(1);
    const retry = transient(refused);
    expect(retry).toBeInstanceOf(RetryLater);
    expect(retry?.at).toBeGreaterThan(Date.now() + 30_000);
  });
});

describe('the same line without Redis, in this process', () => {
  it('spaces the jobs of one installation sharing the memory store', async () => {
    const store = memoryStore();
    const arrivals: Arrival[] = [];
    await Promise.all([0, 1, 2, 3].map((j) => checkRun(paced(arrivals, store, 11), j)));
    expect(arrivals).toHaveLength(4);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(SPACING_MS - 5);
  });

  it('answers the same contract as Redis: a line is held until freed, then free a spacing later', async () => {
    for (const store of [memoryStore(), replicaStore()]) {
      expect(await store.takeWriteLine('1', 'a', 10_000, 1000, false)).toBe(0);
      // Held: at least a spacing, whatever the holder's write still takes.
      expect(await store.takeWriteLine('1', 'b', 10_000, 1000, false)).toBe(1000);
      expect(await store.takeWriteLine('2', 'c', 10_000, 1000, false)).toBe(0);
      await store.freeWriteLine('1', 'a', 1000, 3000);
      const wait = await store.takeWriteLine('1', 'b', 10_000, 1000, false);
      expect(wait).toBeGreaterThan(900);
      expect(wait).toBeLessThanOrEqual(1000);
      // A notifying write waits out the notifying spacing.
      expect(await store.takeWriteLine('1', 'b', 10_000, 1000, true)).toBeGreaterThan(2900);
      // Freed by someone else than its holder: the holder keeps it.
      await store.freeWriteLine('2', 'x', 0, 0);
      expect(await store.takeWriteLine('2', 'd', 10_000, 1000, false)).toBe(1000);
    }
  });

  it('frees a line whose holder died once its hold lapses', async () => {
    for (const store of [memoryStore(), replicaStore()]) {
      expect(await store.takeWriteLine('3', 'dead', 50, 1000, false)).toBe(0);
      await new Promise((r) => setTimeout(r, 80));
      expect(await store.takeWriteLine('3', 'alive', 50, 1000, false)).toBe(0);
      // Renewed: still held past its first hold.
      await store.holdWriteLine('3', 'alive', 10_000);
      await new Promise((r) => setTimeout(r, 80));
      expect(await store.takeWriteLine('3', 'other', 50, 1000, false)).toBe(1000);
    }
  });

  it('reads the spacing from the environment: 1 s by default, 0 turns it off', () => {
    expect(writeSpacingMs({})).toBe(1000);
    expect(writeSpacingMs({ GPU_JUSTIFY_WRITE_SPACING_MS: '0' })).toBe(0);
    expect(writeSpacingMs({ GPU_JUSTIFY_WRITE_SPACING_MS: '250' })).toBe(250);
    expect(writeSpacingMs({ GPU_JUSTIFY_WRITE_SPACING_MS: '-1' })).toBe(1000);
  });

  it('does not space writes when the spacing is 0', async () => {
    const store = memoryStore();
    const arrivals: Arrival[] = [];
    const started = performance.now();
    await Promise.all([0, 1, 2].map((j) => checkRun(paced(arrivals, store, 12, 0), j)));
    expect(performance.now() - started).toBeLessThan(SPACING_MS);
  });
});
