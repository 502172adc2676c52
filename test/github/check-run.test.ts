import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANNOTATIONS_PER_REQUEST, CheckRun } from '../../src/github/publish/check-run.js';
import type { CheckAnnotation } from '../../src/report/check.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

const REPO = { owner: 'acme', repo: 'infra' };
const HEAD = '2'.repeat(40);

let fake: FakeGitHub;
let repo: FakeRepo;
beforeEach(async () => {
  fake = await FakeGitHub.start();
  repo = new FakeRepo(fake, { base: REPO, number: 1, baseSha: '1'.repeat(40), headSha: HEAD, baseFiles: {}, headFiles: {} }).serve();
});
afterEach(async () => {
  await fake.close();
  // The fake checks every body against GitHub's schema, which allows 50 annotations a request.
  expect(fake.errors).toEqual([]);
});

function annotations(n: number): CheckAnnotation[] {
  return Array.from({ length: n }, (_, i) => ({
    path: 'clusters/queues.yaml',
    start_line: i + 1,
    end_line: i + 1,
    annotation_level: 'warning' as const,
    message: `problem ${i + 1}`,
  }));
}

describe('CheckRun', () => {
  it('starts in progress on the head commit', async () => {
    await CheckRun.start(testOctokit(fake.url), REPO, HEAD);

    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ name: 'gpu-justify', head_sha: HEAD, status: 'in_progress' });
  });

  it.each([0, 1, 50])('sends %i annotations with the conclusion, in one request', async (n) => {
    const check = await CheckRun.start(testOctokit(fake.url), REPO, HEAD);

    await check.complete({ conclusion: 'failure', title: 'Not justified', summary: 'Stagger instead.', annotations: annotations(n) });

    const run = repo.checkRuns[0];
    expect(run?.history.slice(1)).toHaveLength(1);
    expect(run?.output.annotations).toEqual(annotations(n));
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run?.output).toMatchObject({ title: 'Not justified', summary: 'Stagger instead.' });
  });

  it.each([51, 120, 5200])('keeps the %i annotations to the 50 that matter most, in one request, and says how many more', async (n) => {
    const check = await CheckRun.start(testOctokit(fake.url), REPO, HEAD);
    // Every tenth one fails the check, every seventh is a warning, the rest notices.
    const mixed = annotations(n).map((a, i) => ({
      ...a,
      annotation_level: i % 10 === 9 ? ('failure' as const) : i % 7 === 6 ? ('warning' as const) : ('notice' as const),
    }));

    await check.complete({ conclusion: 'failure', title: 'Not justified', summary: 'Stagger instead.', annotations: mixed });

    const run = repo.checkRuns[0];
    // Created in progress, then one update: never one request per 50 annotations.
    expect(run?.history.slice(1)).toHaveLength(1);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    const kept = run?.output.annotations as CheckAnnotation[];
    expect(kept).toHaveLength(ANNOTATIONS_PER_REQUEST);
    const rank = { failure: 0, warning: 1, notice: 2 };
    const expected = mixed
      .map((a, i) => ({ a, i }))
      .sort((x, y) => rank[x.a.annotation_level] - rank[y.a.annotation_level] || x.i - y.i)
      .slice(0, ANNOTATIONS_PER_REQUEST)
      .sort((x, y) => x.i - y.i)
      .map((x) => x.a);
    expect(kept).toEqual(expected);
    expect(run?.output.summary).toMatch(new RegExp(`^Stagger instead\\.\\n\\n_${n - ANNOTATIONS_PER_REQUEST} more annotations? \\(`));
  });

  it('concludes again with another outcome, sending no annotation twice', async () => {
    const check = await CheckRun.start(testOctokit(fake.url), REPO, HEAD);
    await check.complete({ conclusion: 'failure', title: 'Not justified', summary: 'Stagger instead.', annotations: annotations(3) });

    await check.revise({ conclusion: 'success', title: 'Overridden', summary: 'By @lead.', text: 'details', annotations: annotations(3) });

    const run = repo.checkRuns[0];
    expect(run).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(run?.output).toMatchObject({ title: 'Overridden', summary: 'By @lead.', text: 'details' });
    expect(run?.output.annotations).toEqual(annotations(3));
    expect(run?.history.at(-1)).not.toHaveProperty('output.annotations');
  });

  it('clips a summary longer than GitHub accepts', async () => {
    const check = await CheckRun.start(testOctokit(fake.url), REPO, HEAD);

    await check.complete({ conclusion: 'neutral', title: 't', summary: 'x'.repeat(70_000), text: 'y'.repeat(70_000), annotations: [] });

    const summary = repo.checkRuns[0]?.output.summary ?? '';
    expect(summary.length).toBe(65_535);
    expect(summary.endsWith('(truncated)')).toBe(true);
  });
});
