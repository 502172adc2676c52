import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, stickyBody, reviewPush, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A grant covers what the approver saw, in shapes of push beyond content edits: through the real
 * App over signed webhooks, after a maintainer's override, a push that turns the overridden queue
 * file (or a file beside it) into something the review cannot read (a link out of the tree, to
 * nothing, a submodule, a directory link) lapses the grant; a grantor who left the team the policy
 * names no longer holds it up.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: admin\n  teams: [gpu-admins]\n';

async function granted(grantor = 'maintainer'): Promise<FakeRepo> {
  const pr = pullRequest({}, POLICY);
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.teams['gpu-admins'] = [grantor];
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: grantor, commentId: 901 }));
  return repo;
}

async function pushed(repo: FakeRepo, files: Record<string, string>, special: Record<string, FakeSpecial> = {}) {
  repo.push(NEWER_SHA, files, special);
  return reviewPush(h, repo);
}

function headWithout(repo: FakeRepo, path: string): Record<string, string> {
  const { [path]: _, ...rest } = repo.pr.headFiles;
  return { ...rest, 'README.md': '# infra, edited\n' };
}

interface Shape {
  name: string;
  files: (repo: FakeRepo) => Record<string, string>;
  special: Record<string, FakeSpecial>;
}

const lapsing: Shape[] = [
  {
    name: 'the queue file a link out of the tree',
    files: (r) => headWithout(r, QUEUE_FILE),
    special: { [QUEUE_FILE]: { link: '../../../q.yaml' } }, // hostile link target: data, never read
  },
  { name: 'the queue file a link to nothing', files: (r) => headWithout(r, QUEUE_FILE), special: { [QUEUE_FILE]: { link: 'gone.yaml' } } },
  {
    name: 'the queue file a submodule',
    files: (r) => headWithout(r, QUEUE_FILE),
    special: { [QUEUE_FILE]: { submodule: 'e'.repeat(40), url: 'https://github.com/x/q.git' } },
  },
  {
    name: 'a new link to a directory beside it',
    files: (r) => ({ ...headWithout(r, 'x'), 'common/q.yaml': clusterQueue(64).replace('name: research', 'name: shared') }),
    special: { 'clusters/prod/more': { link: '../../common' } },
  },
  {
    name: 'a new submodule beside it',
    files: (r) => headWithout(r, 'x'),
    special: { 'clusters/prod/vendor': { submodule: 'f'.repeat(40), url: 'https://github.com/x/q.git' } },
  },
  {
    name: 'the queue file a link to a larger queue',
    files: (r) => ({ ...headWithout(r, QUEUE_FILE), 'clusters/common/q.yaml': clusterQueue(40) }),
    special: { [QUEUE_FILE]: { link: '../common/q.yaml' } },
  },
];

describe('after an override, a push the review cannot read lapses it', () => {
  it.each(lapsing)('$name', async (s) => {
    const repo = await granted();
    const run = await pushed(repo, s.files(repo), s.special);
    expect(run?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });

  it('a grantor no longer on the team the policy names holds it no more', async () => {
    const repo = await granted('teamonly');
    repo.teams['gpu-admins'] = [];
    const run = await pushed(repo, headWithout(repo, 'x'));
    expect(run?.conclusion).toBe('failure');
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });
});
