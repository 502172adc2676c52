import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANNOTATIONS_PER_REQUEST, CheckRun } from '../../src/github/check-run.js';
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

  it.each([0, 1, 50, 51, 120])('sends %i annotations at most 50 a request, concluding last', async (n) => {
    const check = await CheckRun.start(testOctokit(fake.url), REPO, HEAD);

    await check.complete({ conclusion: 'failure', title: 'Not justified', summary: 'Stagger instead.', annotations: annotations(n) });

    const run = repo.checkRuns[0];
    const updates = run?.history.slice(1) ?? [];
    expect(updates).toHaveLength(Math.max(1, Math.ceil(n / ANNOTATIONS_PER_REQUEST)));
    // Only the last update concludes, so a completed run already shows every annotation.
    expect(updates.map((u) => u.conclusion ?? null)).toEqual([...updates.slice(1).map(() => null), 'failure']);
    expect(run?.output.annotations).toEqual(annotations(n));
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run?.output).toMatchObject({ title: 'Not justified', summary: 'Stagger instead.' });
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
