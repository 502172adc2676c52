import { describe, expect, it } from 'vitest';
import { COMMENT_RETRIES, commentRetryWait, retryCommentWrite } from './comment-retry.js';
import type { CommentRetry } from './comment-retry.js';
import { WriteBudget, WriteBudgetExceededError } from './write-budget.js';
import { GitHubApiError } from '../api/index.js';
import type { CommentOutcome } from './comment-poster.js';

const NOW = 1_800_000_000_000;
const quiet = { warn: () => undefined, info: () => undefined };

const refusal = (status: number, headers: Record<string, string> = {}, message = 'refused') =>
  Object.assign(new Error(message), { status, response: { headers } });

/** An error of the App's own pacing: its write line is queued until `at`. */
class Queued extends Error {
  constructor(readonly retryAt: number) {
    super('queued');
  }
}

/** The failures worth another try, each with the least wait it asks for. */
const RETRIED: { name: string; err: (now: number) => Error; least: number }[] = [
  ...[500, 502, 503, 504].map((status) => ({ name: `${status}`, err: () => refusal(status), least: 0 })),
  { name: 'GitHubApiError 502', err: () => new GitHubApiError(502, 'POST', '/repos/a/b/issues/7/comments'), least: 0 },
  {
    name: 'secondary limit, retry-after',
    err: () => refusal(403, { 'retry-after': '3' }, 'You have exceeded a secondary rate limit'),
    least: 3000,
  },
  { name: 'secondary limit, no retry-after', err: () => refusal(403, {}, 'You have exceeded a secondary rate limit'), least: 60_000 },
  { name: '429', err: () => refusal(429, { 'retry-after': '1' }), least: 1000 },
  { name: 'write line queued', err: (now) => new Queued(now + 4000), least: 4000 },
];

/** Failures that would fail the same way again. */
const NOT_RETRIED: { name: string; err: () => Error }[] = [
  ...[400, 401, 404, 410, 422].map((status) => ({ name: `${status}`, err: () => refusal(status) })),
  { name: 'plain 403', err: () => refusal(403, { 'x-ratelimit-remaining': '40' }, 'Resource not accessible by integration') },
  { name: 'no status', err: () => new Error('body too long') },
];

function harness(over: Partial<CommentRetry> & { budgetSeconds?: number } = {}) {
  const waits: number[] = [];
  let clock = NOW;
  const retry: CommentRetry = {
    budget: new WriteBudget(over.budgetSeconds ?? 120),
    baseMs: 1000,
    log: quiet,
    stillCurrent: () => Promise.resolve(true),
    sleep: (ms) => {
      waits.push(ms);
      clock += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
    now: () => clock,
    ...over,
  };
  return { retry, waits, now: () => clock };
}

/** A write failing `failures` times with `err`, then answering `updated`. */
function failing(failures: number, err: (now: number) => Error, now = () => NOW) {
  const tries: number[] = [];
  const write = (attempt: number): Promise<CommentOutcome> => {
    tries.push(attempt);
    return tries.length <= failures ? Promise.reject(err(now())) : Promise.resolve('updated');
  };
  return { write, tries };
}

describe('commentRetryWait', () => {
  for (const c of RETRIED)
    it(`tries again after ${c.name}, not before ${c.least} ms`, () => {
      expect(commentRetryWait(c.err(NOW), NOW)).toBe(c.least);
    });
  for (const c of NOT_RETRIED)
    it(`does not try again after ${c.name}`, () => {
      expect(commentRetryWait(c.err(), NOW)).toBeNull();
    });
});

describe('retryCommentWrite', () => {
  for (const c of RETRIED)
    for (let failures = 1; failures <= COMMENT_RETRIES + 1; failures++)
      it(`${c.name} ${failures} time(s): written within ${COMMENT_RETRIES} more tries, else the failure thrown`, async () => {
        const { retry, waits, now } = harness({ budgetSeconds: 1000 });
        const { write, tries } = failing(failures, c.err, now);
        const done = retryCommentWrite(write, retry);
        if (failures <= COMMENT_RETRIES) await expect(done).resolves.toBe('updated');
        else await expect(done).rejects.toBeDefined();
        expect(tries).toEqual([...Array(Math.min(failures + 1, COMMENT_RETRIES + 1)).keys()]);
        // Exponential backoff (jitter at its middle here), never before the time the failure names.
        expect(waits).toEqual(waits.map((_, i) => Math.max(c.least, 1000 * 2 ** i)));
        expect(retry.budget.leftMs).toBe(1_000_000 - waits.reduce((a, b) => a + b, 0));
      });

  for (const c of NOT_RETRIED)
    it(`${c.name}: thrown at once, nothing waited`, async () => {
      const { retry, waits } = harness();
      const { write, tries } = failing(1, c.err);
      await expect(retryCommentWrite(write, retry)).rejects.toBeDefined();
      expect(tries).toEqual([0]);
      expect(waits).toEqual([]);
    });

  for (const budgetSeconds of [0, 0.5, 1, 2.9, 3, 6.9, 7, 30])
    it(`never waits past a budget of ${budgetSeconds} s`, async () => {
      const { retry, waits } = harness({ budgetSeconds });
      const { write } = failing(10, () => refusal(502));
      await expect(retryCommentWrite(write, retry)).rejects.toBeDefined();
      const spent = waits.reduce((a, b) => a + b, 0);
      expect(spent).toBeLessThanOrEqual(budgetSeconds * 1000);
      expect(retry.budget.leftMs).toBe(budgetSeconds * 1000 - spent);
      // 1 s, 2 s, 4 s as long as they fit; the first that does not ends the tries.
      const fitting: number[] = [];
      for (let sum = 0, i = 0; i < COMMENT_RETRIES && sum + 1000 * 2 ** i <= budgetSeconds * 1000; sum += 1000 * 2 ** i, i++)
        fitting.push(1000 * 2 ** i);
      expect(waits).toEqual(fitting);
    });

  it('a rate limit longer than the budget left is not waited for at all', async () => {
    const { retry, waits } = harness({ budgetSeconds: 120 });
    const { write, tries } = failing(1, () => refusal(403, { 'retry-after': '600' }, 'You have exceeded a secondary rate limit'));
    await expect(retryCommentWrite(write, retry)).rejects.toBeDefined();
    expect(tries).toEqual([0]);
    expect(waits).toEqual([]);
  });

  it('the budget refusing a write (its limit past the budget) ends the tries', async () => {
    const { retry, waits } = harness({ budgetSeconds: 10 });
    const { write } = failing(1, () => new WriteBudgetExceededError(NOW + 3_600_000, { cause: refusal(403, { 'retry-after': '3600' }) }));
    await expect(retryCommentWrite(write, retry)).rejects.toBeInstanceOf(WriteBudgetExceededError);
    expect(waits).toEqual([]);
  });

  it('stops when the head moved while it waited, writing nothing', async () => {
    const { retry } = harness({ stillCurrent: () => Promise.resolve(false) });
    const { write, tries } = failing(1, () => refusal(502));
    await expect(retryCommentWrite(write, retry)).resolves.toBe('skipped');
    expect(tries).toEqual([0]);
  });

  it('does not write when whether the head moved cannot be read: the first failure is thrown', async () => {
    const first = refusal(502);
    const { retry } = harness({ stillCurrent: () => Promise.reject(refusal(500)) });
    const { write, tries } = failing(1, () => first);
    await expect(retryCommentWrite(write, retry)).rejects.toBe(first);
    expect(tries).toEqual([0]);
  });
});
