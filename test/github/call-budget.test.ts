import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bigPr, gpuPr, nonGpuPr } from '../../bench/app/scenarios.js';
import type { AppScenario } from '../../bench/app/scenarios.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeRequest } from '../helpers/fake-github.js';
import { pullRequestPayload } from '../helpers/payloads.js';
import { INSTALLATION, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * What one first review costs GitHub, counted at the fake: every call, and the writes among
 * them. A change that adds a call or a write to these reviews fails here. Each job reads the
 * pull request once as it starts (which head to review: the newest, whatever the events said).
 */

const h = useApp();
/** The installation token and the App's own login (asked once per process) aside. */
const calls = (): string[] =>
  h.fake.requests
    .filter((r) => !r.path.endsWith('/access_tokens') && r.path !== '/app')
    .map((r: FakeRequest) => `${r.method} ${(r.operation ?? r.path).replace('/repos/{owner}/{repo}', '')}`);
const writes = (): string[] => calls().filter((c) => !c.startsWith('GET ') && c !== 'POST /graphql');

/** One review to its end: on a loaded machine a cold review can outlast the webhook's answer (202). */
async function review(s: AppScenario): Promise<FakeRepo> {
  const repo = new FakeRepo(h.fake, s.pr).serve();
  const { number, baseSha, headSha } = s.pr;
  const res = await h.app.deliver(
    'pull_request',
    pullRequestPayload({ action: 'opened', installationId: INSTALLATION, number, baseSha, headSha, changedFiles: s.changedFiles }),
  );
  expect([200, 202]).toContain(res.status);
  const done = () => repo.checkRuns[0]?.status === 'completed' && (s.gpuFiles.length === 0 || repo.reviews.length > 0);
  await eventually(done, { what: 'the check concluded and the review posted', timeoutMs: 30_000, state: () => repo.checkRuns });
  return repo;
}

describe('a first review, its verdict in before the check is due in progress', () => {
  // However loaded the machine, these reviews take the one-write path.
  beforeEach(() => vi.stubEnv('GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS', '600'));
  afterEach(() => vi.unstubAllEnvs());

  it('of a one-queue GPU PR makes 10 calls, 3 of them writes, and lists the head tree once', async () => {
    const repo = await review(gpuPr(21));

    expect(calls().sort()).toEqual(
      [
        // The job's read of the pull request: its current head.
        'GET /pulls/{pull_number}',
        'GET /pulls/{pull_number}/files',
        // The head's links, any of which may lead to a changed file: one recursive listing.
        'GET /git/trees/{tree_sha}',
        'GET /issues/{issue_number}/comments',
        'POST /graphql',
        'GET /pulls/{pull_number}',
        'POST /check-runs',
        'POST /issues/{issue_number}/comments',
        // The check after creating, for a copy another replica created at the same moment.
        'GET /issues/{issue_number}/comments',
        'POST /pulls/{pull_number}/reviews',
      ].sort(),
    );
    expect(writes()).toHaveLength(3);
    // Created already concluded: one request, never in progress.
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]?.history).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(repo.comments).toHaveLength(1);
    expect(repo.reviewComments).toHaveLength(1);
  });

  it('of a 250-file PR makes at most 14 calls, 3 of them writes, its file list in one round trip', async () => {
    // Every answer a moment late, as over a network: pages asked together all arrive before it.
    h.fake.delay = () => 300;
    await review(bigPr(22));

    // One of them the blobs' sizes, asked before their text (graphql-sizes.ts).
    expect(calls().length).toBeLessThanOrEqual(14);
    expect(writes()).toEqual(['POST /check-runs', 'POST /issues/{issue_number}/comments', 'POST /pulls/{pull_number}/reviews']);
    expect(calls().filter((c) => c.startsWith('GET /git/trees'))).toEqual(['GET /git/trees/{tree_sha}']);
    // Its three pages asked together: each sent before any was answered.
    const pages = h.fake.calls('GET', /\/pulls\/\d+\/files$/);
    expect(pages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(Math.max(...pages.map((r) => r.arrivedAt))).toBeLessThan(Math.min(...pages.map((r) => r.answeredAt ?? Infinity)));
  });

  it('of a PR with no GPU change makes 6 calls: the check its one write, the pull request read once, by the job', async () => {
    const repo = await review(nonGpuPr(23));

    expect(calls().sort()).toEqual(
      [
        'GET /pulls/{pull_number}',
        'GET /pulls/{pull_number}/files',
        'GET /git/trees/{tree_sha}',
        'GET /issues/{issue_number}/comments',
        'POST /graphql',
        'POST /check-runs',
      ].sort(),
    );
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(repo.comments).toEqual([]);
  });
});

describe('a review still running when the check is due', () => {
  beforeEach(() => vi.stubEnv('GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS', '0.001'));
  afterEach(() => vi.unstubAllEnvs());

  it('creates the check in progress first, then concludes it', async () => {
    const repo = await review(gpuPr(24));

    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]?.history[0]).toMatchObject({ status: 'in_progress' });
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(writes()).toEqual([
      'POST /check-runs',
      'PATCH /check-runs/{check_run_id}',
      'POST /issues/{issue_number}/comments',
      'POST /pulls/{pull_number}/reviews',
    ]);
  });
});
