import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAppProcess } from '../helpers/app-process.js';
import type { AppProcess } from '../helpers/app-process.js';
import { eventually } from '../helpers/eventually.js';
import { deliverTo, newPrivateKey } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { pullRequestPayload } from '../helpers/payloads.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';
import { INSTALLATION, pullRequest } from './app-harness.js';

/**
 * Two App processes sharing a real Redis review pull requests of one installation at once, one of
 * them on a thread held 300 ms at a time (a loaded machine), against a fake GitHub that answers
 * each request 50–150 ms late: GitHub receives the installation's writes one at a time, at least
 * the spacing apart, and notifying writes three spacings apart.
 */

const SPACING_MS = 250;
const PRS = 6;
/** Redis keeps expiries to the millisecond. */
const TOLERANCE_MS = 2;

let redis: RunningRedis;
let fake: FakeGitHub;
const apps: AppProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  fake = await FakeGitHub.start();
});
afterAll(async () => {
  for (const app of apps) await app.kill();
  await fake.close();
  await redis.stop();
});

function servePr(n: number, sharing?: FakeRepo) {
  const state = pullRequest();
  const repo = { owner: 'acme', repo: `infra-${n}` };
  const pr = { ...state, base: repo, number: n, baseSha: `${n}`.padStart(40, 'b'), headSha: `${n}`.padStart(40, 'c') };
  const served = new FakeRepo(fake, pr, sharing ? { sharing } : {}).serve();
  const payload = pullRequestPayload({
    action: 'opened',
    installationId: INSTALLATION,
    number: n,
    baseSha: pr.baseSha,
    headSha: pr.headSha,
    repo,
  });
  return { repo: served, payload };
}

const isWrite = (method: string, path: string) => method !== 'GET' && path !== '/graphql' && !path.endsWith('/access_tokens');
const NOTIFYING = /\/(issues|pulls)\/[^/]+\/(comments|reviews)$/;

function gaps(times: number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => t - (sorted[i] ?? t));
}

it("keeps one installation's writes a spacing apart at GitHub across two App processes, one of them held", async () => {
  const key = newPrivateKey();
  const env = { REDIS_URL: redis.url, GPU_JUSTIFY_WRITE_SPACING_MS: String(SPACING_MS), GPU_JUSTIFY_WORKER_CONCURRENCY: '4' };
  apps.push(await startAppProcess(fake.url, key, { ...env, TEST_STALL_MS: '300' }), await startAppProcess(fake.url, key, env));
  fake.delay = () => 50 + Math.floor(Math.random() * 100);
  const first = servePr(1);
  const prs = [first, ...Array.from({ length: PRS - 1 }, (_, i) => servePr(i + 2, first.repo))];

  const answers = await Promise.all(
    prs.map((pr, i) => deliverTo((apps[i % 2] as AppProcess).url, 'pull_request', pr.payload, { delivery: randomUUID() })),
  );
  expect(answers.map((a) => a.status)).toEqual(prs.map(() => 200));
  // Every pull request concluded and commented on.
  const concluded = () => prs.every((p) => p.repo.checkRuns.some((c) => c.status === 'completed') && p.repo.comments.length > 0);
  await eventually(concluded, {
    what: 'every pull request concluded and commented on',
    timeoutMs: 90_000,
    everyMs: 100,
    state: () => apps.map((app) => app.output()).join('\n'),
  });
  await fake.settled();
  expect(concluded(), apps.map((app) => app.output()).join('\n')).toBe(true);
  expect(fake.errors).toEqual([]);

  const writes = fake.requests.filter((r) => isWrite(r.method, r.path));
  // A check run and a comment per pull request at least.
  expect(writes.length).toBeGreaterThanOrEqual(2 * PRS);
  const closest = Math.min(...gaps(writes.map((w) => w.arrivedAt)));
  expect(closest, `closest writes ${closest.toFixed(1)} ms apart`).toBeGreaterThanOrEqual(SPACING_MS - TOLERANCE_MS);
  const notifying = writes.filter((w) => w.method === 'POST' && NOTIFYING.test(w.path));
  expect(notifying.length).toBeGreaterThanOrEqual(PRS);
  expect(Math.min(...gaps(notifying.map((w) => w.arrivedAt)))).toBeGreaterThanOrEqual(3 * SPACING_MS - TOLERANCE_MS);
  // One at a time: no write arrived before the one before it was answered.
  const sorted = [...writes].sort((a, b) => a.arrivedAt - b.arrivedAt);
  for (const [i, w] of sorted.slice(1).entries()) expect(w.arrivedAt).toBeGreaterThan(sorted[i]?.answeredAt ?? Infinity);
}, 120_000);
