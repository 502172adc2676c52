import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from './detect-changes.js';
import { listingPr } from '../../test/detect/listing-tree.js';
import type { Tree } from '../../test/detect/listing-tree.js';

/**
 * An Argo CD Application that applies a folder of this repository: pointed at another folder,
 * added for a folder of GPU capacity, or given a `kustomize.patches` entry that raises a count.
 * No manifest changes, yet the cluster gets other capacity: counted on the Application, or not
 * followed, never "no change". Generated over the capacity kind, whether the folder is a
 * kustomization or a plain directory, and the counts.
 */

type Capacity = 'node-pool' | 'cluster-queue';
type Layout = 'kustomize' | 'directory';

const CAPACITY: Record<Capacity, { kind: string; row: string; text: (n: number) => string; pointer: string }> = {
  'node-pool': {
    kind: 'NodePool',
    row: 'karpenter-nodepool',
    pointer: '/spec/limits/nvidia.com~1gpu',
    text: (n) =>
      `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: gpu\nspec:\n  limits:\n    nvidia.com/gpu: ${n}\n  template:\n    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      requirements:\n        - key: karpenter.k8s.aws/instance-family\n          operator: In\n          values: ["g5"]\n`,
  },
  'cluster-queue': {
    kind: 'ClusterQueue',
    row: 'kueue-cluster-queue',
    pointer: '/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota',
    text: (n) =>
      `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: gpu\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: a100\n          resources:\n            - name: nvidia.com/gpu\n              nominalQuota: ${n}\n`,
  },
};

function folder(dir: string, capacity: Capacity, layout: Layout, n: number): Tree {
  const files: Tree = { [`${dir}/capacity.yaml`]: CAPACITY[capacity].text(n) };
  if (layout === 'kustomize')
    files[`${dir}/kustomization.yaml`] =
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - capacity.yaml\n';
  return files;
}

const application = (path: string, patch = '') =>
  `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: gpu\n  namespace: argocd\nspec:\n  project: default\n  destination:\n    server: https://kubernetes.default.svc\n  source:\n    repoURL: https://git.example.com/platform/clusters.git\n    targetRevision: main\n    path: ${path}\n${patch}`;

const capacity = fc.constantFrom<Capacity>('node-pool', 'cluster-queue');
const layout = fc.constantFrom<Layout>('kustomize', 'directory');
const count = fc.integer({ min: 1, max: 64 });

describe('Argo CD Applications applying a folder', () => {
  it('an Application pointed at another folder counts what each folder holds', async () => {
    await fc.assert(
      fc.asyncProperty(capacity, layout, count, count, async (c, l, a, b) => {
        const files = { ...folder('pools/small', c, l, a), ...folder('pools/big', c, l, b) };
        const base = { ...files, 'apps/gpu.yaml': application('pools/small') };
        const head = { ...files, 'apps/gpu.yaml': application('pools/big') };
        const r = await detectChanges(listingPr(base, head));
        const rows = r.changes.map((x) => [x.kind, x.name, x.gpusBefore, x.gpusAfter]);
        expect(rows).toEqual(a === b ? [] : [[CAPACITY[c].row, 'gpu', a, b]]);
        if (a !== b) expect(r.coverage).toEqual([expect.objectContaining({ file: 'apps/gpu.yaml', state: 'read' })]);
      }),
      { numRuns: 24 },
    );
  });

  it('an Application added for a folder of GPU capacity adds it, and one removed removes it', async () => {
    await fc.assert(
      fc.asyncProperty(capacity, layout, count, async (c, l, n) => {
        const files = folder('pools/gpu', c, l, n);
        const withApp = { ...files, 'apps/gpu.yaml': application('pools/gpu') };
        const added = await detectChanges(listingPr(files, withApp));
        expect(added.changes.map((x) => [x.gpusBefore, x.gpusAfter])).toEqual([[0, n]]);
        const removed = await detectChanges(listingPr(withApp, files));
        expect(removed.changes.map((x) => [x.gpusBefore, x.gpusAfter])).toEqual([[n, 0]]);
      }),
      { numRuns: 16 },
    );
  });

  it("the Application's own kustomize patch is applied over its folder", async () => {
    await fc.assert(
      fc.asyncProperty(capacity, count, count, count, async (c, n, a, b) => {
        const patch = (v: number) =>
          `    kustomize:\n      patches:\n        - target:\n            kind: ${CAPACITY[c].kind}\n            name: gpu\n          patch: |-\n            - op: replace\n              path: ${CAPACITY[c].pointer}\n              value: ${v}\n`;
        const files = folder('pools/gpu', c, 'kustomize', n);
        const r = await detectChanges(
          listingPr(
            { ...files, 'apps/gpu.yaml': application('pools/gpu', patch(a)) },
            { ...files, 'apps/gpu.yaml': application('pools/gpu', patch(b)) },
          ),
        );
        expect(r.changes.map((x) => [x.gpusBefore, x.gpusAfter])).toEqual(a === b ? [] : [[a, b]]);
        expect(r.coverage.map((f) => f.state)).not.toContain('not-followed');
      }),
      { numRuns: 24 },
    );
  });

  it('a change elsewhere in the Application is no change (negative control)', async () => {
    const files = folder('pools/gpu', 'node-pool', 'kustomize', 8);
    const r = await detectChanges(
      listingPr(
        { ...files, 'apps/gpu.yaml': application('pools/gpu') },
        {
          ...files,
          'apps/gpu.yaml': application('pools/gpu').replace(
            '  project: default\n',
            '  project: default\n  syncPolicy:\n    automated: {}\n',
          ),
        },
      ),
    );
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((f) => f.state)).toEqual(['not-capacity']);
  });

  it('a folder that makes the pool unbounded is not followed, never no change', async () => {
    const files = {
      ...folder('pools/gpu', 'node-pool', 'kustomize', 8),
      'pools/open/kustomization.yaml':
        'resources:\n  - ../gpu\npatches:\n  - target:\n      kind: NodePool\n    patch: |-\n      - op: remove\n        path: /spec/limits\n',
    };
    const r = await detectChanges(
      listingPr({ ...files, 'apps/gpu.yaml': application('pools/gpu') }, { ...files, 'apps/gpu.yaml': application('pools/open') }),
    );
    expect(r.coverage.map((f) => f.state)).toEqual(['not-followed']);
  });
});
