import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { HEAD_SHA, POLICY_FILE, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Where a policy may stand and still not be read: through the real App over signed webhooks, a PR
 * that adds GPUs where a policy path of the base, of the organisation's `.github` repository or of
 * an `_extends` holds a plain directory, where the organisation's policy is spelt `.yaml`, is over
 * the size limit or is not text, or where only the PR's head carries a policy, fails (never neutral),
 * naming the file.
 */

const h = useApp();
const OWNER = EXAMPLE_REPO.owner;
const ORG = { owner: OWNER, repo: '.github' };
const SHARED = { owner: OWNER, repo: 'policies' };
const YAML_FILE = '.github/gpu-justify.yaml';
const ENFORCE = 'mode: enforce\n';

interface Shape {
  name: string;
  /** The base branch's own files beside the PR's (a policy among them, or what stands at its path). */
  base?: Record<string, string>;
  baseSpecial?: Record<string, FakeSpecial>;
  /** Files only the PR's head holds. */
  head?: Record<string, string>;
  arrange?: (repo: FakeRepo) => void;
  /** What the check must name. */
  names: string;
}

const shapes: Shape[] = [
  { name: 'the base policy path a plain directory', base: { [`${POLICY_FILE}/enforce.yml`]: ENFORCE }, names: POLICY_FILE },
  {
    name: 'the base policy path a plain directory, the other spelling a file',
    base: { [`${POLICY_FILE}/enforce.yml`]: ENFORCE, [YAML_FILE]: 'mode: advise\n' },
    names: POLICY_FILE,
  },
  { name: 'the second policy path a plain directory', base: { [`${YAML_FILE}/x.yml`]: ENFORCE }, names: YAML_FILE },
  {
    name: "the organisation's policy path a plain directory",
    arrange: (repo) => repo.addTree(ORG, 'HEAD', { [`${POLICY_FILE}/enforce.yml`]: ENFORCE }),
    names: `${OWNER}/.github:${POLICY_FILE}`,
  },
  {
    name: "the organisation's policy spelt .yaml",
    arrange: (repo) => repo.addTree(ORG, 'HEAD', { [YAML_FILE]: ENFORCE }),
    names: 'research',
  },
  {
    name: "the organisation's policy a submodule",
    arrange: (repo) =>
      repo.addTree(
        ORG,
        'HEAD',
        { 'README.md': '#\n' },
        { [POLICY_FILE]: { submodule: 'e'.repeat(40), url: 'https://github.com/x/y.git' } },
      ),
    names: `${OWNER}/.github:${POLICY_FILE}`,
  },
  {
    name: "the organisation's policy a link to a directory",
    arrange: (repo) => repo.addTree(ORG, 'HEAD', { 'config/p.yml': ENFORCE }, { [POLICY_FILE]: { link: '../config' } }),
    names: `${OWNER}/.github:${POLICY_FILE}`,
  },
  {
    name: "the organisation's policy over the size limit",
    arrange: (repo) => repo.addTree(ORG, 'HEAD', { [POLICY_FILE]: `mode: advise\n# ${'x'.repeat(1024 * 1024 + 10)}\n` }),
    names: `${OWNER}/.github:${POLICY_FILE}`,
  },
  {
    name: 'an _extends whose path is a plain directory',
    base: { [POLICY_FILE]: '_extends: policies\n' },
    arrange: (repo) => repo.addTree(SHARED, 'HEAD', { [`${POLICY_FILE}/enforce.yml`]: ENFORCE }),
    names: `${OWNER}/policies:${POLICY_FILE}`,
  },
  {
    name: 'an _extends over the size limit',
    base: { [POLICY_FILE]: '_extends: policies\n' },
    arrange: (repo) => repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: `mode: advise\n# ${'x'.repeat(1024 * 1024 + 10)}\n` }),
    names: `${OWNER}/policies:${POLICY_FILE}`,
  },
  {
    name: 'a policy on the head only, the organisation enforcing',
    head: { [POLICY_FILE]: 'mode: advise\n' },
    arrange: (repo) => repo.addTree(ORG, 'HEAD', { [POLICY_FILE]: ENFORCE }),
    names: 'research',
  },
];

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('a policy path that holds no readable policy fails a PR that adds GPUs', () => {
  it.each(shapes)('$name', async (s) => {
    const pr = pullRequest();
    Object.assign(pr.baseFiles, s.base ?? {});
    Object.assign(pr.headFiles, s.base ?? {}, s.head ?? {});
    if (s.baseSpecial) pr.baseSpecial = s.baseSpecial;
    const repo = new FakeRepo(h.fake, pr).serve();
    s.arrange?.(repo);
    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
      what: 'the review done',
      state: () => repo.checkRuns,
    });
    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.summary).toContain(s.names);
    expect(run?.output.title).not.toMatch(/could not run/);
  });
});
