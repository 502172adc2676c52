import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { HEAD_SHA, NEWER_SHA, commentEvent, failThenOverride, prEvent, pullRequest, stickyBody, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A grant covers what the approver saw, through pushes that come back to it: through the real App
 * over signed webhooks, after a maintainer's override, a push that lapses it and a force-push back
 * to the granted commit is a new push, reviewed again (never answered by the granted commit's old
 * check, as a redelivery would be); the queue file grown past the size limit with the same queue,
 * or renamed with the same content (a change at a file the approver did not see), lapses it.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: admin\n';
const THIRD_SHA = 'e'.repeat(40);

async function granted(): Promise<FakeRepo> {
  const repo = new FakeRepo(h.fake, pullRequest({}, POLICY)).serve();
  repo.roles['maintainer'] = 'admin';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 921 }));
  return repo;
}

async function pushed(repo: FakeRepo, sha: string, files: Record<string, string>, before: number) {
  const from = repo.pr.headSha;
  repo.push(sha, files);
  await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: sha, before: from }));
  await eventually(
    () => repo.checkRuns.length > before && repo.checkRuns.filter((r) => r.head_sha === sha).at(-1)?.status === 'completed',
    {
      what: `the review of ${sha.slice(0, 7)}`,
      state: () => repo.checkRuns,
    },
  );
  return repo.checkRuns.filter((r) => r.head_sha === sha).at(-1);
}

describe('after an override, pushes that come back to it', () => {
  it('a force-push back to the granted commit after a lapse is reviewed again, not answered by its old check', async () => {
    const repo = await granted();
    const grantedFiles = { ...repo.pr.headFiles };
    const grown = await pushed(repo, NEWER_SHA, { ...grantedFiles, [QUEUE_FILE]: clusterQueue(20) }, repo.checkRuns.length);
    expect(grown?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');

    const runsBefore = repo.checkRuns.length;
    const back = await pushed(repo, HEAD_SHA, grantedFiles, runsBefore);
    // Reviewed again: a new check run on the granted commit, and our comment speaks of it.
    expect(repo.checkRuns.length).toBeGreaterThan(runsBefore);
    expect(back?.status).toBe('completed');
    // The grant lapsed at the push that grew the queue; coming back does not restore it unasked.
    expect(back?.conclusion).toBe('failure');
    await eventually(() => stickyBody(repo).includes(`blob/${HEAD_SHA}`), { what: 'the comment about the commit back' });
  });

  it('the queue file grown past the size limit, same queue, lapses it', async () => {
    const repo = await granted();
    const padded = `${clusterQueue(12)}# ${'x'.repeat(1024 * 1024 + 16)}\n`;
    const run = await pushed(repo, NEWER_SHA, { ...repo.pr.headFiles, [QUEUE_FILE]: padded }, repo.checkRuns.length);
    expect(run?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });

  it('the queue file renamed with the same content lapses it: a change at a file the approver did not see', async () => {
    const repo = await granted();
    const { [QUEUE_FILE]: queue, ...rest } = repo.pr.headFiles;
    const renamed = 'clusters/prod/queues-renamed.yaml';
    repo.pr.renames = { [renamed]: QUEUE_FILE };
    const run = await pushed(repo, NEWER_SHA, { ...rest, [renamed]: queue ?? '' }, repo.checkRuns.length);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).toMatch(/^Override lapsed/);
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });

  it('a third push keeping the granted state after a lapse grants nothing by itself', async () => {
    const repo = await granted();
    const grantedFiles = { ...repo.pr.headFiles };
    await pushed(repo, NEWER_SHA, { ...grantedFiles, [QUEUE_FILE]: clusterQueue(20) }, repo.checkRuns.length);
    const run = await pushed(repo, THIRD_SHA, { ...grantedFiles, 'README.md': '# infra, edited\n' }, repo.checkRuns.length);
    expect(run?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });
});
