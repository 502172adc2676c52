import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { HEAD_SHA, POLICY_FILE, commentEvent, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Every policy read goes through the one reader that fails closed. The review, an override
 * command and the check of a redelivered push each read the base branch's policy; through the real
 * App over signed webhooks, a base whose policy folder is no folder the contents API can follow
 * (a submodule, a link to a directory, a link out of the tree) makes the policy unread for the
 * command too: nobody may override under it, whatever their role, as the review says.
 */

const h = useApp();

const SHAPES: { name: string; special: Record<string, FakeSpecial>; extra?: Record<string, string> }[] = [
  { name: 'the policy folder a submodule', special: { '.github': { submodule: 'e'.repeat(40), url: 'https://github.com/x/y.git' } } },
  {
    name: 'the policy folder a link to a directory',
    special: { '.github': { link: 'config' } },
    extra: { 'config/gpu-justify.yml': 'mode: advise\noverrides:\n  minPermission: write\n' },
  },
  { name: 'the policy file a link out of the tree', special: { [POLICY_FILE]: { link: '../../../etc/policy.yml' } } }, // hostile link target: data, never read
  { name: 'the policy file a submodule', special: { [POLICY_FILE]: { submodule: 'f'.repeat(40), url: 'https://github.com/x/z.git' } } },
];

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
const replies = (repo: FakeRepo) => repo.comments.filter((c) => !c.body.includes(COMMENT_MARKER));

describe('a base policy only the tree can tell apart from none', () => {
  it.each(SHAPES)('$name: the review fails and nobody may override under it', async ({ special, extra }) => {
    const pr = pullRequest({});
    pr.baseSpecial = special;
    Object.assign(pr.baseFiles, extra ?? {});
    const repo = new FakeRepo(h.fake, pr).serve();
    repo.roles['maintainer'] = 'admin';

    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
      what: 'the review done',
      state: () => repo.checkRuns,
    });
    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override we need it', { login: 'maintainer', commentId: 811 }));
    await eventually(() => replies(repo).length > 0, { what: 'a reply to the command' });

    expect(replies(repo)[0]?.body).toContain('the override was not accepted: the policy could not be read whole');
    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
  });
});
