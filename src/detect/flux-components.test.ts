import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from './detect-changes.js';
import { listingPr } from '../../test/detect/listing-tree.js';
import type { Tree } from '../../test/detect/listing-tree.js';

/**
 * A Flux Kustomization that starts applying a Component of GPU capacity (a profile's patch adds it to
 * `spec.components`), or a `path` moved to a folder that holds some: counted at head, or an error
 * that leaves the change unknown; never "no change". Generated over the capacity, how its count is
 * written, and whether the change is the Kustomization itself or a patch of it.
 */

type Capacity = 'time-slicing' | 'cluster-queue';
type Via = 'patch' | 'own';

const CAPACITY: Record<Capacity, (count: string) => string> = {
  'time-slicing': (count) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: time-slicing-config\ndata:\n  any: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n          - name: nvidia.com/gpu\n            replicas: ${count}\n`,
  'cluster-queue': (count) =>
    `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: team-a\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: a100\n          resources:\n            - name: nvidia.com/gpu\n              nominalQuota: ${count}\n`,
};

const flux = (components: readonly string[], extra = '') =>
  `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: gpu\nspec:\n  interval: ${extra || '10m'}\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  path: ./infra/gpu\n${components.length > 0 ? `  components:\n${components.map((c) => `    - ${c}\n`).join('')}` : ''}`;

function tree(capacity: Capacity, count: string, via: Via, on: boolean, interval = ''): { files: Tree; changed: string } {
  const component = on ? ['../sharing'] : [];
  const files: Tree = {
    'clusters/c1/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - apps.yaml\n${via === 'patch' ? 'patches:\n  - path: apps-patch.yaml\n' : ''}`,
    'clusters/c1/apps.yaml': flux(via === 'own' ? component : [], interval),
    'infra/gpu/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deploy.yaml\n',
    'infra/gpu/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n',
    'infra/sharing/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - capacity.yaml\n',
    'infra/sharing/capacity.yaml': CAPACITY[capacity](count),
  };
  if (via === 'patch')
    files['clusters/c1/apps-patch.yaml'] =
      `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: gpu\nspec:\n  components:\n${[...component, '../other'].map((c) => `    - ${c}\n`).join('')}`;
  return { files, changed: via === 'patch' ? 'clusters/c1/apps-patch.yaml' : 'clusters/c1/apps.yaml' };
}

const capacity = fc.constantFrom<Capacity>('time-slicing', 'cluster-queue');
const via = fc.constantFrom<Via>('patch', 'own');

describe('Flux Kustomization components', () => {
  it('a Component of GPU capacity turned on is counted at head', async () => {
    await fc.assert(
      fc.asyncProperty(capacity, via, fc.integer({ min: 2, max: 16 }), async (c, v, n) => {
        const r = await detectChanges(listingPr(tree(c, String(n), v, false).files, tree(c, String(n), v, true).files));
        expect(r.changes.map((x) => [x.gpusBefore, x.gpusAfter])).toEqual([[0, n]]);
      }),
      { numRuns: 16 },
    );
  });

  it('one whose count is a cluster variable leaves the change unknown, never no change', async () => {
    await fc.assert(
      fc.asyncProperty(capacity, via, fc.constantFrom('${count}', '${count:=4}'), async (c, v, ref) => {
        const r = await detectChanges(listingPr(tree(c, ref, v, false).files, tree(c, ref, v, true).files));
        expect(r.changes).toEqual([]);
        expect(r.diagnostics.some((d) => d.severity === 'error')).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it('a Kustomization edited beside a Component that stays on is no change', async () => {
    for (const c of ['time-slicing', 'cluster-queue'] as const) {
      const r = await detectChanges(listingPr(tree(c, '4', 'own', true).files, tree(c, '4', 'own', true, '30m').files));
      expect(r.changes).toEqual([]);
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
  });
});
