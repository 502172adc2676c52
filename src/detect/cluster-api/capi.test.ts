import { describe, expect, it } from 'vitest';
import { yaml } from '../../../test/detect/fixtures.js';
import { compareSides } from '../compare.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);
const warnings = (r: ParseResult) => r.diagnostics.filter((d) => d.severity === 'warning');

const capi = (replicas: string, annotations = '') => yaml`
  apiVersion: cluster.x-k8s.io/v1beta1
  kind: MachineDeployment
  metadata:
    name: gpu-md
    annotations: {${annotations}}
  spec:
    replicas: ${replicas}
    template:
      spec:
        infrastructureRef:
          apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
          kind: AWSMachineTemplate
          name: gpu-tmpl
  ---
  apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
  kind: AWSMachineTemplate
  metadata:
    name: gpu-tmpl
  spec:
    template:
      spec:
        instanceType: g5.12xlarge
`;

describe('Cluster API', () => {
  it('counts replicas × the referenced template type', () => {
    const r = detectFile('md.yaml', capi('3'));
    expect(counts(r)).toEqual([['capi-machinedeployment', 'gpu-md', 12]]);
    expect(r.decls[0]?.gpuModel).toBe('A10G');
  });

  it('lets the autoscaler max-size annotation win over replicas', () => {
    const r = detectFile('md.yaml', capi('1', '"cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size": "5"'));
    expect(counts(r)).toEqual([['capi-machinedeployment', 'gpu-md', 20]]);
  });

  it('names an envsubst replica count with its default', () => {
    const r = detectFile('md.yaml', capi('${WORKERS:=2}'));
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toContain('${WORKERS:=2} (default 2)');
  });

  it('compares base and head', () => {
    const [change] = compareSides(detectFile('md.yaml', capi('3')), detectFile('md.yaml', capi('1')));
    expect(change).toMatchObject({ kind: 'capi-machinedeployment', gpusBefore: 12, gpusAfter: 4, delta: -8 });
    expect(change?.usdPerMonthDelta).toBeLessThan(0);
  });
});
