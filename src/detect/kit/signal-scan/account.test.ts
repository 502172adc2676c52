import { describe, expect, it } from 'vitest';
import { accountSignals } from './account.js';

const FLAVOR = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    nvidia.com/gpu.present: "true"
  tolerations:
  - key: nvidia.com/gpu
    operator: Exists
    effect: NoSchedule
`;

describe('accountSignals', () => {
  it('reads a file with CRLF line ends as with LF ones: the same names, lines and contexts', () => {
    const lf = accountSignals('flavor.yaml', FLAVOR).signals.map((s) => [s.token, s.line, s.by]);
    expect(lf).toEqual([
      ['nvidia.com/gpu.present', 7, 'label'],
      ['nvidia.com/gpu', 9, 'scheduling'],
    ]);
    expect(accountSignals('flavor.yaml', FLAVOR.replace(/\n/g, '\r\n')).signals.map((s) => [s.token, s.line, s.by])).toEqual(lf);
  });

  it('reads a file with no extension holding objects as YAML: a label is a label', () => {
    expect(accountSignals('kueue/gpu-flavor', FLAVOR).signals.map((s) => s.by)).toEqual(['label', 'scheduling']);
  });
});
