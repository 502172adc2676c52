import { describe, expect, it } from 'vitest';
import { detectPr, edited, lineIn, loadReal } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

const DIR = 'gpu-sharing';
const NODECLASS = `${DIR}/karpenter-blueprints-gpu-nodeclass.yaml`;
const NODEPOOL = `${DIR}/karpenter-blueprints-gpu-nodepool.yaml`;
const OVERLAYS = `${DIR}/karpenter-blueprints-node-overlay-gpu-slices.yaml`;

function blueprint(): Tree {
  return { ...loadReal(NODECLASS), ...loadReal(NODEPOOL), ...loadReal(OVERLAYS) };
}

describe('Karpenter pools on time-sliced GPUs (aws-samples/karpenter-blueprints)', () => {
  it('a limit of 40 advertised GPUs on 4-way Bottlerocket time-slicing is 10 physical GPUs', async () => {
    const base = blueprint();
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 80']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.delta])).toEqual([
      ['karpenter-nodepool', 'gpu-slices', 10, 20, 10],
    ]);
    const [c] = r.changes;
    const text = base[NODECLASS] ?? '';
    const source = { file: NODECLASS, line: lineIn(text, 'replicas = 4'), name: 'EC2NodeClass/gpu-bottlerocket' };
    expect(c?.before?.sharing).toEqual({ state: 'shared', factor: 4, mode: 'bottlerocket-time-slicing', source, schedulable: 40 });
    expect(c?.after?.sharing).toEqual({ state: 'shared', factor: 4, mode: 'bottlerocket-time-slicing', source, schedulable: 80 });
    expect(r.diagnostics.map((d) => d.message)).toContain(
      `NodePool gpu-slices: each GPU is advertised as 4 (Bottlerocket time-slicing in EC2NodeClass/gpu-bottlerocket (${NODECLASS}:${source.line})), so its 80 schedulable GPUs are 20 physical GPUs`,
    );
  });

  it('with only the NodeOverlays in view, their capacity over the instance GPU count gives the same factor', async () => {
    const base = { ...loadReal(NODEPOOL), ...loadReal(OVERLAYS) };
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 48']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[10, 12]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'shared', factor: 4, mode: 'node-overlay', schedulable: 48 });
  });

  it('a NodeOverlay whose GPUs per node are unknown leaves the physical count unknown, and says so', async () => {
    const overlays = (loadReal(OVERLAYS)[OVERLAYS] ?? '').replace(
      /- key: karpenter.k8s.aws\/instance-gpu-count\n\s+operator: In\n\s+values: \["1"\]\n\s+/,
      '',
    );
    const base = { ...loadReal(NODEPOOL), [OVERLAYS]: overlays };
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 48']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[40, 48]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'unknown', code: 'sharing-unreadable' });
    expect(r.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message)).toEqual([
      expect.stringContaining('NodePool gpu-slices: cannot tell its physical GPUs (sharing-unreadable)'),
    ]);
  });

  it('replicas 4 → 2 in the node class is a sharing change, and the pool beside it is not touched', async () => {
    const base = blueprint();
    const head = edited(base, [[NODECLASS, 'replicas = 4', 'replicas = 2']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([
      ['gpu-sharing', 'EC2NodeClass/gpu-bottlerocket', 4, 2],
    ]);
  });

  it('without any sharing config in view the limit stays as written', async () => {
    const base = loadReal(NODEPOOL);
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 80']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[40, 80]]);
    expect(r.changes[0]?.after?.sharing).toBeUndefined();
  });
});
