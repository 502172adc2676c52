import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, stickyBody, reviewPush, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A grant covers what the approver saw when the ground moves under it: through the real App over
 * signed webhooks, after a maintainer's override, a grantor whose permission fell below the
 * policy's holds it no more; the base branch moving under the PR so that the same head asks for
 * more than the approver saw lapses it; a push with the same diff keeps it.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: maintain\n';
const OTHER_BASE = 'e'.repeat(40);

async function granted(): Promise<FakeRepo> {
  const pr = pullRequest({}, POLICY);
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.roles['maintainer'] = 'maintain';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  return repo;
}

async function reviewedAt(repo: FakeRepo, sha: string) {
  return reviewPush(h, repo, { sha, baseSha: repo.pr.baseSha, linked: true });
}

describe('a grant when the ground moves under it', () => {
  it('a grantor whose permission fell to write holds it no more', async () => {
    const repo = await granted();
    repo.roles['maintainer'] = 'write';
    repo.push(NEWER_SHA, { ...repo.pr.headFiles, 'README.md': '# infra, edited\n' });
    const run = await reviewedAt(repo, NEWER_SHA);
    expect(run?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });

  it('the base lowered under the PR: the same head asks for more than was granted', async () => {
    const repo = await granted();
    repo.pr.baseSha = OTHER_BASE;
    repo.pr.baseFiles = { ...repo.pr.baseFiles, [QUEUE_FILE]: clusterQueue(2) };
    repo.addTree(repo.pr.base, OTHER_BASE, repo.pr.baseFiles);
    repo.push(NEWER_SHA, { ...repo.pr.headFiles, 'README.md': '# infra, edited\n' });
    const run = await reviewedAt(repo, NEWER_SHA);
    expect(run?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });

  it('a push with the same diff keeps it', async () => {
    const repo = await granted();
    repo.push(NEWER_SHA, { ...repo.pr.headFiles });
    const run = await reviewedAt(repo, NEWER_SHA);
    expect(run?.conclusion).toBe('success');
    expect(stickyBody(repo)).toContain('gpu-justify:override');
  });
});
