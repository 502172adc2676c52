import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { HEAD_SHA, POLICY_FILE, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * An inherited policy (the organisation's `.github` repository, an `_extends` target) read through
 * a link whose `..` climbs out of a linked directory: GitHub takes that `..` lexically and answers
 * with a file a checkout would never reach. Through the real App over signed webhooks, the review
 * reads such a link as a checkout would or names it unread, never the file GitHub's reading
 * reaches: a PR that adds GPUs fails, naming the file, and is never judged by the lexical file's
 * `mode: advise`.
 */

const h = useApp();
const OWNER = EXAMPLE_REPO.owner;
const ORG = { owner: OWNER, repo: '.github' };
const SHARED = { owner: OWNER, repo: 'policies' };
const ENFORCE = 'mode: enforce\n';
const ADVISE = 'mode: advise\n';

interface Layout {
  name: string;
  /** The regular files of the inherited repository's default branch. */
  files: Record<string, string>;
  links: Record<string, string>;
}

/**
 * Layouts where the lexical reading of the policy link reaches an advising file, and a checkout's
 * reading an enforcing one (or nothing a checkout can read).
 */
function layouts(policyPath: string): Layout[] {
  const up = '../'.repeat(policyPath.split('/').length - 1);
  return [
    {
      name: 'a `..` through a linked directory',
      files: { 'p.yml': ADVISE, 'deep/p.yml': ENFORCE, 'deep/a/keep.txt': 'x\n' },
      links: { lnk: 'deep/a', [policyPath]: `${up}lnk/../p.yml` },
    },
    {
      name: 'a `..` through a folder below a linked directory',
      files: { 'p.yml': ADVISE, 'deep/p.yml': ENFORCE, 'deep/a/b/keep.txt': 'x\n' },
      links: { lnk: 'deep/a', [policyPath]: `${up}lnk/b/../../p.yml` },
    },
    {
      name: 'a `..` through a link to a linked directory',
      files: { 'p.yml': ADVISE, 'deep/p.yml': ENFORCE, 'deep/a/keep.txt': 'x\n' },
      links: { lnk: 'lnk2', lnk2: 'deep/a', [policyPath]: `${up}lnk/../p.yml` },
    },
    {
      name: 'a chain whose second link takes `..` through a linked directory',
      files: { 'p.yml': ADVISE, 'deep/p.yml': ENFORCE, 'deep/a/keep.txt': 'x\n' },
      links: { lnk: 'deep/a', [policyPath]: `${up}hop.yml`, 'hop.yml': 'lnk/../p.yml' },
    },
    {
      name: 'a linked directory, then `..` twice',
      files: { 'p.yml': ADVISE, 'deep/p.yml': ENFORCE, 'deep/a/b/keep.txt': 'x\n' },
      links: { lnk: 'deep/a/b', [policyPath]: `${up}lnk/../../p.yml` },
    },
  ];
}

const places: { name: string; repo: typeof ORG; base: Record<string, string>; label: string }[] = [
  { name: "the organisation's .github", repo: ORG, base: {}, label: `${OWNER}/.github:${POLICY_FILE}` },
  { name: 'an _extends target', repo: SHARED, base: { [POLICY_FILE]: '_extends: policies\n' }, label: `${OWNER}/policies:${POLICY_FILE}` },
];

const cases = places.flatMap((place) =>
  layouts(POLICY_FILE).map((layout) => ({ ...layout, place, title: `${place.name}: ${layout.name}` })),
);

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('an inherited policy behind a link whose `..` leaves a linked directory', () => {
  it.each(cases)(
    '$title: fails a PR that adds GPUs, naming the file',
    async ({ place, files, links }) => {
      const pr = pullRequest();
      Object.assign(pr.baseFiles, place.base);
      Object.assign(pr.headFiles, place.base);
      const repo = new FakeRepo(h.fake, pr).serve();
      const special: Record<string, FakeSpecial> = Object.fromEntries(Object.entries(links).map(([p, target]) => [p, { link: target }]));
      repo.addTree(place.repo, 'HEAD', files, special);
      await h.app.deliver('pull_request', prEvent());
      await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
        what: 'the review done',
        state: () => repo.checkRuns,
      });
      const run = repo.checkRuns.at(-1);
      expect(run?.conclusion).toBe('failure');
      expect(run?.output.summary).toContain(place.label);
      expect(`${run?.output.summary ?? ''}\n${ours(repo)}`).toMatch(/symbolic link|linked directory|`\.\.`/);
    },
    60_000,
  );

  it('a link GitHub and a checkout read alike still gives its policy', async () => {
    const pr = pullRequest();
    const repo = new FakeRepo(h.fake, pr).serve();
    repo.addTree(ORG, 'HEAD', { 'shared/p.yml': ADVISE }, { [POLICY_FILE]: { link: '../shared/p.yml' } }); // fixture path: data, never read
    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
      what: 'the review done',
      state: () => repo.checkRuns,
    });
    expect(repo.checkRuns.at(-1)?.conclusion).toBe('neutral');
  }, 60_000);
});
