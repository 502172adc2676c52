import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { runCli } from './run-cli.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * A capacity file replaced by a symbolic link, in git-ref mode (blob mode 120000) and in directory
 * mode: read as its target inside the repository, or an error naming it; never the queue removed.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function repoWithLink(target: string, extra: Record<string, string> = {}) {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  const repo = tmp.path;
  git(repo, 'init', '-q');
  await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(6) });
  const base = commitAll(repo, 'base');
  await rm(join(repo, QUEUE_FILE));
  await writeFiles(repo, extra);
  await symlink(target, join(repo, QUEUE_FILE));
  const head = commitAll(repo, 'head');
  return { repo, base, head };
}

async function detectJson(...args: string[]) {
  const { code, stdout, stderr } = await runCli('detect', ...args, '--json');
  return { code, stderr, json: code === 0 ? (JSON.parse(stdout) as { changes: { gpusBefore: number; gpusAfter: number }[] }) : null };
}

describe('symbolic links, through the CLI', () => {
  // The target's name is one no parser reads, so the only declaration found is the link's own.
  it('git refs: a link inside the repository is read as its target', async () => {
    const { repo, base, head } = await repoWithLink('../shared/queues.src', { 'clusters/shared/queues.src': clusterQueue(12) });
    expect(git(repo, 'ls-tree', head, QUEUE_FILE)).toMatch(/^120000 /);
    const { code, json } = await detectJson('--repo', repo, '--base', base, '--head', head);
    expect(code).toBe(0);
    expect(json?.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[6, 12]]);
  });

  it.each([
    ['leading outside the repository', '../../../../etc/hosts'], // hostile link target: data, never read
    ['to a file that is not there', 'missing.yaml'],
    ['looping', 'queues.yaml'],
  ])('git refs: a link %s is an error naming the file, never the queue removed', async (_what, target) => {
    const { repo, base, head } = await repoWithLink(target);
    const { code, stderr, json } = await detectJson('--repo', repo, '--base', base, '--head', head);
    expect(json).toBeNull();
    expect(code).toBe(2);
    expect(stderr).toContain(QUEUE_FILE);
    expect(stderr).toMatch(/symbolic link/);
  });

  it('directories: a link inside the tree is its target; one leading outside is an error naming it', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const baseDir = join(tmp.path, 'base');
    const headDir = join(tmp.path, 'head');
    await writeFiles(baseDir, { [QUEUE_FILE]: clusterQueue(6) });
    await writeFiles(headDir, { 'clusters/shared/queues.src': clusterQueue(12) });
    await mkdir(join(headDir, 'clusters/prod'), { recursive: true });
    await symlink('../shared/queues.src', join(headDir, QUEUE_FILE));
    const inside = await detectJson('--base', baseDir, '--head', headDir);
    expect(inside.json?.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[6, 12]]);

    await rm(join(headDir, QUEUE_FILE));
    await mkdir(join(tmp.path, 'elsewhere'), { recursive: true });
    await writeFile(join(tmp.path, 'elsewhere', 'q.yaml'), clusterQueue(0));
    await symlink(join(tmp.path, 'elsewhere', 'q.yaml'), join(headDir, QUEUE_FILE));
    const outside = await detectJson('--base', baseDir, '--head', headDir);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(QUEUE_FILE);
    expect(outside.stderr).toMatch(/symbolic link leading outside/);
  });
});
