import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../detect-changes.js';
import { listingPr } from '../../../test/detect/listing-tree.js';
import type { Tree } from '../../../test/detect/listing-tree.js';

/**
 * A Flux HelmRelease whose `postRenderers` lay kustomize patches over the chart's render: a patch
 * raising the GPU limit of the NodePool the chart renders changes what the cluster gets while the
 * values stand. The patches are not applied here, so such a change is not followed, never "no
 * change"; a patch aimed only at workloads (a Deployment's labels) leaves the count as rendered.
 */

const CHART: Tree = {
  'charts/gpu-pool/Chart.yaml': 'apiVersion: v2\nname: gpu-pool\nversion: 0.1.0\n',
  'charts/gpu-pool/values.yaml': 'gpus: 4\n',
  'charts/gpu-pool/templates/nodepool.yaml':
    'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: gpu\nspec:\n  limits:\n    nvidia.com/gpu: {{ .Values.gpus }}\n  template:\n    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      requirements:\n        - key: karpenter.k8s.aws/instance-family\n          operator: In\n          values: ["g5"]\n',
};

type Form = 'json6902' | 'strategic-merge' | 'no-target';

const patch = (form: Form, n: number): string => {
  if (form === 'strategic-merge')
    return `        patchesStrategicMerge:\n          - apiVersion: karpenter.sh/v1\n            kind: NodePool\n            metadata:\n              name: gpu\n            spec:\n              limits:\n                cpu: ${n}\n`;
  const target = form === 'no-target' ? '' : '            target:\n              kind: NodePool\n';
  return `        patches:\n          - ${target === '' ? '' : `target:\n              kind: NodePool\n            `}patch: |\n              - op: replace\n                path: /spec/limits/nvidia.com~1gpu\n                value: ${n}\n`;
};

const release = (post: string) =>
  `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: gpu-pool\n  namespace: karpenter\nspec:\n  interval: 10m\n  chart:\n    spec:\n      chart: ./charts/gpu-pool\n      sourceRef:\n        kind: GitRepository\n        name: flux-system\n        namespace: flux-system\n  values:\n    gpus: 4\n${post === '' ? '' : `  postRenderers:\n    - kustomize:\n${post}`}`;

describe('Flux HelmRelease postRenderers', () => {
  it('a patch of a capacity kind over the render is not followed when it changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Form>('json6902', 'strategic-merge', 'no-target'),
        fc.integer({ min: 1, max: 64 }),
        async (form, n) => {
          const r = await detectChanges(
            listingPr({ ...CHART, 'flux/gpu.yaml': release(patch(form, n)) }, { ...CHART, 'flux/gpu.yaml': release(patch(form, n + 8)) }),
          );
          expect(r.coverage).toEqual([expect.objectContaining({ file: 'flux/gpu.yaml', state: 'not-followed' })]);
          expect(r.changes.every((c) => c.gpusAfter !== 4 || c.gpusBefore !== 4)).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a patch aimed only at a Deployment leaves the count as rendered (negative control)', async () => {
    const labels = (v: string) =>
      `        patches:\n          - target:\n              kind: Deployment\n            patch: |\n              - op: add\n                path: /metadata/labels/tier\n                value: ${v}\n`;
    const r = await detectChanges(
      listingPr({ ...CHART, 'flux/gpu.yaml': release(labels('a')) }, { ...CHART, 'flux/gpu.yaml': release(labels('b')) }),
    );
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((f) => f.state)).not.toContain('not-followed');
  });

  it('a change elsewhere in a release with a capacity patch is no change (negative control)', async () => {
    const post = patch('json6902', 16);
    const r = await detectChanges(
      listingPr(
        { ...CHART, 'flux/gpu.yaml': release(post) },
        { ...CHART, 'flux/gpu.yaml': release(post).replace('interval: 10m', 'interval: 5m') },
      ),
    );
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((f) => f.state)).not.toContain('not-followed');
  });
});
