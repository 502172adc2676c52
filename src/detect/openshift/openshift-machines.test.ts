import { describe, expect, it } from 'vitest';
import { openshiftMachinesParser } from './openshift-machines.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** An AWS GPU MachineSet as OpenShift's docs write one, with its MachineAutoscaler beside it. */
const machineSet = (replicas: number, autoscaler?: number) => `apiVersion: machine.openshift.io/v1beta1
kind: MachineSet
metadata:
  name: ocp-gpu-g6-us-east-1a
  namespace: openshift-machine-api
spec:
  replicas: ${replicas}
  template:
    spec:
      providerSpec:
        value:
          apiVersion: machine.openshift.io/v1beta1
          kind: AWSMachineProviderConfig
          instanceType: g6.12xlarge
${
  autoscaler === undefined
    ? ''
    : `---
apiVersion: autoscaling.openshift.io/v1beta1
kind: MachineAutoscaler
metadata:
  name: ocp-gpu-g6-us-east-1a
  namespace: openshift-machine-api
spec:
  minReplicas: 0
  maxReplicas: ${autoscaler}
  scaleTargetRef:
    apiVersion: machine.openshift.io/v1beta1
    kind: MachineSet
    name: ocp-gpu-g6-us-east-1a
`
}`;
const FILE = 'machinesets/gpu.yaml';

describe('OpenShift MachineSets', () => {
  it('are replicas × the GPUs of their instance type', () => {
    const r = openshiftMachinesParser.parse(FILE, machineSet(2));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.gpuStep, d.line])).toEqual([
      ['openshift-machineset', 'ocp-gpu-g6-us-east-1a', 'L4', 8, 4, 7],
    ]);
  });

  it('are bounded by the maxReplicas of a MachineAutoscaler in the same file', async () => {
    const result = await detectPr({ [FILE]: machineSet(1, 2) }, { [FILE]: machineSet(1, 6) });
    expect(changeRows(result)).toEqual([
      ['openshift-machineset', 'ocp-gpu-g6-us-east-1a', 8, 24, 'L4', FILE, lineIn(machineSet(1, 6), 'maxReplicas: 6')],
    ]);
  });

  it('a MachineAutoscaler alone is left to the machine scalers reader (machine-scalers/)', () => {
    const alone = machineSet(1, 4).split('---\n')[1] ?? '';
    expect(openshiftMachinesParser.parse('autoscaler.yaml', alone)).toEqual({ decls: [], diagnostics: [], unresolved: [] });
  });

  it('CPU machine sets are no GPU capacity', () => {
    expect(openshiftMachinesParser.parse(FILE, machineSet(3).replace('g6.12xlarge', 'm6i.2xlarge'))).toEqual({
      decls: [],
      diagnostics: [],
      unresolved: [],
    });
  });
});
