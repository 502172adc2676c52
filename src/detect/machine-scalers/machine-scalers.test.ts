import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { machineScalersParser } from './machine-scalers.js';

/** A scaler of each kind, as its project documents it, whose target is a group of machines. */
const SCALERS: Record<string, (target: string, kind: string, max: number) => string> = {
  MachineAutoscaler: (target, kind, max) => `apiVersion: autoscaling.openshift.io/v1beta1
kind: MachineAutoscaler
metadata:
  name: ${target}
  namespace: openshift-machine-api
spec:
  minReplicas: 0
  maxReplicas: ${max}
  scaleTargetRef:
    apiVersion: machine.openshift.io/v1beta1
    kind: ${kind}
    name: ${target}
`,
  ScaledObject: (target, kind, max) => `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: scale-${target}
  namespace: openshift-machine-api
spec:
  cooldownPeriod: 300
  minReplicaCount: 0
  maxReplicaCount: ${max}
  scaleTargetRef:
    apiVersion: machine.openshift.io/v1beta1
    kind: ${kind}
    name: ${target}
  triggers:
    - type: prometheus
      metadata:
        query: sum(kube_pod_status_unschedulable)
        threshold: '1'
`,
  HorizontalPodAutoscaler: (target, kind, max) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${target}
spec:
  scaleTargetRef:
    apiVersion: cluster.x-k8s.io/v1beta1
    kind: ${kind}
    name: ${target}
  minReplicas: 1
  maxReplicas: ${max}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
`,
};

const FILE = 'cluster/scaler.yaml';
const grown = (text: string, max: number) => text.replace(/(max(?:Replicas|ReplicaCount): )\d+/, `$1${max * 2}`);

async function state(base: string, head: string, extra: Tree = {}): Promise<string | undefined> {
  const result = await detectPr({ ...extra, [FILE]: base }, { ...extra, [FILE]: head });
  expect(result.changes).toEqual([]);
  return result.coverage.find((c) => c.file === FILE)?.state;
}

describe('scalers of machine groups', () => {
  // Every scaler kind × target kind × a target named for GPUs or not: the name says nothing of the machines.
  for (const [scaler, make] of Object.entries(SCALERS)) {
    for (const kind of ['MachineSet', 'MachineDeployment', 'MachinePool']) {
      for (const target of ['gpu-a10', 'workers-us-east-1a']) {
        it(`${scaler} of ${kind} ${target}: a raised bound is not followed; another field is no change`, async () => {
          const text = make(target, kind, 4);
          expect(await state(text, grown(text, 4))).toBe('not-followed');
          expect(await state(text, text.replace('name: ', 'name: x-').replace('name: x-', 'name: '))).toBeUndefined();
          const other = text.includes('cooldownPeriod')
            ? text.replace('cooldownPeriod: 300', 'cooldownPeriod: 600')
            : text
                .replace('minReplicas: 0', 'minReplicas: 1')
                .replace('stabilizationWindowSeconds: 300', 'stabilizationWindowSeconds: 600');
          expect(await state(text, other)).not.toBe('not-followed');
        });
      }
    }
  }

  // The same target and bound spelt otherwise at head, as go-yaml reads them: no change; a bound raised so spelt, not followed.
  for (const [scaler, make] of Object.entries(SCALERS)) {
    for (const [spelling, respell] of [
      ['a block-scalar name', (t: string) => t.replace(/^(\s+)name: (gpu-a10)$/m, '$1name: >-\n$1  $2')],
      ['a literal block-scalar name', (t: string) => t.replace(/^(\s+)name: (gpu-a10)$/m, '$1name: |-\n$1  $2')],
      ['an octal bound', (t: string) => t.replace(/(max\w*): 4$/m, '$1: 0o4')],
      ['a binary bound', (t: string) => t.replace(/(max\w*): 4$/m, '$1: 0b100')],
    ] as const) {
      it(`${scaler}: ${spelling} at head is the same target and bound`, async () => {
        const text = make('gpu-a10', 'MachineSet', 4);
        const head = respell(text);
        expect(head).not.toBe(text);
        expect(await state(text, head)).not.toBe('not-followed');
        expect(await state(text, respell(grown(text, 4)))).toBe('not-followed');
      });
    }
  }

  it('a new scaler of machines is not followed; one of a Deployment is not read at all', async () => {
    const text = SCALERS.ScaledObject?.('gpu-keda', 'MachineSet', 3) ?? '';
    const result = await detectPr({ 'other.yaml': 'a: 1\n' }, { 'other.yaml': 'a: 1\n', [FILE]: text });
    expect(result.coverage.find((c) => c.file === FILE)?.notFollowed).toEqual([
      expect.objectContaining({ line: 9, reason: 'count-unknown', subject: 'MachineSet gpu-keda' }),
    ]);
    const app = text.replace('kind: MachineSet', 'kind: Deployment');
    expect(machineScalersParser.mightContain(FILE, app)).toBe(false);
  });

  it('KEDA without maxReplicaCount scales to 100; an HPA without maxReplicas is named as such', () => {
    const keda = (SCALERS.ScaledObject?.('gpu', 'MachineSet', 3) ?? '').replace('  maxReplicaCount: 3\n', '');
    expect(machineScalersParser.parse(FILE, keda).notFollowed?.[0]?.needs).toContain('up to 100 machines');
    const hpa = (SCALERS.HorizontalPodAutoscaler?.('gpu', 'MachineDeployment', 3) ?? '').replace('  maxReplicas: 3\n', '');
    expect(machineScalersParser.parse(FILE, hpa).notFollowed?.[0]?.needs).toContain('sets no maxReplicas');
  });

  it('a scaler of any kind beside its MachineSet is left to the OpenShift reader, which counts it by the bound', async () => {
    const set = `apiVersion: machine.openshift.io/v1beta1
kind: MachineSet
metadata:
  name: gpu-a10
spec:
  replicas: 1
  template:
    spec:
      providerSpec:
        value:
          instanceType: g5.xlarge
---
`;
    for (const make of Object.values(SCALERS)) {
      const text = set + make('gpu-a10', 'MachineSet', 4).replace('cluster.x-k8s.io', 'machine.openshift.io');
      expect(machineScalersParser.parse(FILE, text).notFollowed).toBeUndefined();
      const result = await detectPr({ [FILE]: text }, { [FILE]: grown(text, 4) });
      expect(result.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([['openshift-machineset', 'gpu-a10', 4, 8]]);
      expect(result.coverage.map((c) => c.state)).toEqual(['read']);
    }
    // Beside a CPU MachineSet, a raised bound is no GPU change.
    const cpu = set.replace('g5.xlarge', 'm6i.xlarge') + (SCALERS.ScaledObject?.('gpu-a10', 'MachineSet', 4) ?? '');
    const result = await detectPr({ [FILE]: cpu }, { [FILE]: grown(cpu, 4) });
    expect([result.changes, result.coverage.map((c) => c.state)]).toEqual([[], ['read']]);
  });
});
