import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { detectJson, expectUnreadable } from './detect-json.js';
import { runCli } from './run-cli.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * Symbolic links, in git-ref mode (blob mode 120000) and in directory mode: a link to a file
 * inside the repository is read as its target; one leading outside, nowhere, to a directory or
 * round a loop is an error on its own file, whether it replaces a capacity file or is new. Never
 * the queue removed, never "no GPU change".
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function repo(): Promise<string> {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  git(tmp.path, 'init', '-q');
  return tmp.path;
}

async function repoWithLink(target: string, extra: Record<string, string> = {}, at = QUEUE_FILE) {
  const dir = await repo();
  await writeFiles(dir, { [QUEUE_FILE]: clusterQueue(6) });
  const base = commitAll(dir, 'base');
  if (at === QUEUE_FILE) await rm(join(dir, QUEUE_FILE));
  await writeFiles(dir, extra);
  await mkdir(join(dir, at, '..'), { recursive: true });
  await symlink(target, join(dir, at));
  const head = commitAll(dir, 'head');
  return { repo: dir, base, head };
}

describe('symbolic links, through the CLI', () => {
  // The target's name is one no parser reads, so the only declaration found is the link's own.
  it('git refs: a link inside the repository is read as its target', async () => {
    const { repo, base, head } = await repoWithLink('../shared/queues.src', { 'clusters/shared/queues.src': clusterQueue(12) });
    expect(git(repo, 'ls-tree', head, QUEUE_FILE)).toMatch(/^120000 /);
    const { json } = await detectJson('--repo', repo, '--base', base, '--head', head);
    expect(json.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[6, 12]]);
  });

  it('git refs: a file read through a linked directory is read from the directory it links to', async () => {
    const dir = await repo();
    await writeFiles(dir, { 'clusters/shared/queues.yaml': clusterQueue(6), 'clusters/prod/kustomization.yaml': 'resources: []\n' });
    const base = commitAll(dir, 'base');
    await writeFiles(dir, { 'clusters/shared/queues.yaml': clusterQueue(10) });
    await symlink('shared', join(dir, 'clusters/current'));
    const head = commitAll(dir, 'head');
    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    // The changed file is read where it is and below the new link, as a checkout of each side has it.
    expect(json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter])).toEqual([
      ['clusters/current/queues.yaml', 0, 10],
      ['clusters/shared/queues.yaml', 6, 10],
    ]);
    // The new link stands for a directory: as a file it is not read.
    expectUnreadable(json, 'clusters/current', /symbolic link to the directory clusters\/shared/);
  });

  it.each([
    ['leading outside the repository', '../../../../etc/hosts', /symbolic link leading outside/], // hostile link target: data, never read
    ['to a file that is not there', 'missing.yaml', /symbolic link to clusters\/prod\/missing\.yaml, which is not there/],
    ['looping', 'queues.yaml', /symbolic link that loops/],
    ['to a directory', '../shared', /symbolic link to the directory clusters\/shared/],
  ])('git refs: a capacity file replaced by a link %s is an error on its file, never the queue removed', async (_what, target, why) => {
    const { repo, base, head } = await repoWithLink(target, { 'clusters/shared/other.yaml': 'kind: ConfigMap\n' });
    const { json } = await detectJson('--repo', repo, '--base', base, '--head', head);
    expectUnreadable(json, QUEUE_FILE, why);
  });

  it.each([
    ['leading outside the repository', '../../../../etc/hosts', /symbolic link leading outside/], // hostile link target: data, never read
    ['to nothing', 'nowhere.yaml', /which is not there/],
    ['to a directory', '../shared', /symbolic link to the directory/],
  ])('git refs: a new link %s is an error on its file, never "no GPU change"', async (_what, target, why) => {
    const extra = 'clusters/prod/more-queues.yaml';
    const { repo, base, head } = await repoWithLink(target, { 'clusters/shared/other.yaml': 'kind: ConfigMap\n' }, extra);
    const { json } = await detectJson('--repo', repo, '--base', base, '--head', head);
    expectUnreadable(json, extra, why);
  });

  it('git refs: a new link outside, at a path no format reads, is an error on its file too', async () => {
    const { repo, base, head } = await repoWithLink('/etc', {}, 'clusters/prod/vendor');
    const { json } = await detectJson('--repo', repo, '--base', base, '--head', head);
    expectUnreadable(json, 'clusters/prod/vendor', /symbolic link leading outside/);
  });

  it('directories: a link inside the tree is its target; one leading outside, replacing a file or new, is an error on its file', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const baseDir = join(tmp.path, 'base');
    const headDir = join(tmp.path, 'head');
    await writeFiles(baseDir, { [QUEUE_FILE]: clusterQueue(6) });
    await writeFiles(headDir, { 'clusters/shared/queues.src': clusterQueue(12) });
    await mkdir(join(headDir, 'clusters/prod'), { recursive: true });
    await symlink('../shared/queues.src', join(headDir, QUEUE_FILE));
    const inside = await detectJson('--base', baseDir, '--head', headDir);
    expect(inside.json.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[6, 12]]);

    await rm(join(headDir, QUEUE_FILE));
    await mkdir(join(tmp.path, 'elsewhere'), { recursive: true });
    await writeFile(join(tmp.path, 'elsewhere', 'q.yaml'), clusterQueue(0));
    await symlink(join(tmp.path, 'elsewhere', 'q.yaml'), join(headDir, QUEUE_FILE));
    const outside = await detectJson('--base', baseDir, '--head', headDir);
    expectUnreadable(outside.json, QUEUE_FILE, /symbolic link leading outside/);

    // A new link out of the tree, beside an unchanged queue: the change it makes is its own file's.
    await rm(join(headDir, QUEUE_FILE));
    await writeFiles(headDir, { [QUEUE_FILE]: clusterQueue(6) });
    await writeFile(join(tmp.path, 'elsewhere', 'more.yaml'), clusterQueue(400));
    await symlink(join(tmp.path, 'elsewhere', 'more.yaml'), join(headDir, 'clusters/prod/more-queues.yaml'));
    const added = await detectJson('--base', baseDir, '--head', headDir);
    expectUnreadable(added.json, 'clusters/prod/more-queues.yaml', /symbolic link leading outside/);
  });

  it('review --fail-on fails on a new link out of the tree, naming it', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const baseDir = join(tmp.path, 'base');
    const headDir = join(tmp.path, 'head');
    await writeFiles(baseDir, { [QUEUE_FILE]: clusterQueue(6) });
    await writeFiles(headDir, { [QUEUE_FILE]: clusterQueue(6) });
    await symlink('/etc/hosts', join(headDir, 'clusters/prod/more-queues.yaml'));
    const { code, stdout } = await runCli('review', '--base', baseDir, '--head', headDir, '--format', 'json', '--fail-on', 'not-justified');
    expect(code).toBe(1);
    const review = JSON.parse(stdout) as { verdict: string; diagnostics: { file: string }[] };
    expect(review.verdict).toBe('insufficient-evidence');
    expect(review.diagnostics.map((d) => d.file)).toContain('clusters/prod/more-queues.yaml');
  });
});
