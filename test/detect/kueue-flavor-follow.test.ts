import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChangeSet, TreeReader } from '../../src/domain/index.js';
import { normaliseGpuModel } from '../../src/domain/index.js';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { GKE_ACCELERATORS } from '../../src/detect/kit/gpu-types/gcp.js';

/**
 * A ResourceFlavor changed in a file of its own changes what the quota of every ClusterQueue naming
 * it buys. The review follows it to those queues, wherever they are in the tree, and reports each
 * as a change of GPU model; a flavor no queue names, one renamed or deleted from under a queue, or
 * one whose model cannot be told, is not followed. Generated over the GKE accelerator table, the
 * folders the flavor and the queue sit in, and the shapes of the change.
 */

type Tree = Record<string, string>;
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** A side that lists files and folders, as the CLI's and the App's readers do. */
function reader(label: string, tree: Tree): TreeReader {
  const folders = new Set<string>();
  for (const p of Object.keys(tree)) for (let d = dirOf(p); d !== ''; d = dirOf(d)) folders.add(d);
  return {
    label,
    read: (p) => Promise.resolve(tree[p] ?? null),
    list: (dir) => Promise.resolve(Object.keys(tree).filter((p) => dirOf(p) === dir)),
    dirs: (dir) => Promise.resolve([...folders].filter((d) => dirOf(d) === dir)),
  };
}

function pr(base: Tree, head: Tree): ChangeSet {
  const paths = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]).sort();
  return { base: reader('base', base), head: reader('head', head), changedPaths: () => Promise.resolve(paths) };
}

const flavor = (name: string, accelerator: string, extra = '') =>
  `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: ${name}\nspec:\n  nodeLabels:\n    cloud.google.com/gke-accelerator: ${accelerator}\n${extra}`;

const queue = (name: string, flavorName: string, quota: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${name}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["nvidia.com/gpu"]
    flavors:
    - name: ${flavorName}
      resources:
      - name: nvidia.com/gpu
        nominalQuota: ${quota}
`;

const accelerators = Object.keys(GKE_ACCELERATORS);
const arbPlace = fc.record({
  flavorFile: fc.constantFrom('flavors/gpu.yaml', 'gpu-flavor.yaml', 'kueue/flavors/a100.yml', 'clusters/prod/kueue/resource-flavors.yaml'),
  queueFile: fc.constantFrom('queue.yaml', 'queues/team-a.yaml', 'kueue/queues/prod/cq.yaml', 'apps/ml/kueue.yml'),
  flavorName: fc.constantFrom('gpu', 'h100-flavor', 'default-gpu'),
  quota: fc.integer({ min: 1, max: 256 }),
});
const arbModels = fc
  .tuple(fc.constantFrom(...accelerators), fc.constantFrom(...accelerators))
  .filter(([a, b]) => normaliseGpuModel(a) !== normaliseGpuModel(b));

const notFollowed = (r: Awaited<ReturnType<typeof detectChanges>>, file: string) =>
  r.coverage.find((c) => c.file === file)?.state === 'not-followed';

describe('a ResourceFlavor changed apart from its queues', () => {
  it('is followed to every queue naming it, as a change of GPU model at its quota', async () => {
    await fc.assert(
      fc.asyncProperty(arbPlace, arbModels, fc.boolean(), async (p, [from, to], second) => {
        fc.pre(dirOf(p.flavorFile) !== dirOf(p.queueFile));
        const queues: Tree = { [p.queueFile]: queue('team-a', p.flavorName, p.quota) };
        if (second) queues['other/team-b.yaml'] = queue('team-b', p.flavorName, p.quota + 1);
        const r = await detectChanges(
          pr({ ...queues, [p.flavorFile]: flavor(p.flavorName, from) }, { ...queues, [p.flavorFile]: flavor(p.flavorName, to) }),
        );
        const rows = r.changes.map((c) => [c.name, c.gpuModelBefore, c.gpuModel, c.gpusBefore, c.gpusAfter]).sort();
        const expected = [['team-a', normaliseGpuModel(from), normaliseGpuModel(to), p.quota, p.quota]];
        if (second) expected.push(['team-b', normaliseGpuModel(from), normaliseGpuModel(to), p.quota + 1, p.quota + 1]);
        expect(rows).toEqual(expected.sort());
        expect(notFollowed(r, p.flavorFile)).toBe(false);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('renamed or deleted from under a queue, added with no queue naming it, or with no queue in the tree: not followed', async () => {
    const shapes = ['renamed', 'deleted', 'added', 'no-queue'] as const;
    await fc.assert(
      fc.asyncProperty(arbPlace, fc.constantFrom(...accelerators), fc.constantFrom(...shapes), async (p, acc, shape) => {
        fc.pre(dirOf(p.flavorFile) !== dirOf(p.queueFile));
        const queues: Tree = shape === 'no-queue' ? { 'README.md': '# ml\n' } : { [p.queueFile]: queue('team-a', p.flavorName, p.quota) };
        const before = flavor(p.flavorName, acc);
        const after = {
          renamed: flavor(`${p.flavorName}-v2`, acc),
          deleted: null,
          added: `${before}---\n${flavor('spare', acc)}`,
          'no-queue': flavor(p.flavorName, acc, '  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n'),
        }[shape];
        const head: Tree = after === null ? { ...queues } : { ...queues, [p.flavorFile]: after };
        const r = await detectChanges(pr({ ...queues, [p.flavorFile]: before }, head));
        expect(r.changes).toEqual([]);
        expect(notFollowed(r, p.flavorFile)).toBe(true);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('tolerations changed on the same labelled nodes: followed, no change', async () => {
    const queues: Tree = { 'queues/team-a.yaml': queue('team-a', 'gpu', 8) };
    const toleration = '  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n';
    const r = await detectChanges(
      pr(
        { ...queues, 'flavors/gpu.yaml': flavor('gpu', 'nvidia-l4') },
        { ...queues, 'flavors/gpu.yaml': flavor('gpu', 'nvidia-l4', toleration) },
      ),
    );
    expect(r.changes).toEqual([]);
    expect(notFollowed(r, 'flavors/gpu.yaml')).toBe(false);
  });

  it('a flavor moved to another file unchanged is no change', async () => {
    const queues: Tree = { 'queues/team-a.yaml': queue('team-a', 'gpu', 8) };
    const r = await detectChanges(
      pr({ ...queues, 'flavors/gpu.yaml': flavor('gpu', 'nvidia-l4') }, { ...queues, 'kueue/flavors.yaml': flavor('gpu', 'nvidia-l4') }),
    );
    expect(r.changes).toEqual([]);
    expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
  });
});
