import { describe, expect, it } from 'vitest';
import { detectPr } from '../../test/detect/real-fixtures.js';
import type { Tree } from '../../test/detect/real-fixtures.js';

const autoscaler = (max: number) => `apiVersion: autoscaling.openshift.io/v1beta1
kind: MachineAutoscaler
metadata:
  name: infra-compute-eu-west-1a
  namespace: openshift-machine-api
spec:
  minReplicas: 1
  maxReplicas: ${max}
  scaleTargetRef:
    apiVersion: machine.openshift.io/v1beta1
    kind: MachineSet
    name: infra-compute-eu-west-1a
`;
const machineSet = (type: string) => `apiVersion: machine.openshift.io/v1beta1
kind: MachineSet
metadata:
  name: infra-compute-eu-west-1a
  namespace: openshift-machine-api
spec:
  replicas: 1
  template:
    spec:
      providerSpec:
        value:
          kind: AWSMachineProviderConfig
          instanceType: ${type}
`;
const machineDeployment = (replicas: number) => `apiVersion: cluster.x-k8s.io/v1beta1
kind: MachineDeployment
metadata:
  name: workers-md-0
spec:
  clusterName: workers
  replicas: ${replicas}
  template:
    spec:
      clusterName: workers
      infrastructureRef:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
        kind: AWSMachineTemplate
        name: workers-md-0
`;
const template = (type: string) => `apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: AWSMachineTemplate
metadata:
  name: workers-md-0
spec:
  template:
    spec:
      instanceType: ${type}
`;

const rows = async (base: Tree, head: Tree) => {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.file]),
    states: r.coverage.map((c) => [c.file, c.state]),
  };
};

describe('objects a changed file names, in the files beside it', () => {
  // Each object in a file of its own: side by side, or in folders side by side (machineautoscaler/, machineset/).
  for (const [scalerPath, setPath] of [
    ['ocp/autoscaler.yaml', 'ocp/machineset.yaml'],
    ['ocp/machineautoscaler/compute.yaml', 'ocp/machineset/compute.yaml'],
  ] as const) {
    it(`a MachineAutoscaler (${scalerPath}) counts the GPU MachineSet it scales (${setPath}) by its bound`, async () => {
      const tree = { [setPath]: machineSet('g5.12xlarge'), [scalerPath]: autoscaler(4) };
      expect(await rows(tree, { ...tree, [scalerPath]: autoscaler(8) })).toEqual({
        changes: [['openshift-machineset', 'infra-compute-eu-west-1a', 16, 32, scalerPath]],
        states: [[scalerPath, 'read']],
      });
    });

    it(`a MachineAutoscaler (${scalerPath}) of a CPU MachineSet (${setPath}) raised is no change`, async () => {
      const tree = { [setPath]: machineSet('m6i.2xlarge'), [scalerPath]: autoscaler(4) };
      expect(await rows(tree, { ...tree, [scalerPath]: autoscaler(8) })).toEqual({ changes: [], states: [[scalerPath, 'read']] });
    });
  }

  it('a MachineAutoscaler whose MachineSet is nowhere near is not followed', async () => {
    const tree = {
      'ocp/other/set.yaml': machineSet('g5.12xlarge').replace('infra-compute', 'other'),
      'ocp/a/autoscaler.yaml': autoscaler(4),
    };
    const r = await rows(tree, { ...tree, 'ocp/a/autoscaler.yaml': autoscaler(8) });
    expect(r).toEqual({ changes: [], states: [['ocp/a/autoscaler.yaml', 'not-followed']] });
  });

  it('a MachineDeployment counts the GPU template beside it; a CPU one is no change; none near is not followed', async () => {
    const tree = { 'capi/md.yaml': machineDeployment(2), 'capi/templates.yaml': template('p4d.24xlarge') };
    expect(await rows(tree, { ...tree, 'capi/md.yaml': machineDeployment(4) })).toEqual({
      changes: [['capi-machinedeployment', 'workers-md-0', 16, 32, 'capi/md.yaml']],
      states: [['capi/md.yaml', 'read']],
    });
    const cpu = { ...tree, 'capi/templates.yaml': template('m5.large') };
    expect(await rows(cpu, { ...cpu, 'capi/md.yaml': machineDeployment(4) })).toEqual({ changes: [], states: [['capi/md.yaml', 'read']] });
    const alone = { 'capi/md.yaml': machineDeployment(2) };
    expect(await rows(alone, { 'capi/md.yaml': machineDeployment(4) })).toEqual({
      changes: [],
      states: [['capi/md.yaml', 'not-followed']],
    });
    // The same count and template at both sides: another field changed is no capacity.
    const relabelled = machineDeployment(2).replace(
      'clusterName: workers\n  replicas',
      'clusterName: workers\n  minReadySeconds: 10\n  replicas',
    );
    expect(await rows(alone, { 'capi/md.yaml': relabelled })).toEqual({ changes: [], states: [['capi/md.yaml', 'read']] });
  });

  it('the template changed at the same time is read at each side as it is there', async () => {
    const tree = { 'capi/md.yaml': machineDeployment(2), 'capi/templates.yaml': template('m5.large') };
    const head = { 'capi/md.yaml': machineDeployment(3), 'capi/templates.yaml': template('g5.48xlarge') };
    const r = await rows(tree, head);
    expect(r.changes).toEqual([['capi-machinedeployment', 'workers-md-0', 0, 24, 'capi/md.yaml']]);
  });
});
