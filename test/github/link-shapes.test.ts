import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { PullRequestState } from '../helpers/fake-repo.js';
import { detectJson } from '../cli/detect-json.js';
import { commitAll, git, tempDir, writeFiles } from '../cli/tree-readers/helpers.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * The files a link may reach are there at both commits, unchanged: only the link is new, so a
 * wrong resolution shows as the queue file's count moving to 600 (or to nothing).
 *
 * Links of odd shapes at a capacity file's path, in the App's tree reader (through the real App
 * over HTTP against the fake GitHub) and the CLI's git-ref reader: to `/proc/self/…` spelt
 * absolute or climbing out, round a loop, a chain of 40 links, one leaving the tree and coming
 * back in by the checkout's folder name, and a `..` taken through a linked directory (where a
 * checkout goes to the parent of the link's target, not of the link). Each is read where a
 * checkout reads it, or is an error naming the file that fails in enforce mode: never the 600
 * GPUs a wrong resolution would reach, never the queue removed.
 */

const h = useApp();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Shape {
  name: string;
  files: Record<string, string>;
  links: Record<string, string>;
  /** The GPUs a checkout reads at the queue file's path, or null where it reads outside the tree or nothing. */
  checkout: number | null;
}

const chain = (n: number): Record<string, string> => {
  const links: Record<string, string> = { [QUEUE_FILE]: `l${n}.src` };
  for (let i = 1; i <= n; i++) links[`clusters/prod/l${i}.src`] = `l${i - 1}.src`;
  return links;
};

const SHAPES: Shape[] = [
  { name: 'a link to /proc/self/environ', files: {}, links: { [QUEUE_FILE]: '/proc/self/environ' }, checkout: null },
  // hostile link target: data, never read
  {
    name: 'a link climbing out to /proc/self',
    files: {},
    links: { [QUEUE_FILE]: '../../../../../../proc/self/cwd/q.yaml' }, // hostile link target: data, never read
    checkout: null,
  },
  { name: 'a link loop', files: {}, links: { [QUEUE_FILE]: 'b.src', 'clusters/prod/b.src': 'queues.yaml' }, checkout: null },
  { name: 'a chain of 40 links', files: { 'clusters/prod/l0.src': clusterQueue(600) }, links: chain(40), checkout: null },
  {
    name: 'a link leaving the tree and coming back by the folder name',
    files: { 'clusters/big.src': clusterQueue(600) },
    // hostile link target: data, never read
    links: { [QUEUE_FILE]: '../../../repo/clusters/big.src' }, // hostile link target: data, never read
    checkout: null,
  },
  {
    name: 'a `..` through a linked directory',
    files: { 'clusters/deep/q.yaml': clusterQueue(12), 'clusters/q.yaml': clusterQueue(600), 'clusters/deep/a/keep.txt': 'x\n' },
    links: { 'clusters/lnk': 'deep/a', [QUEUE_FILE]: '../lnk/../q.yaml' },
    checkout: 12,
  },
  {
    name: 'a chain whose second link takes `..` through a linked directory',
    files: { 'clusters/deep/q.yaml': clusterQueue(12), 'clusters/q.yaml': clusterQueue(600), 'clusters/deep/a/keep.txt': 'x\n' },
    links: { 'clusters/lnk': 'deep/a', [QUEUE_FILE]: 'hop.src', 'clusters/prod/hop.src': '../lnk/../q.yaml' },
    checkout: 12,
  },
  {
    name: 'a `..` through a folder below a linked directory',
    files: { 'clusters/deep/a/b/keep.txt': 'x\n', 'clusters/deep/q.yaml': clusterQueue(12), 'clusters/q.yaml': clusterQueue(600) },
    links: { 'clusters/lnk': 'deep/a', [QUEUE_FILE]: '../lnk/b/../../q.yaml' },
    checkout: 12,
  },
  {
    name: 'a `..` through a link to a linked directory',
    files: { 'clusters/deep/a/keep.txt': 'x\n', 'clusters/deep/q.yaml': clusterQueue(12), 'clusters/q.yaml': clusterQueue(600) },
    links: { 'clusters/lnk': 'lnk2', 'clusters/lnk2': 'deep/a', [QUEUE_FILE]: '../lnk/../q.yaml' },
    checkout: 12,
  },
  {
    name: 'a linked directory, then `..` twice',
    files: { 'clusters/deep/a/b/keep.txt': 'x\n', 'clusters/deep/q.yaml': clusterQueue(12), 'q.yaml': clusterQueue(600) },
    links: { 'clusters/lnk': 'deep/a/b', [QUEUE_FILE]: '../lnk/../../q.yaml' },
    checkout: 12,
  },
];

