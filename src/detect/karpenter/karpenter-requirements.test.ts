import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { karpenterParser } from './karpenter.js';
import { readRequirements } from './karpenter-requirements.js';

const requirements = (yaml: string) => readRequirements(parseDocument(yaml).contents);
const req = (key: string, operator: string, values: string[] = []) =>
  `- key: ${key}\n  operator: ${operator}\n  values: [${values.map((v) => JSON.stringify(v)).join(', ')}]\n`;

describe('Karpenter requirements on GPU dimensions', () => {
  it('admit GPUs through the SKU labels of Karpenter on Azure', () => {
    const admits = (key: string, operator: string, values: string[] = []) =>
      requirements(req(`karpenter.azure.com/${key}`, operator, values)).allowsGpu;
    expect(admits('sku-family', 'In', ['N'])).toBe(true);
    expect(admits('sku-family', 'In', ['D', 'NC'])).toBe(true);
    expect(admits('sku-series', 'In', ['NCads_H100_v5'])).toBe(true);
    expect(admits('sku-gpu-count', 'Gt', ['0'])).toBe(true);
    expect(admits('sku-gpu-count', 'In', ['1', '2'])).toBe(true);
    expect(admits('sku-gpu-manufacturer', 'In', ['nvidia'])).toBe(true);
    expect(admits('sku-gpu-name', 'Exists')).toBe(true);
    expect(requirements(req('karpenter.azure.com/sku-gpu-name', 'In', ['A100'])).gpuNames).toEqual(['A100']);
    expect(requirements(req('karpenter.azure.com/sku-name', 'In', ['Standard_NC24ads_A100_v4'])).allowsGpu).toBe(true);
    // CPU families, and requirements that keep GPUs out.
    expect(admits('sku-family', 'In', ['D', 'F'])).toBe(false);
    expect(admits('sku-family', 'NotIn', ['N'])).toBe(false);
    expect(admits('sku-gpu-count', 'In', ['0'])).toBe(false);
    expect(admits('sku-gpu-count', 'DoesNotExist')).toBe(false);
    expect(requirements(req('karpenter.azure.com/sku-name', 'In', ['Standard_D4s_v5'])).allowsGpu).toBe(false);
  });

  it('admit GPUs through the GPU maker and memory of Karpenter on EC2 and EKS Auto Mode', () => {
    for (const prefix of ['karpenter.k8s.aws/', 'eks.amazonaws.com/']) {
      expect(requirements(req(`${prefix}instance-gpu-manufacturer`, 'In', ['nvidia'])).allowsGpu).toBe(true);
      expect(requirements(req(`${prefix}instance-gpu-memory`, 'Gt', ['20000'])).allowsGpu).toBe(true);
      expect(requirements(req(`${prefix}instance-gpu-manufacturer`, 'DoesNotExist')).allowsGpu).toBe(false);
    }
  });

  it('make a pool they admit GPUs to unbounded without a GPU limit, never a CPU pool', () => {
    const pool = (requirement: string, limits: string) =>
      `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.azure.com
        kind: AKSNodeClass
        name: default
      requirements:
${requirement.replace(/^/gm, '      ').trimEnd()}
  limits:
${limits}
`;
    const r = karpenterParser.parse('nodepools/gpu.yaml', pool(req('karpenter.azure.com/sku-family', 'In', ['N']), '    cpu: 100'));
    expect(r.unresolved).toEqual([expect.objectContaining({ kind: 'karpenter-nodepool', name: 'gpu', unboundedBy: 'nvidia.com/gpu' })]);
    const bounded = karpenterParser.parse(
      'nodepools/gpu.yaml',
      pool(req('karpenter.azure.com/sku-gpu-name', 'In', ['H100']), '    nvidia.com/gpu: 16'),
    );
    expect(bounded.decls.map((d) => [d.name, d.gpus, d.gpuModel])).toEqual([['gpu', 16, 'H100']]);
    const cpu = karpenterParser.parse('nodepools/gpu.yaml', pool(req('karpenter.azure.com/sku-family', 'In', ['D']), '    cpu: 100'));
    expect([cpu.decls, cpu.unresolved]).toEqual([[], []]);
  });
});
