import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { detectJson, expectUnreadable } from './detect-json.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * What is not a file, on real git repositories: a path that becomes a submodule (mode 160000), a
 * submodule added or moved to another commit, a file over the size limit, a renamed file. Each is
 * read, or an error on its own file; never the queue removed, never "no GPU change".
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function repo(files: Record<string, string> = {}): Promise<string> {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  git(tmp.path, 'init', '-q');
  await writeFiles(tmp.path, files);
  return tmp.path;
}

/** A repository whose one commit declares a 400-GPU queue: what a submodule brings in. */
async function quotaRepo(): Promise<string> {
  const dir = await repo({ 'queues.yaml': clusterQueue(400) });
  commitAll(dir, 'quotas');
  return dir;
}

/** Adds `other` as a submodule at `path`, as `git submodule add` does (a local URL). */
function addSubmodule(dir: string, other: string, path: string): void {
  git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', other, path);
}

describe('git submodules, through the CLI', () => {
  it('a capacity file replaced by a submodule is an error on its path, never the queue removed', async () => {
    const other = await quotaRepo();
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    git(dir, 'rm', '-q', QUEUE_FILE);
    addSubmodule(dir, other, QUEUE_FILE);
    const head = commitAll(dir, 'head');
    expect(git(dir, 'ls-tree', head, QUEUE_FILE)).toMatch(/^160000 commit /);

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expectUnreadable(json, QUEUE_FILE, /a git submodule \(at commit [0-9a-f]{12}\): its files belong to another repository/);
  });

  it('a new submodule, whatever its name, is an error on its path', async () => {
    const other = await quotaRepo();
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    addSubmodule(dir, other, 'clusters/prod/vendor-quotas');
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expectUnreadable(json, 'clusters/prod/vendor-quotas', /a git submodule/);
    expect(json.changes).toEqual([]);
  });

  it('a submodule moved to another commit is an error on its path', async () => {
    const other = await quotaRepo();
    const dir = await repo({ 'README.md': 'infra\n' });
    addSubmodule(dir, other, 'vendor/quotas');
    const base = commitAll(dir, 'base');
    await writeFiles(other, { 'queues.yaml': clusterQueue(800) });
    const moved = commitAll(other, 'more');
    git(join(dir, 'vendor/quotas'), 'fetch', '-q', 'origin');
    git(join(dir, 'vendor/quotas'), 'checkout', '-q', moved);
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expectUnreadable(json, 'vendor/quotas', new RegExp(`a git submodule \\(at commit ${moved.slice(0, 12)}\\)`));
  });

  it('a kustomization that reads a file inside a submodule: the read is an error on that file', async () => {
    const dir = await repo({ 'README.md': 'infra\n' });
    // A gitlink with no .gitmodules entry, as `git update-index` makes it: the tree is all that counts.
    const commit = commitAll(dir, 'base');
    git(dir, 'update-index', '--add', '--cacheinfo', `160000,${commit},clusters/prod/quotas`);
    git(dir, 'commit', '-q', '-m', 'gitlink');
    const base = git(dir, 'rev-parse', 'HEAD').trim();
    await writeFiles(dir, { 'clusters/prod/kustomization.yaml': 'resources:\n  - quotas/queues.yaml\n' });
    // Added alone: `git add -A` would drop a gitlink that no checkout backs.
    git(dir, 'add', 'clusters/prod/kustomization.yaml');
    git(dir, 'commit', '-q', '-m', 'head');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    expect(git(dir, 'ls-tree', '-r', head)).toMatch(/^160000 commit [0-9a-f]+\tclusters\/prod\/quotas$/m);

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    const errors = json.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.file, d.message])).toContainEqual([
      'clusters/prod/quotas/queues.yaml',
      expect.stringMatching(/^in clusters\/prod\/quotas, a git submodule/),
    ]);
  });
});

describe('files over the size limit, through the CLI', () => {
  const PAD = `# ${'x'.repeat(78)}\n`.repeat(14_000); // 1.1 MB of comments

  it.each([
    ['after the padding', (q: string) => `${PAD}${q}`],
    ['before the padding', (q: string) => `${q}${PAD}`],
  ])('a queue file padded over the limit, its queue %s, is an error on its file', async (_where, pad) => {
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    await writeFiles(dir, { [QUEUE_FILE]: pad(clusterQueue(12)) });
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expectUnreadable(json, QUEUE_FILE, /over the 1\.0 MB gpu-justify reads: its GPU capacity was not checked/);
  });

  it('a new file over the limit is an error on its file, whatever its start shows', async () => {
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    await writeFiles(dir, { 'clusters/prod/generated.yaml': `${PAD}${clusterQueue(400).replace('research', 'hidden')}` });
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expectUnreadable(json, 'clusters/prod/generated.yaml', /over the 1\.0 MB/);
  });
});

describe('files only the floor reads, over the size limit, through the CLI', () => {
  it('a Pulumi program over the limit is an error on its file, as the App reports it, whatever it names', async () => {
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    const pad = `// ${'x'.repeat(78)}\n`.repeat(14_000);
    await writeFiles(dir, { 'infra/index.ts': `${pad}export const size = 3;\n` });
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expectUnreadable(json, 'infra/index.ts', /over the 1\.0 MB gpu-justify reads/);
  });

  it('a lock file or documentation over the limit, which nothing applies, is not read and holds nothing up', async () => {
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    const pad = `# ${'x'.repeat(78)}\n`.repeat(14_000);
    await writeFiles(dir, { 'tools/package-lock.json': `{"pad": "${'x'.repeat(1_100_000)}"}\n`, 'docs/queues.md': pad });
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.diagnostics).toEqual([]);
    expect(json.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
  });
});

describe('renamed files, through the CLI', () => {
  it('a capacity file renamed and raised is one change, read at both names', async () => {
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    git(dir, 'mv', QUEUE_FILE, 'clusters/prod/research-queue.yaml');
    await writeFiles(dir, { 'clusters/prod/research-queue.yaml': clusterQueue(12) });
    const head = commitAll(dir, 'head');
    expect(git(dir, 'diff', '--name-status', '-M', base, head)).toMatch(/^R\d+\t/);

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter])).toEqual([['clusters/prod/research-queue.yaml', 6, 12]]);
  });

  it('a capacity file renamed out of what any format reads is its queue removed, and said so', async () => {
    const dir = await repo({ [QUEUE_FILE]: clusterQueue(6) });
    const base = commitAll(dir, 'base');
    git(dir, 'mv', QUEUE_FILE, 'clusters/prod/queues.yaml.disabled');
    const head = commitAll(dir, 'head');

    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter])).toEqual([[QUEUE_FILE, 6, 0]]);
  });

  it('directories: a renamed file reads the same as in git-ref mode', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    await writeFiles(join(tmp.path, 'base'), { [QUEUE_FILE]: clusterQueue(6) });
    await writeFiles(join(tmp.path, 'head'), { 'clusters/prod/research-queue.yaml': clusterQueue(12) });
    const { json } = await detectJson('--base', join(tmp.path, 'base'), '--head', join(tmp.path, 'head'));
    expect(json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter])).toEqual([['clusters/prod/research-queue.yaml', 6, 12]]);
    await rm(join(tmp.path, 'head'), { recursive: true });
  });
});