function shownOf(repo: FakeRepo): string {
  const check = repo.checkRuns.at(-1);
  const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
  return `${check?.output.title ?? ''}\n${check?.output.summary ?? ''}\n${check?.output.text ?? ''}\n${comment}`;
}

/**
 * The App's reader follows a link hop by hop through the contents API, and GitHub answers a link to
 * a file with the file its target reaches lexically; where a checkout's reading of a `..` parts from
 * that (through a linked directory), the reader tells it from the side's tree. On git refs the CLI
 * reads every link of the commit in one `git` call, so a chain of 40 is seconds, not minutes.
 */
describe('links of odd shapes, through the App', () => {
  it.each(SHAPES)(
    '$name: read as a checkout reads it, or named and failing',
    async (shape) => {
      const pr: PullRequestState = pullRequest({}, ENFORCE_POLICY);
      const { [QUEUE_FILE]: _, ...rest } = pr.headFiles;
      pr.baseFiles = { ...pr.baseFiles, ...shape.files };
      pr.headFiles = { ...rest, ...shape.files };
      pr.headSpecial = Object.fromEntries(Object.entries(shape.links).map(([p, target]) => [p, { link: target }]));
      const repo = new FakeRepo(h.fake, pr).serve();
      expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
      await vi.waitFor(() => expect(repo.checkRuns.at(-1)?.status).toBe('completed'), { timeout: 30_000, interval: 50 });
      const shown = shownOf(repo);
      expect(shown).not.toMatch(/6 → 600|6 → 0\b/);
      if (shape.checkout === null || !shown.includes(`6 → ${shape.checkout}`)) {
        expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
        expect(shown).toContain(QUEUE_FILE);
        expect(shown).toMatch(/symbolic link|not followed/);
      }
    },
    150_000,
  );
});

describe('links of odd shapes, through the CLI on git refs', () => {
  it.each(SHAPES)(
    '$name: read as a checkout reads it, or an error on the file',
    async (shape) => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      const dir = join(tmp.path, 'repo');
      await mkdir(dir, { recursive: true });
      git(dir, 'init', '-q');
      await writeFiles(dir, { [QUEUE_FILE]: clusterQueue(6), ...shape.files });
      const base = commitAll(dir, 'base');
      await rm(join(dir, QUEUE_FILE));
      for (const [path, target] of Object.entries(shape.links)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await symlink(target, join(dir, path));
      }
      const head = commitAll(dir, 'head');
      // Each git the CLI runs, by git's own trace: a call per link of a chain took minutes.
      const trace = join(tmp.path, 'git-trace');
      vi.stubEnv('GIT_TRACE', trace);
      const { json } = await detectJson('--repo', dir, '--base', base, '--head', head).finally(() => vi.unstubAllEnvs());
      const gitRuns = (await readFile(trace, 'utf8').catch(() => '')).split('\n').filter((l) => l.includes('built-in: git ')).length;
      expect(gitRuns).toBeLessThan(30);
      const changed = json.changes.filter((c) => c.gpusAfter !== c.gpusBefore);
      expect(changed.some((c) => c.gpusAfter === 600 || c.gpusAfter === 0)).toBe(false);
      if (shape.checkout !== null && changed.some((c) => c.gpusAfter === shape.checkout)) return;
      expect(json.diagnostics.some((d) => d.file === QUEUE_FILE && d.severity === 'error')).toBe(true);
      expect(json.coverage.find((c) => c.file === QUEUE_FILE)?.state).toBe('not-followed');
    },
    150_000,
  );
});
