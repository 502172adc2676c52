import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { openshiftAutoscalerParser } from './openshift-autoscaler.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** As redhat-na-ssa/demo-ocp-autoscale-gpu limits its cluster's GPUs (OpenShift 4 docs' shape). */
const autoscaler = (l4: number | string) => `apiVersion: autoscaling.openshift.io/v1
kind: ClusterAutoscaler
metadata:
  name: default
spec:
  resourceLimits:
    maxNodesTotal: 16
    cores: { min: 0, max: 176 }
    gpus:
      - type: nvidia-l4
        min: 0
        max: ${l4}
      - type: nvidia-a10
        min: 0
        max: 4
      - type: amd.com/gpu
        min: 0
        max: 1
`;
const FILE = 'gpu-autoscale/cluster-autoscaler.yaml';

describe('OpenShift ClusterAutoscaler GPU limits', () => {
  it('are one pool per GPU type, named by the type, at its max', () => {
    const r = openshiftAutoscalerParser.parse(FILE, autoscaler(2));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.parts[0]?.resource, d.line])).toEqual([
      ['openshift-cluster-autoscaler', 'nvidia-l4', 'L4', 2, 'nvidia.com/gpu', 12],
      ['openshift-cluster-autoscaler', 'nvidia-a10', 'A10', 4, 'nvidia.com/gpu', 15],
      ['openshift-cluster-autoscaler', 'amd.com/gpu', null, 1, 'amd.com/gpu', 18],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a raised limit is a change of that type only', async () => {
    const result = await detectPr({ [FILE]: autoscaler(2) }, { [FILE]: autoscaler(8) });
    expect(changeRows(result)).toEqual([['openshift-cluster-autoscaler', 'nvidia-l4', 2, 8, 'L4', FILE, lineIn(autoscaler(8), 'max: 8')]]);
  });

  it('a max it cannot read is a warning at its line, and the type is kept as unknown', () => {
    const r = openshiftAutoscalerParser.parse(FILE, autoscaler('"{{ .Values.l4 }}"'));
    expect(r.decls.map((d) => d.name)).toEqual(['nvidia-a10', 'amd.com/gpu']);
    expect(r.unresolved).toEqual([expect.objectContaining({ kind: 'openshift-cluster-autoscaler', name: 'nvidia-l4', line: 12 })]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        line: 12,
        severity: 'warning',
        message: match.stringContaining('ClusterAutoscaler default: gpus[nvidia-l4].max'),
      }),
    ]);
  });
});
