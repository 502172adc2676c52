import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GRAPHQL_WHOLE_BYTES, MAX_ANSWER_BYTES } from '../../src/github/api/graphql-sizes.js';
import { analysePullRequest } from '../../src/github/review-pull-request.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { testOctokit } from '../helpers/octokit.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { BASE_SHA, ENFORCE_POLICY, HEAD_SHA, NUMBER, prEvent, pullRequest, useApp } from './app-harness.js';
import { clusterQueue } from './scenarios.js';

/**
 * A pull request of many files each just under GitHub's size limits: bounded per file, it would
 * be read whole however many there are. The review reads changed files up to its budget of bytes;
 * every file past it is an error naming the budget, and the review concludes.
 */

const h = useApp();
const target = { base: EXAMPLE_REPO, head: EXAMPLE_REPO, number: NUMBER, baseSha: BASE_SHA, headSha: HEAD_SHA };
const env = { ...process.env };
const BUDGET_MB = 2;
const MiB = 1024 * 1024;

beforeEach(() => {
  process.env['GPU_JUSTIFY_REVIEW_READ_MB'] = String(BUDGET_MB);
});
afterEach(() => {
  process.env = { ...env };
});

/** A queue padded by a comment to `bytes`: each passes the cheap check, so each would be parsed. */
function paddedQueue(gpus: number, bytes: number): string {
  const queue = clusterQueue(gpus).replace('name: research', `name: q${gpus}`);
  return `${queue}# ${'x'.repeat(bytes - Buffer.byteLength(queue) - 3)}\n`;
}

/** `count` new queue files, each of `bytes`, in a pull request that changes nothing else. */
function manyLargeFiles(count: number, bytes: number, policy?: string) {
  const added = Object.fromEntries(Array.from({ length: count }, (_, i) => [`queues/q${i}.yaml`, paddedQueue(i + 1, bytes)]));
  const s = pullRequest({}, policy);
  return { ...s, headFiles: { ...s.baseFiles, ...added }, added: Object.keys(added) };
}

const PAST_BUDGET = `past this review's read budget of ${BUDGET_MB} MB (GPU_JUSTIFY_REVIEW_READ_MB)`;

describe("a review's read budget", () => {
  // Each just under what GraphQL serves whole (a query of 250 of them answers 128 MB), and each
  // just under a megabyte (read through REST): neither reaches a file's size limit.
  for (const bytes of [GRAPHQL_WHOLE_BYTES - 100, MiB - 100]) {
    it(`reads ${bytes.toLocaleString('en-US')}-byte files up to it, and names every file past it as not read`, async () => {
      const s = manyLargeFiles(BUDGET_MB * 6, bytes);
      new FakeRepo(h.fake, s).serve();

      const { result } = await analysePullRequest(testOctokit(h.fake.url), target);

      const past = result.diagnostics.filter((d) => d.message.includes(PAST_BUDGET));
      const read = s.added.filter((f) => !past.some((d) => d.file === f));
      // What fits in the budget is read; no file past the first refusal is.
      expect(read.length).toBe(Math.floor((BUDGET_MB * MiB) / bytes));
      expect(past.map((d) => d.file).sort()).toEqual(s.added.filter((f) => !read.includes(f)).sort());
      expect(past.every((d) => d.severity === 'error')).toBe(true);
      expect(result.verdict).toBe('insufficient-evidence');
      // Bytes the fake served of the files, GraphQL's answers and REST's (base64): the budget and a
      // file more, never all of them; and no answer the App's thread parses is over
      // MAX_ANSWER_BYTES. (The file list's diffs are GitHub's to cut, per file.)
      const served = h.fake.requests.filter((r) => !r.path.endsWith('/files')).reduce((sum, r) => sum + r.bytesSent, 0);
      expect(served).toBeLessThan(BUDGET_MB * MiB + 3 * bytes);
      const answers = h.fake.calls('POST', '/graphql').map((r) => r.bytesSent);
      expect(Math.max(...answers)).toBeLessThan(MAX_ANSWER_BYTES + 64 * 1024);
    }, 120_000);
  }

  it('fails the check in enforce mode through the App, naming the budget, and still concludes', async () => {
    const s = manyLargeFiles(8, MiB - 100, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, s).serve();

    expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed', { what: 'the check concluded', timeoutMs: 60_000 });

    const check = repo.checkRuns.at(-1);
    expect(check?.conclusion).toBe('failure');
    expect(JSON.stringify(check?.output)).toContain('read budget of 2 MB');
  }, 120_000);
});
