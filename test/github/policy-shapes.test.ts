import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { POLICY_FILE, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * A policy that cannot be read whole is not "no policy", in shapes beyond a missing inherited file:
 * through the real App over signed webhooks, a PR that adds GPUs under a base-branch policy that is
 * a link, a submodule, over the size limit, mistyped, duplicated, an alias bomb, or whose inherited
 * chain breaks in the middle or is rate limited, fails (never neutral, never success).
 */

const h = useApp();
const OWNER = EXAMPLE_REPO.owner;
const ENFORCE = 'mode: enforce\n';

interface Shape {
  name: string;
  /** The base branch's policy file, or null when `special` stands in its place. */
  policy: string | null;
  special?: Record<string, FakeSpecial>;
  extra?: Record<string, string>;
  arrange?: (repo: FakeRepo) => void;
  /** Read whole (a link to a file in the tree is read as that file): enforce applies, no error. */
  readable?: true;
}

const bomb = (levels: number): string => {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\nmode: advise\n`;
};

const shapes: Shape[] = [
  { name: 'mode in capitals', policy: 'mode: ENFORCE\n' },
  { name: 'mode with a trailing space', policy: 'mode: "enforce "\n' },
  { name: 'mode quoted with a tab', policy: 'mode: "enforce\\t"\n' },
  { name: 'mode as a list', policy: 'mode: [enforce]\n' },
  { name: 'a duplicate mode key', policy: 'mode: enforce\nmode: advise\n' },
  { name: 'a YAML alias bomb', policy: bomb(9) },
  { name: 'a merge-key bomb', policy: 'base: &b {mode: enforce}\nother:\n  <<: *b\nmode: advise\n<<: *b\n' },
  { name: 'over the size limit', policy: `mode: enforce\n# ${'x'.repeat(1024 * 1024 + 10)}\n` },
  { name: 'invalid UTF-8 in the mode', policy: 'mode: enf\udcffrce\n' },
  { name: 'a byte-order mark and CRLF', policy: '\ufeffmode: advise\r\nheadroom: 2\r\n' },
  {
    name: 'a link to a policy in the tree',
    policy: null,
    special: { [POLICY_FILE]: { link: '../config/policy.yml' } },
    extra: { 'config/policy.yml': ENFORCE },
    readable: true,
  },
  { name: 'a link out of the tree', policy: null, special: { [POLICY_FILE]: { link: '../../../etc/policy.yml' } } }, // hostile link target: data, never read
  { name: 'a link to nothing', policy: null, special: { [POLICY_FILE]: { link: 'missing.yml' } } },
  { name: 'a link loop', policy: null, special: { [POLICY_FILE]: { link: 'b.yml' }, '.github/b.yml': { link: 'gpu-justify.yml' } } },
  { name: 'a submodule', policy: null, special: { [POLICY_FILE]: { submodule: 'e'.repeat(40), url: 'https://github.com/x/y.git' } } },
  {
    name: 'a link to a directory',
    policy: null,
    special: { [POLICY_FILE]: { link: '../config' } },
    extra: { 'config/policy.yml': ENFORCE },
  },
  {
    name: 'an _extends chain of three whose middle is unread',
    policy: '_extends: p1\nheadroom: 0.2\n',
    arrange: (repo) => {
      repo.addTree({ owner: OWNER, repo: 'p1' }, 'HEAD', { [POLICY_FILE]: '_extends: p2\n' });
      repo.addTree({ owner: OWNER, repo: 'p3' }, 'HEAD', { [POLICY_FILE]: ENFORCE });
    },
  },
  {
    name: 'an _extends to a path that is a link in the shared repository',
    policy: '_extends: p1:policy/gpu.yml\n',
    arrange: (repo) =>
      repo.addTree({ owner: OWNER, repo: 'p1' }, 'HEAD', { 'README.md': '#\n' }, { 'policy/gpu.yml': { link: '../../x/gpu.yml' } }),
  },
  {
    name: 'an _extends rate limited (secondary limit, 403)',
    policy: '_extends: p1\n',
    arrange: (repo) => {
      repo.addTree({ owner: OWNER, repo: 'p1' }, 'HEAD', { [POLICY_FILE]: ENFORCE });
      const body = { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' };
      h.fake.fail('POST', '/graphql', { status: 403, body, headers: { 'retry-after': '1' } }, 20);
      h.fake.fail('GET', `/repos/${OWNER}/p1/contents/${POLICY_FILE}`, { status: 403, body, headers: { 'retry-after': '1' } }, 20);
    },
  },
  {
    name: 'an _extends rate limited (429)',
    policy: '_extends: p1\n',
    arrange: (repo) => {
      repo.addTree({ owner: OWNER, repo: 'p1' }, 'HEAD', { [POLICY_FILE]: ENFORCE });
      h.fake.fail('POST', '/graphql', { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '1' } }, 20);
      h.fake.fail(
        'GET',
        `/repos/${OWNER}/p1/contents/${POLICY_FILE}`,
        { status: 429, body: { message: 'slow' }, headers: { 'retry-after': '1' } },
        20,
      );
    },
  },
  { name: 'an _extends that is an empty string', policy: '_extends: ""\n' },
  { name: 'an _extends to a path with ..', policy: '_extends: p1:../secrets.yml\n' },
];

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('a base policy the App cannot read whole fails a PR that adds GPUs', () => {
  it.each(shapes)('$name', async (s) => {
    const pr = pullRequest({}, s.policy ?? undefined);
    Object.assign(pr.baseFiles, s.extra ?? {});
    Object.assign(pr.headFiles, s.extra ?? {});
    if (s.special) pr.baseSpecial = s.special;
    const repo = new FakeRepo(h.fake, pr).serve();
    s.arrange?.(repo);
    await h.app.deliver('pull_request', prEvent());
    await eventually(
      () => {
        const last = repo.checkRuns.at(-1);
        return last?.status === 'completed';
      },
      { what: 'the review done', state: () => repo.checkRuns },
    );
    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('failure');
    if (s.readable) return;
    expect(run?.output.summary).toMatch(/policy is (invalid|not known)/);
    if (s.policy === null || s.name.includes('size')) {
      // Present but no file the App can read: the policy is unread, never "none", and never a review that stops.
      expect(run?.output.summary).toContain(POLICY_FILE);
      expect(run?.output.title).not.toMatch(/could not run/);
      expect(ours(repo)).toContain('the policy is not known');
    }
  });
});
