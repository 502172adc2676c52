import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue } from '../github/scenarios.js';
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

const pool = (at: string) =>
  [
    'resource "google_container_node_pool" "l4" {',
    '  name       = "l4"',
    '  cluster    = "lab"',
    '  location   = "us-central1-a"',
    '  node_count = var.gpu_nodes',
    `  # read through ${at}`,
    '  node_config {',
    '    machine_type = "g2-standard-8"',
    '    guest_accelerator {',
    '      type  = "nvidia-l4"',
    '      count = 1',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');

const variables = (gpuNodes: number, cpuNodes: number) =>
  `variable "gpu_nodes" {\n  default = ${gpuNodes}\n}\n\nvariable "cpu_nodes" {\n  default = ${cpuNodes}\n}\n`;

/** A module folder whose `variables.tf` is a link, through `hops` links, to the shared file. */
interface Layout {
  name: string;
  shared: string;
  /** Links, each [path, the path it leads to]; the first is the module's `variables.tf`. */
  links: [string, string][];
}

const LAYOUTS: Layout[] = [
  { name: 'a sibling folder', shared: 'shared/variables.tf', links: [['gke/variables.tf', 'shared/variables.tf']] },
  { name: 'the parent folder', shared: 'envs/gcp/variables.tf', links: [['envs/gcp/gke/variables.tf', 'envs/gcp/variables.tf']] },
  { name: 'three folders up', shared: 'common/vars.tf', links: [['envs/prod/gcp/gke/shared_variables.tf', 'common/vars.tf']] },
  {
    name: 'a chain of two links',
    shared: 'common/vars.tf',
    links: [
      ['envs/prod/gke/variables.tf', 'envs/prod/variables.tf'],
      ['envs/prod/variables.tf', 'common/vars.tf'],
    ],
  },
];

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
    await writeFiles(dir, { 'clusters/shared/queues.src': clusterQueue(6) });
    await mkdir(join(dir, 'clusters/prod'), { recursive: true });
    await symlink('../shared/queues.src', join(dir, 'clusters/prod/queues.yaml'));
    const base = commitAll(dir, 'base');
    await writeFiles(dir, { 'clusters/shared/queues.src': clusterQueue(12) });
    const head = commitAll(dir, 'head');
    const { json } = await detectJson('--repo', dir, '--base', base, '--head', head);
    expect(json.changes.map((c) => [c.file, c.gpusBefore, c.gpusAfter])).toEqual([['clusters/prod/queues.yaml', 6, 12]]);
  });
});
