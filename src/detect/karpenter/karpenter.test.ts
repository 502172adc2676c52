import { describe, expect, it } from 'vitest';
import { lineOf, yaml } from '../../../test/detect/fixtures.js';
import { compareSides } from '../compare.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);
const warnings = (r: ParseResult) => r.diagnostics.filter((d) => d.severity === 'warning');

const nodePool = (limit: string, extra = '') => yaml`
  apiVersion: karpenter.sh/v1
  kind: NodePool
  metadata:
    name: gpu
  spec:
    template:
      spec:
        requirements:
          - key: karpenter.k8s.aws/instance-type
            operator: In
            values: ["p5.48xlarge"]
    limits:
      cpu: "1000"
      nvidia.com/gpu: ${limit}
  ${extra}
`;

describe('Karpenter', () => {
  it.each([
    ['16', 16],
    ['"16"', 16],
    ["'24'", 24],
  ])('reads limit %s as a quantity', (limit, gpus) => {
    const r = detectFile('pool.yaml', nodePool(limit));
    expect(counts(r)).toEqual([['karpenter-nodepool', 'gpu', gpus]]);
    expect(r.decls[0]?.gpuModel).toBe('H100');
    expect(r.decls[0]?.line).toBe(lineOf(nodePool(limit), 'nvidia.com/gpu:'));
  });

  it('flags a templated limit, naming it, and keeps the pool as unknown', () => {
    const text = nodePool('{{ .Values.gpuLimit }}');
    const r = detectFile('templates/pool.yaml', text);
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(warnings(r).map((d) => [d.line, d.message.includes('{{ .Values.gpuLimit }}')])).toEqual([
      [lineOf(text, 'nvidia.com/gpu:'), true],
    ]);
  });

  it('takes the last of repeated keys, as Kubernetes does', () => {
    const text = nodePool('8').replace('    nvidia.com/gpu: 8', '    nvidia.com/gpu: 8\n    nvidia.com/gpu: 32');
    expect(counts(detectFile('pool.yaml', text))).toEqual([['karpenter-nodepool', 'gpu', 32]]);
  });

  it('does not count a commented-out limit: the pool is unbounded', () => {
    const text = nodePool('8').replace('    nvidia.com/gpu: 8', '    # nvidia.com/gpu: 8');
    const r = detectFile('pool.yaml', text);
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toContain('no nvidia.com/gpu limit: the pool can grow without bound');
  });

  it('counts a static pool pinned to one type as replicas × GPUs per instance', () => {
    const text = nodePool('80').replace('  template:', '  replicas: 3\n  template:');
    expect(counts(detectFile('pool.yaml', text))).toEqual([['karpenter-nodepool', 'gpu', 24]]);
  });

  it('reads every NodePool of a multi-document file and ignores CPU pools', () => {
    const cpu = yaml`
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata:
        name: cpu
      spec:
        template:
          spec:
            requirements:
              - key: karpenter.k8s.aws/instance-family
                operator: In
                values: ["m7i"]
    `;
    const r = detectFile('pools.yaml', `${cpu}\n---\n${nodePool('8')}`);
    expect(counts(r)).toEqual([['karpenter-nodepool', 'gpu', 8]]);
    expect(r.diagnostics).toEqual([]);
  });

  it('compares base and head, with a default price', () => {
    const [change] = compareSides(detectFile('pool.yaml', nodePool('8')), detectFile('pool.yaml', nodePool('16')));
    expect(change).toMatchObject({ kind: 'karpenter-nodepool', name: 'gpu', gpusBefore: 8, gpusAfter: 16, delta: 8, gpuModel: 'H100' });
    expect(change?.usdPerMonthDelta).toBeCloseTo(8 * (change?.usdPerGpuHour ?? NaN) * 730, 2);
  });
});
