import { describe, expect, it } from 'vitest';
import { compareSides } from '../../src/detect/compare.js';
import { detectFile } from '../../src/detect/detect-file.js';
import { isGpuResource, isWholeGpuResource, normaliseGpuModel } from '../../src/detect/kit/gpu-resources.js';
import type { ParseResult } from '../../src/detect/parser.js';
import { lineOf, parseKueue, queueYaml, yaml } from './fixtures.js';

const parts = (r: ParseResult) => r.decls.flatMap((d) => d.parts.map((p) => [d.name, p.resource, p.gpus]));

describe('GPU resource names of other vendors', () => {
  it('amd.com/gpu and Intel i915/xe are whole GPUs; meters and labels are not', () => {
    for (const name of ['nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915', 'gpu.intel.com/xe']) {
      expect([name, isGpuResource(name), isWholeGpuResource(name)]).toEqual([name, true, true]);
    }
    for (const name of [
      'gpu.intel.com/i915_monitoring',
      'gpu.intel.com/millicores',
      'gpu.intel.com/memory.max',
      'amd.com/gpu.product-name',
      'amd.com/cpu',
    ]) {
      expect([name, isGpuResource(name)]).toEqual([name, false]);
    }
    // MIG slices stay GPU resources but not whole GPUs.
    expect([isGpuResource('nvidia.com/mig-1g.5gb'), isWholeGpuResource('nvidia.com/mig-1g.5gb')]).toEqual([true, false]);
  });

  it('the ROCm node labeller product name gives the model', () => {
    expect(normaliseGpuModel('AMD_Instinct_MI300X_OAM')).toBe('MI300X');
    expect(normaliseGpuModel('AMD_Instinct_MI250X')).toBe('MI250X');
    expect(normaliseGpuModel('NVIDIA-A100-SXM4-80GB')).toBe('A100');
  });
});

describe('Kueue quotas of amd.com/gpu', () => {
  const amdQueue = (quota: string) =>
    `${yaml`
    apiVersion: kueue.x-k8s.io/v1beta1
    kind: ResourceFlavor
    metadata:
      name: mi300x
    spec:
      nodeLabels:
        amd.com/gpu.product-name: AMD_Instinct_MI300X_OAM
    ---
  `}\n${queueYaml({ name: 'rocm', flavors: [['mi300x', 'amd.com/gpu', quota]] })}`;

  it('counts amd.com/gpu nominalQuota as GPUs, with the model from the flavor label', () => {
    const text = amdQueue('16');
    const r = parseKueue(text);
    expect(r.decls.map((d) => [d.name, d.gpus, d.gpuModel, d.line])).toEqual([['rocm', 16, 'MI300X', lineOf(text, 'nominalQuota')]]);
    expect(parts(r)).toEqual([['rocm', 'amd.com/gpu', 16]]);
    expect(r.diagnostics).toEqual([]);
  });

  it('raising the quota is a GPU change', () => {
    const [change] = compareSides(parseKueue(amdQueue('8')), parseKueue(amdQueue('24')));
    expect(change).toMatchObject({
      kind: 'kueue-cluster-queue',
      name: 'rocm',
      gpusBefore: 8,
      gpusAfter: 24,
      delta: 16,
      gpuModel: 'MI300X',
    });
  });

  it('nvidia.com/gpu and amd.com/gpu flavors add up; MIG slices beside them still do not count', () => {
    const text = queueYaml({
      name: 'mixed',
      flavors: [
        ['h100', 'nvidia.com/gpu', '8'],
        ['mi300x', 'amd.com/gpu', '4'],
        ['mig', 'nvidia.com/mig-1g.5gb', '14'],
      ],
    });
    const r = parseKueue(text);
    expect(r.decls.map((d) => [d.gpus, d.line])).toEqual([[12, lineOf(text, 'nominalQuota: 8')]]);
    expect(r.diagnostics).toEqual([]);
  });

  it('an Intel-only queue counts gpu.intel.com/i915 without the "no nvidia.com/gpu" note', () => {
    const r = parseKueue(
      queueYaml({
        name: 'arc',
        flavors: [
          ['flex', 'gpu.intel.com/i915', '6'],
          ['flex', 'gpu.intel.com/millicores', '6000'],
        ],
      }),
    );
    expect(parts(r)).toEqual([['arc', 'gpu.intel.com/i915', 6]]);
    expect(r.diagnostics).toEqual([]);
  });
});

const karpenter = (limits: string, taint = '') => yaml`
  apiVersion: karpenter.sh/v1
  kind: NodePool
  metadata:
    name: rocm
  spec:
    template:
      spec:
        requirements:
          - key: node.kubernetes.io/instance-type
            operator: In
            values: ["g4ad.16xlarge"]
        taints: [${taint}]
    limits:
      cpu: "1000"
${limits}
`;

