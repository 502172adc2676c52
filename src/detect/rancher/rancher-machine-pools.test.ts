import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import { rancherMachinePoolsParser } from './rancher-machine-pools.js';

/** A Rancher RKE2 Cluster of one worker pool, as Rancher's docs and UI write it. */
const cluster = (pool: string) => `apiVersion: provisioning.cattle.io/v1
kind: Cluster
metadata:
  name: ml
  namespace: fleet-default
spec:
  kubernetesVersion: v1.30.4+rke2r1
  rkeConfig:
    machinePools:
    - name: cp
      quantity: 3
      controlPlaneRole: true
      etcdRole: true
      machineConfigRef:
        kind: Amazonec2Config
        name: nc-ml-cp
    - name: gpu
      workerRole: true
${pool}      machineConfigRef:
        kind: Amazonec2Config
        name: nc-ml-gpu
`;
const config = (name: string, type: string, extra = '') => `apiVersion: rke-machine-config.cattle.io/v1
kind: Amazonec2Config
metadata:
  name: ${name}
  namespace: fleet-default
region: us-east-1
instanceType: ${type}
${extra}`;
const both = (pool: string, type: string) => `${cluster(pool)}---\n${config('nc-ml-cp', 'm5.xlarge')}---\n${config('nc-ml-gpu', type)}`;

const parse = (text: string) => rancherMachinePoolsParser.parse('clusters/ml.yaml', text);
const rows = (text: string) => parse(text).decls.map((d) => [d.kind, d.name, d.gpus, d.gpuModel, d.gpuStep]);

describe('Rancher machine pools', () => {
  it('count quantity × the GPUs of the machine config’s type; CPU pools not at all', () => {
    expect(rows(both('      quantity: 2\n', 'p4d.24xlarge'))).toEqual([['capi-machinedeployment', 'ml/gpu', 16, 'A100', 8]]);
    expect(rows(both('      quantity: 2\n', 'c5.4xlarge'))).toEqual([]);
  });

  it('take one machine where quantity is not given, none where it is 0, and an autoscaled pool at its maximum', () => {
    expect(rows(both('', 'g5.xlarge'))).toEqual([['capi-machinedeployment', 'ml/gpu', 1, 'A10G', 1]]);
    expect(rows(both('      quantity: 0\n', 'g5.xlarge'))).toEqual([['capi-machinedeployment', 'ml/gpu', 0, 'A10G', 1]]);
    const scaled = '      quantity: 1\n      autoscalingMinSize: 1\n      autoscalingMaxSize: 6\n';
    expect(rows(both(scaled, 'g5.12xlarge'))).toEqual([['capi-machinedeployment', 'ml/gpu', 24, 'A10G', 4]]);
  });

  it('leave a count it cannot read, or a GPU type the catalog does not know, unknown', () => {
    expect(parse(both('      quantity: "${N}"\n', 'g5.xlarge')).unresolved?.map((u) => u.name)).toEqual(['ml/gpu']);
    expect(parse(both('      quantity: 2\n', 'g9z.48xlarge')).unresolved?.map((u) => u.name)).toEqual(['ml/gpu']);
  });

  it('do not follow a pool whose config the file does not hold, nor a GPU config no pool here uses', () => {
    const alone = parse(cluster('      quantity: 2\n'));
    expect(alone.decls).toEqual([]);
    expect(alone.notFollowed?.map((n) => [n.subject, n.needs])).toEqual([
      ['Rancher machine pool ml/cp', 'the machine config Amazonec2Config/nc-ml-cp'],
      ['Rancher machine pool ml/gpu', 'the machine config Amazonec2Config/nc-ml-gpu'],
    ]);
    expect(parse(config('nc-ml-gpu', 'p5.48xlarge')).notFollowed?.map((n) => [n.subject, n.inputs])).toEqual([
      ['Amazonec2Config nc-ml-gpu', ['p5.48xlarge, 8 GPUs per machine']],
    ]);
    expect(parse(config('nc-ml-gpu', 'm5.large')).notFollowed).toBeUndefined();
  });

  it('read the configs from a file beside the changed Cluster', async () => {
    const base = {
      'clusters/ml/cluster.yaml': cluster('      quantity: 1\n'),
      'clusters/ml/configs.yaml': `${config('nc-ml-cp', 'm5.xlarge')}---\n${config('nc-ml-gpu', 'g6.12xlarge')}`,
    };
    const r = await detectPr(base, { ...base, 'clusters/ml/cluster.yaml': cluster('      quantity: 3\n') });
    expect(changeRows(r).map((row) => row.slice(0, 4))).toEqual([['capi-machinedeployment', 'ml/gpu', 4, 12]]);
    expect(r.coverage.map((f) => f.state)).toEqual(['read']);
  });

  it('hold nothing up for a Cluster edit that leaves the pools of unseen configs be', async () => {
    const base = { 'clusters/ml.yaml': cluster('      quantity: 1\n') };
    const bump = await detectPr(base, { 'clusters/ml.yaml': base['clusters/ml.yaml'].replace('v1.30.4', 'v1.31.1') });
    expect(bump.coverage.map((f) => f.state)).toEqual(['read']);
    const grown = await detectPr(base, { 'clusters/ml.yaml': cluster('      quantity: 4\n') });
    expect(grown.coverage.map((f) => f.state)).toEqual(['not-followed']);
  });
});
