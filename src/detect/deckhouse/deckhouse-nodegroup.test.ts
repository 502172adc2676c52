import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import { deckhouseNodeGroupParser } from './deckhouse-nodegroup.js';

/** The shape of Deckhouse's NodeGroup example (node-manager "Usage"), its class beside it or not. */
const group = (o: { max?: number | string; zones?: string; kind?: string; taint?: string } = {}) =>
  `apiVersion: deckhouse.io/v1
kind: NodeGroup
metadata:
  name: gpu
spec:
  nodeType: CloudEphemeral
  cloudInstances:
${o.zones ?? '    zones:\n    - eu-west-1a\n    - eu-west-1b\n'}    minPerZone: 0
    maxPerZone: ${o.max ?? 2}
    classReference:
      kind: ${o.kind ?? 'AWSInstanceClass'}
      name: gpu
  nodeTemplate:
    taints:
    - key: dedicated
      value: ${o.taint ?? 'gpu'}
      effect: NoSchedule
`;
const awsClass = (type: string) => `---
apiVersion: deckhouse.io/v1
kind: AWSInstanceClass
metadata:
  name: gpu
spec:
  instanceType: ${type}
`;
const FILE = 'clusters/prod/nodegroups/gpu.yaml';
const parse = (text: string) => deckhouseNodeGroupParser.parse(FILE, text);

describe('Deckhouse NodeGroup', () => {
  it('counts maxPerZone × zones × the GPUs of the instance class beside it', () => {
    expect(parse(group() + awsClass('p3.8xlarge')).decls.map((d) => [d.kind, d.name, d.gpus, d.gpuModel, d.gpuStep, d.line])).toEqual([
      ['deckhouse-nodegroup', 'gpu', 16, 'V100', 4, 12],
    ]);
    const gcp = `---\napiVersion: deckhouse.io/v1\nkind: GCPInstanceClass\nmetadata:\n  name: gpu\nspec:\n  machineType: a2-highgpu-8g\n`;
    expect(parse(group({ kind: 'GCPInstanceClass', max: 1 }) + gcp).decls.map((d) => d.gpus)).toEqual([16]);
    expect(parse(group() + awsClass('m5.large')).decls).toEqual([]);
    expect(parse(group() + awsClass('m5.large')).notFollowed).toBeUndefined();
  });

  it('is unknown, never 0, when the zones or the bound cannot be told', () => {
    for (const o of [{ zones: '' }, { max: '${max}' }, { max: '"4"' }]) {
      const r = parse(group(o) + awsClass('p3.8xlarge'));
      expect(r.decls).toEqual([]);
      expect(r.unresolved).toEqual([expect.objectContaining({ kind: 'deckhouse-nodegroup', name: 'gpu' })]);
    }
  });

  it('takes a class of a provider the catalog does not list for unknown once it names a GPU', () => {
    const openstack = (flavor: string) =>
      `---\napiVersion: deckhouse.io/v1\nkind: OpenStackInstanceClass\nmetadata:\n  name: gpu\nspec:\n  flavorName: ${flavor}\n`;
    expect(parse(group({ kind: 'OpenStackInstanceClass' }) + openstack('gpu.1xa100')).unresolved).toHaveLength(1);
    expect(parse(group({ kind: 'OpenStackInstanceClass' }) + openstack('m1.large')).unresolved).toEqual([]);
  });

  it('does not follow a group whose class is in another file while its bound or class changes', async () => {
    const r = parse(group());
    expect(r.notFollowed).toEqual([expect.objectContaining({ reason: 'count-unknown', subject: 'NodeGroup gpu', line: 14 })]);
    const base = { [FILE]: group(), 'clusters/prod/instanceclasses/gpu.yaml': awsClass('p3.8xlarge').slice(4) };
    const raised = await detectPr(base, { ...base, [FILE]: group({ max: 4 }) });
    expect(changeRows(raised)).toEqual([]);
    expect(raised.coverage.find((c) => c.file === FILE)?.state).toBe('not-followed');
    const retainted = await detectPr(base, { ...base, [FILE]: group({ taint: 'train' }) });
    expect(retainted.coverage.find((c) => c.file === FILE)?.state).not.toBe('not-followed');
  });

  it('reports a raised bound of a group read with its class', async () => {
    const base = { [FILE]: group() + awsClass('g5.12xlarge') };
    const head = { [FILE]: group({ max: 5 }) + awsClass('g5.12xlarge') };
    const r = await detectPr(base, head);
    expect(changeRows(r)).toEqual([['deckhouse-nodegroup', 'gpu', 16, 40, 'A10G', FILE, 12]]);
    // The class's GPU machine type is read with the group, no stray GPU name for the floor.
    expect(r.coverage.map((c) => [c.file, c.state])).toEqual([[FILE, 'read']]);
  });
});