describe('Karpenter limits of amd.com/gpu', () => {
  it('counts limits["amd.com/gpu"] as the GPU ceiling', () => {
    const text = karpenter('      amd.com/gpu: 12');
    const r = detectFile('pool.yaml', text);
    expect(r.decls.map((d) => [d.name, d.gpus, d.line])).toEqual([['rocm', 12, lineOf(text, 'amd.com/gpu:')]]);
    expect(parts(r)).toEqual([['rocm', 'amd.com/gpu', 12]]);
  });

  it('NVIDIA and AMD limits of one pool add up', () => {
    const r = detectFile('pool.yaml', karpenter('      nvidia.com/gpu: 8\n      amd.com/gpu: 4'));
    expect(r.decls.map((d) => d.gpus)).toEqual([12]);
    expect(parts(r)).toEqual([
      ['rocm', 'nvidia.com/gpu', 8],
      ['rocm', 'amd.com/gpu', 4],
    ]);
  });

  it('an amd.com/gpu taint without a limit is an unbounded GPU pool, named by its resource', () => {
    const r = detectFile('pool.yaml', karpenter('', '{key: amd.com/gpu, effect: NoSchedule}'));
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['rocm']);
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('no amd.com/gpu limit: the pool can grow without bound')]);
  });

  it('a templated amd.com/gpu limit names the resource', () => {
    const r = detectFile('pool.yaml', karpenter('      amd.com/gpu: "{{ .Values.amdGpus }}"'));
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('the amd.com/gpu limit is the template expression')]);
  });
});

describe("Karpenter: another vendor's limit is no ceiling for NVIDIA instances", () => {
  const pool = (requirement: string, limits: string) => yaml`
    apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata:
      name: gpu
    spec:
      template:
        spec:
          requirements:
            - ${requirement}
      limits:
        cpu: "1000"
  ${limits}
  `;
  // Requirements that let the pool launch NVIDIA GPU instances, with each other vendor's limit.
  const NVIDIA = [
    '{key: karpenter.k8s.aws/instance-family, operator: In, values: [g5]}',
    '{key: karpenter.k8s.aws/instance-family, operator: In, values: [g4dn, p4d, p5]}',
    '{key: eks.amazonaws.com/instance-family, operator: In, values: [g6e]}',
    '{key: node.kubernetes.io/instance-type, operator: In, values: [p5.48xlarge]}',
    '{key: karpenter.k8s.aws/instance-type, operator: In, values: [g5.xlarge, g5.12xlarge]}',
  ];
  const OTHERS = ['amd.com/gpu', 'gpu.intel.com/i915', 'gpu.intel.com/xe'];

  it('leaves the pool unbounded on nvidia.com/gpu, whatever the requirement and the other limit', () => {
    for (const requirement of NVIDIA) {
      for (const other of OTHERS) {
        for (const n of [1, 8, 64]) {
          const r = detectFile('pool.yaml', pool(requirement, `      ${other}: ${n}`));
          expect(r.decls).toEqual([]);
          expect(r.unresolved?.map((u) => [u.name, u.unboundedBy])).toEqual([['gpu', 'nvidia.com/gpu']]);
          expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('no nvidia.com/gpu limit')]);
        }
      }
    }
  });

  it('still counts the NVIDIA limit, and another vendor limit where the pool allows no NVIDIA instance', () => {
    for (const requirement of NVIDIA) {
      const r = detectFile('pool.yaml', pool(requirement, '      nvidia.com/gpu: 16'));
      expect(r.decls.map((d) => d.gpus)).toEqual([16]);
    }
    for (const other of OTHERS) {
      for (const requirement of [
        '{key: karpenter.k8s.aws/instance-family, operator: In, values: [g4ad]}',
        '{key: karpenter.k8s.aws/instance-gpu-count, operator: Gt, values: ["0"]}',
      ]) {
        const r = detectFile('pool.yaml', pool(requirement, `      ${other}: 4`));
        expect(r.decls.map((d) => d.gpus)).toEqual([4]);
      }
    }
  });
});

describe('Cluster API gpu-type annotation', () => {
  const md = (type: string) => yaml`
    apiVersion: cluster.x-k8s.io/v1beta1
    kind: MachineDeployment
    metadata:
      name: rocm-md
      annotations:
        cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size: "4"
        capacity.cluster-autoscaler.kubernetes.io/gpu-type: "${type}"
        capacity.cluster-autoscaler.kubernetes.io/gpu-count: "8"
    spec:
      replicas: 0
  `;

  it('the part carries the resource the annotation names', () => {
    expect(parts(detectFile('md.yaml', md('amd.com/gpu')))).toEqual([['rocm-md', 'amd.com/gpu', 32]]);
    expect(parts(detectFile('md.yaml', md('nvidia.com/gpu')))).toEqual([['rocm-md', 'nvidia.com/gpu', 32]]);
  });
});
