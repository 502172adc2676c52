import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';
import type { Tree } from './listing-tree.js';

/**
 * A Component that includes another (`components: [../time-sliced]`) and patches what the inner
 * one patched: when the inner patch cannot be counted (a Component read without the overlay that
 * gives it resources), a changed patch of the outer one must not read as "no change". It is
 * counted, or not followed on the changed file.
 */

const sharing = (key: string, replicas: number) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: device-plugin-config
data:
  ${key}: |-
    version: v1
    sharing:
      timeSlicing:
        resources:
          - name: nvidia.com/gpu
            replicas: ${replicas}
`;

const component = (inner: string | null, patch: string) => `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
${inner === null ? '' : `components:\n  - ${inner}\n`}
patches:
  - path: ${patch}
    target:
      kind: ConfigMap
      name: device-plugin-config
`;

function tree(depth: number, replicas: number, patchName: string): { files: Tree; changed: string } {
  const root = 'gpu/instance';
  const files: Tree = {
    [`${root}/base/kustomization.yaml`]:
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - device-plugin-config.yaml\n',
    [`${root}/base/device-plugin-config.yaml`]:
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: device-plugin-config\n  namespace: nvidia-gpu-operator\ndata: {}\n',
  };
  // The innermost Component sets a sharing of 0; each outer one includes the one before it.
  let inner: string | null = null;
  let last = '';
  for (let i = 0; i <= depth; i++) {
    const dir = `${root}/components/sliced-${i}`;
    files[`${dir}/kustomization.yaml`] = component(inner, patchName);
    files[`${dir}/${patchName}`] = sharing(i === depth ? 'time-sliced' : 'no-time-sliced', i === depth ? replicas : 0);
    inner = `../sliced-${i}`;
    last = `${dir}/${patchName}`;
  }
  files[`${root}/overlays/sliced/kustomization.yaml`] =
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../base\ncomponents:\n  - ../../components/sliced-${depth}\n`;
  return { files, changed: last };
}

describe('a patch of a Component over a nested Component', () => {
  it('raising the sharing is counted or not followed, never read as no change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom('patch-device-plugin-config.yaml', 'sharing.yml'),
        async (depth, from, more, patchName) => {
          const base = tree(depth, from, patchName);
          const head = tree(depth, from + more, patchName);
          const r = await detectChanges(listingPr(base.files, head.files));
          const state = r.coverage.find((c) => c.file === base.changed)?.state;
          const counted = r.changes.some((c) => c.gpusAfter > c.gpusBefore);
          expect(counted || state === 'not-followed').toBe(true);
        },
      ),
      { numRuns: 24 },
    );
  });
});
