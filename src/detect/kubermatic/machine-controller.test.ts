import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import { machineControllerParser } from './machine-controller.js';

/** A machine-controller group as its examples write one. */
const group = (o: {
  name: string;
  type: string;
  field?: string;
  replicas?: number;
  kind?: string;
  spec?: string;
  max?: number;
}) => `apiVersion: "cluster.k8s.io/v1alpha1"
kind: ${o.kind ?? 'MachineDeployment'}
metadata:
  name: ${o.name}
  namespace: kube-system
${o.max === undefined ? '' : `  annotations:\n    cluster.k8s.io/cluster-api-autoscaler-node-group-max-size: "${o.max}"\n`}spec:
${o.replicas === undefined ? '' : `  replicas: ${o.replicas}\n`}  template:
    spec:
      ${o.spec ?? 'providerSpec'}:
        value:
          cloudProvider: "aws"
          cloudProviderSpec:
            region: "eu-central-1"
            ${o.field ?? 'instanceType'}: "${o.type}"
            diskSize: 50
`;
const rows = (text: string) => machineControllerParser.parse('md.yaml', text).decls.map((d) => [d.name, d.gpus, d.gpuStep]);

describe('machine-controller groups', () => {
  it('count replicas (1 when unset) or the autoscaler max-size × the GPUs of the type, in either provider field', () => {
    for (const spec of ['providerSpec', 'providerConfig']) {
      for (const kind of ['MachineDeployment', 'MachineSet']) {
        expect(rows(group({ name: 'a', type: 'p3.8xlarge', replicas: 2, spec, kind }))).toEqual([['a', 8, 4]]);
        expect(rows(group({ name: 'a', type: 'p3.8xlarge', spec, kind }))).toEqual([['a', 4, 4]]);
        expect(rows(group({ name: 'a', type: 'p3.8xlarge', replicas: 1, max: 5, spec, kind }))).toEqual([['a', 20, 4]]);
      }
    }
    expect(rows(group({ name: 'az', type: 'Standard_NC24ads_A100_v4', field: 'vmSize', replicas: 3 }))).toEqual([['az', 3, 1]]);
    expect(rows(group({ name: 'gce', type: 'a2-highgpu-2g', field: 'machineType', replicas: 3 }))).toEqual([['gce', 6, 2]]);
  });

  it('a CPU type is no capacity; a GPU-looking type not in the catalog is unknown, said so', () => {
    expect(machineControllerParser.parse('md.yaml', group({ name: 'a', type: 't2.micro', replicas: 9 }))).toEqual({
      decls: [],
      diagnostics: [],
      unresolved: [],
    });
    const r = machineControllerParser.parse('md.yaml', group({ name: 'a', type: 'p9.48xlarge', replicas: 1 }));
    expect([r.decls, (r.unresolved ?? []).map((u) => u.name), r.diagnostics.map((d) => d.severity)]).toEqual([[], ['a'], ['warning']]);
  });

  it('a CPU group grown beside a GPU one in the same file is no change, and the file is read', async () => {
    const base = `${group({ name: 'gpu', type: 'g5.12xlarge', replicas: 2 })}---\n${group({ name: 'cpu', type: 'm5.large', replicas: 2 })}`;
    const head = base.replace(
      'replicas: 2\n  template:\n    spec:\n      providerSpec:\n        value:\n          cloudProvider: "aws"\n          cloudProviderSpec:\n            region: "eu-central-1"\n            instanceType: "m5.large"',
      'replicas: 6\n  template:\n    spec:\n      providerSpec:\n        value:\n          cloudProvider: "aws"\n          cloudProviderSpec:\n            region: "eu-central-1"\n            instanceType: "m5.large"',
    );
    expect(head).not.toBe(base);
    const result = await detectPr({ 'md.yaml': base }, { 'md.yaml': head });
    expect([result.changes, result.coverage.map((c) => c.state)]).toEqual([[], ['read']]);
    const grown = await detectPr({ 'md.yaml': base }, { 'md.yaml': base.replace('replicas: 2', 'replicas: 3') });
    expect(grown.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([['capi-machinedeployment', 'gpu', 8, 12]]);
  });
});
