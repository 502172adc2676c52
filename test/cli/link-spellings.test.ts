import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue } from '../github/scenarios.js';
import { FILE_LINKS, DIR_LINKS, QUEUES, linkedCount } from '../helpers/link-spellings.js';
import type { Spelling } from '../helpers/link-spellings.js';
import { detectJson } from './detect-json.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * One link beside a changed queue file, its target spelt every way a checkout reads (`./x`,
 * `x//y`, `../a/./b`, a trailing `/`, absolute, out of the tree). In git-ref mode the link counts
 * once where it leads to the changed file, never where a checkout would not read a file through it
 * (a trailing `/` asks for a directory): the queue is counted as often as it is applied.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function changedWithLink(s: Spelling) {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  const dir = tmp.path;
  git(dir, 'init', '-q');
  await writeFiles(dir, { [QUEUES]: clusterQueue(6) });
  await mkdir(join(dir, dirname(s.link)), { recursive: true });
  await symlink(s.target, join(dir, s.link));
  const base = commitAll(dir, 'base');
  await writeFiles(dir, { [QUEUES]: clusterQueue(12) });
  const head = commitAll(dir, 'head');
  return (await detectJson('--repo', dir, '--base', base, '--head', head)).json;
}

describe('a link to a changed queue file, its target spelt any way, in git-ref mode', () => {
  it.each([...FILE_LINKS, ...DIR_LINKS])('$link -> $target', async (s) => {
    const json = await changedWithLink(s);
    const counted = json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter]);
    expect(counted).toHaveLength(linkedCount(s));
    expect(counted).toContainEqual([QUEUES, 6, 12]);
    if (s.reads !== null) expect(counted).toContainEqual([s.reads, 6, 12]);
    expect(json.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
