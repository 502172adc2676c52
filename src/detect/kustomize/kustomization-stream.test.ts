import { describe, expect, it } from 'vitest';
import { readKustomization } from './kustomization.js';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A kustomization file as kustomize reads it: sigs.k8s.io/yaml decodes its first YAML document
 * only, and EnforceFields refuses a kind other than Kustomization or Component. A file written
 * otherwise is not read as empty (its patches silently gone) but as a kustomization that cannot be
 * followed.
 */

const BODY = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
patches:
  - target:
      kind: ClusterAutoscaler
      name: default
    patch: |-
      - op: replace
        path: /spec/resourceLimits/gpus/0/max
        value: MAX
`;

const indent = (text: string, by: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l, i) => (i === 0 ? `- ${l}` : `${by}${l}`))
    .join('\n');

/** The kustomization written in ways kubectl would unwrap or skip, and kustomize does not. */
const STREAMS: Record<string, (body: string) => string> = {
  'a List around it': (b) => `apiVersion: v1\nkind: List\nitems:\n${indent(b, '  ')}\n`,
  'a null document first': (b) => `--- ~\n---\n${b}`,
  'an empty document first': (b) => `# kustomization\n---\n--- # the real one\n${b}`,
  'another document before it': (b) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\n${b}`,
  'a second kustomization after it': (b) => `${b}---\n${b.replace('../../base', '../other')}`,
};

const AUTOSCALER = `apiVersion: autoscaling.openshift.io/v1
kind: ClusterAutoscaler
metadata:
  name: default
spec:
  resourceLimits:
    maxNodesTotal: 16
    gpus:
      - type: nvidia.com/gpu
        min: 0
        max: 1
`;

const OVERLAY = 'autoscale/overlays/gpus/kustomization.yaml';

function tree(overlay: string): Tree {
  return {
    'autoscale/base/kustomization.yaml': 'resources:\n  - autoscaling.yaml\n',
    'autoscale/base/autoscaling.yaml': AUTOSCALER,
    [OVERLAY]: overlay,
  };
}

describe('a kustomization file kustomize reads differently from kubectl', () => {
  for (const [shape, write] of Object.entries(STREAMS)) {
    it(`${shape}: not read, and a GPU patch changed in it is not followed`, async () => {
      const base = write(BODY.replace('MAX', '8'));
      const head = write(BODY.replace('MAX', '16'));
      expect(readKustomization(OVERLAY, head).ok).toBe(false);
      const r = await detectPr(tree(base), tree(head));
      expect(changeRows(r)).toEqual([]);
      const flagged =
        r.coverage.some((f) => f.state === 'not-followed') || r.diagnostics.some((d) => d.severity === 'error' && d.file === OVERLAY);
      expect(flagged).toBe(true);
    });
  }

  it('reads one document with empty documents and comments after it, as kustomize does', async () => {
    const write = (max: string) => `---\n${BODY.replace('MAX', max)}---\n# nothing more\n--- ~\n`;
    expect(readKustomization(OVERLAY, write('16')).ok).toBe(true);
    const r = await detectPr(tree(write('8')), tree(write('16')));
    expect(changeRows(r).map((row) => row.slice(0, 4))).toEqual([['openshift-cluster-autoscaler', 'nvidia.com/gpu', 8, 16]]);
  });

  it('reads a Component, and a kustomization without a kind', () => {
    expect(readKustomization(OVERLAY, BODY.replace('kind: Kustomization', 'kind: Component')).ok).toBe(true);
    expect(readKustomization(OVERLAY, BODY.replace('kind: Kustomization\n', '')).ok).toBe(true);
  });
});
