import { describe, expect, it } from 'vitest';
import { deckhouseNodeGroupParser } from './deckhouse-nodegroup.js';

/**
 * Instance classes of providers whose machines the type catalogs do not list: OpenStack flavors
 * (an operator's own names, often with the GPU model in them) and Yandex classes, which state a
 * GPU count of their own.
 */
const group = (kind: string) => `apiVersion: deckhouse.io/v1
kind: NodeGroup
metadata:
  name: workers
spec:
  nodeType: CloudEphemeral
  cloudInstances:
    classReference:
      kind: ${kind}
      name: workers
    maxPerZone: 3
    zones: [nova, nova-2]
`;
const cls = (kind: string, spec: string) => `---\napiVersion: deckhouse.io/v1\nkind: ${kind}\nmetadata:\n  name: workers\nspec:\n${spec}`;
const parse = (text: string) => deckhouseNodeGroupParser.parse('clusters/workers.yaml', text);
const openstack = (flavor: string) => parse(group('OpenStackInstanceClass') + cls('OpenStackInstanceClass', `  flavorName: ${flavor}\n`));

// OVHcloud's published GPU flavors, and the shapes other OpenStack clouds give theirs.
const GPU_FLAVORS = [
  'a100-180',
  'l40s-90',
  'h100-380',
  'l4-90',
  'a10-45',
  'rtx5000-28',
  'g1.a100x2',
  'gpu.1xa100',
  'GPU-4-16-V100',
  'vm.h200.8x',
];
// CPU flavors of the same clouds: OVHcloud's general, compute and memory ones, OpenStack's defaults, VK Cloud's.
const CPU_FLAVORS = ['b2-7', 'b3-16', 'c2-15', 'r2-60', 'd2-4', 'm1.large', 'Standard-2-4-50', 'Basic-1-2-20', 's1-2', 'c3-64'];

describe('Deckhouse instance classes outside the type catalogs', () => {
  for (const flavor of GPU_FLAVORS) {
    it(`OpenStack flavor ${flavor}: its GPUs are unknown, never 0`, () => {
      const r = openstack(flavor);
      expect(r.decls).toEqual([]);
      expect(r.unresolved).toEqual([expect.objectContaining({ kind: 'deckhouse-nodegroup', name: 'workers' })]);
    });
  }

  for (const flavor of CPU_FLAVORS) {
    it(`OpenStack flavor ${flavor}: a CPU machine, no GPU`, () => {
      const r = openstack(flavor);
      expect([...r.decls, ...(r.unresolved ?? [])]).toEqual([]);
    });
  }

  it('a Yandex class counts the GPUs it states: maxPerZone × zones × gpus', () => {
    const r = parse(
      group('YandexInstanceClass') +
        cls('YandexInstanceClass', '  cores: 28\n  memory: 119808\n  gpus: 1\n  platformID: gpu-standard-v3\n'),
    );
    expect(r.decls.map((d) => [d.name, d.gpus, d.gpuStep])).toEqual([['workers', 6, 1]]);
  });

  it('a Yandex class with 0 GPUs on a CPU platform is CPU; on a GPU platform, or with a count it cannot read, unknown', () => {
    const yandex = (spec: string) =>
      parse(group('YandexInstanceClass') + cls('YandexInstanceClass', `  cores: 4\n  memory: 8192\n${spec}`));
    expect([...yandex('  gpus: 0\n').decls, ...(yandex('  gpus: 0\n').unresolved ?? [])]).toEqual([]);
    for (const spec of [
      '  gpus: 0\n  platformID: gpu-standard-v3\n',
      '  platformID: gpu-standard-v3\n',
      '  gpus: "2"\n',
      '  gpus: ${GPUS}\n',
    ]) {
      const r = yandex(spec);
      expect(r.decls).toEqual([]);
      expect(r.unresolved).toHaveLength(1);
    }
  });
});
