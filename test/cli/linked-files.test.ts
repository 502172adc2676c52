import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue } from '../github/scenarios.js';
import { LAYOUTS, pool, variables } from '../helpers/linked-layouts.js';
import type { Layout } from '../helpers/linked-layouts.js';
import { detectJson } from './detect-json.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * A file several folders read through symbolic links (one `variables.tf` linked into each root
 * module, a shared queue file): a change to the file keeps every link's blob as it was, yet each
 * link reads the new text. In git-ref mode the links are changed paths too, so a change made in
 * the shared file is judged where it is applied, never passed as "no GPU change".
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function repoWith(layout: Layout, before: string, after: string) {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  const dir = tmp.path;
  git(dir, 'init', '-q');
  const [first] = layout.links;
  const moduleDir = dirname(first?.[0] ?? '');
  await writeFiles(dir, { [layout.shared]: before, [join(moduleDir, 'main.tf')]: pool(first?.[0] ?? '') });
  for (const [link, to] of layout.links) await symlink(relative(dirname(link), to), join(dir, link));
  const base = commitAll(dir, 'base');
  await writeFiles(dir, { [layout.shared]: after });
  const head = commitAll(dir, 'head');
  return { dir, base, head };
}

describe('a file read through symbolic links, in git-ref mode', () => {
  it.each(LAYOUTS)('a GPU default raised in a variables file linked from $name is judged in the module that reads it', async (layout) => {
    const { dir, base, head } = await repoWith(layout, variables(2, 3), variables(5, 3));
    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[2, 5]]);
  });

  it.each(LAYOUTS)('a CPU-only change in a variables file linked from $name is no GPU change', async (layout) => {
    const { dir, base, head } = await repoWith(layout, variables(2, 3), variables(2, 9));
    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.changes).toEqual([]);
    expect(json.coverage.filter((f) => f.state === 'not-followed')).toEqual([]);
  });

  it('a queue file changed under a name no parser reads is judged at the link that applies it', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const dir = tmp.path;
    git(dir, 'init', '-q');
    await writeFiles(dir, { 'clusters/common/queues.src': clusterQueue(6) });
    await mkdir(join(dir, 'clusters/prod'), { recursive: true });
    await symlink('../common/queues.src', join(dir, 'clusters/prod/queues.yaml'));
    const base = commitAll(dir, 'base');
    await writeFiles(dir, { 'clusters/common/queues.src': clusterQueue(12) });
    const head = commitAll(dir, 'head');
    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter])).toEqual([['clusters/prod/queues.yaml', 6, 12]]);
  });
});
