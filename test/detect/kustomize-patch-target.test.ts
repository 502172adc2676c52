import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';

const queue = (n: number, name: string, labels = '') => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${name}${labels}
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: f
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${n}
`;

/**
 * A strategic-merge patch selected by a `target` takes the identity of each object it selects
 * (kustomize's PatchTransformer copies name, namespace and kind onto it): the patch's own name is
 * no rename, whatever it says (`not-important` in kustomize's own examples).
 */
describe('kustomize patches selected by a target', () => {
  const targets = ['kind: ClusterQueue', 'name: team-a', 'labelSelector: team=a', 'kind: ClusterQueue\n      labelSelector: team=a'];
  it.each(targets.flatMap((t) => ['team-a', 'not-important', 'other'].map((n): [string, string] => [t, n])))(
    'target %j, patch named %s: the object keeps its name and takes the count',
    async (target, patchName) => {
      const k = `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cq.yaml\npatches:\n  - path: patch.yaml\n    target:\n      ${target}\n`;
      const base = {
        'q/cq.yaml': queue(4, 'team-a', '\n  labels:\n    team: a'),
        'q/kustomization.yaml': k,
        'q/patch.yaml': queue(4, patchName),
      };
      const r = await detectPr(base, { ...base, 'q/patch.yaml': queue(8, patchName) });
      expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['team-a', 4, 8]]);
    },
  );
});
