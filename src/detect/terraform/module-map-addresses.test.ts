import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';

/**
 * Pools given to a module as a map (terraform-aws-modules/eks `eks_managed_node_groups` and
 * `self_managed_node_groups`, Azure/terraform-azurerm-aks `node_pools`) are resources Terraform
 * tracks by the map's key, not by the pool's `name`: a pool whose name and size change in one pull
 * request is one pool resized, paired by its key, and so is one whose key a `moved` block renames.
 * Generated over the maps, keys, names and sizes.
 */

interface Shape {
  map: 'eks_managed_node_groups' | 'self_managed_node_groups' | 'node_pools';
  key: string;
  before: string;
  after: string;
  a: number;
  b: number;
}

const shapes = fc
  .record({
    map: fc.constantFrom<Shape['map']>('eks_managed_node_groups', 'self_managed_node_groups', 'node_pools'),
    key: fc.constantFrom('gpu', 'workers', 'a100', 'infer'),
    before: fc.constantFrom('gpua', 'trainpool', 'np1'),
    after: fc.constantFrom('gpub', 'inferpool', 'np2'),
    a: fc.integer({ min: 0, max: 30 }),
    b: fc.integer({ min: 0, max: 30 }),
  })
  .filter((s) => s.a !== s.b);

const SUBMODULE = { eks_managed_node_groups: 'eks_managed_node_group', self_managed_node_groups: 'self_managed_node_group' } as const;

function pool(s: Shape, key: string, name: string, size: number): string {
  if (s.map === 'node_pools')
    return `    ${key} = {\n      name                = "${name}"\n      vm_size             = "Standard_NC4as_T4_v3"\n      enable_auto_scaling = true\n      max_count           = ${String(size)}\n    }`;
  const types = s.map === 'eks_managed_node_groups' ? 'instance_types = ["g5.xlarge"]' : 'instance_type = "g5.xlarge"';
  return `    ${key} = {\n      name     = "${name}"\n      ${types}\n      max_size = ${String(size)}\n    }`;
}

function main(s: Shape, key: string, name: string, size: number, moved = ''): string {
  const source = s.map === 'node_pools' ? 'Azure/aks/azurerm' : 'terraform-aws-modules/eks/aws';
  return `module "cluster" {
  source  = "${source}"
  version = "1.0.0"
  ${s.map} = {
${pool(s, key, name, size)}
    cpu = {
      name     = "system"
      vm_size  = "Standard_D4s_v5"
      instance_types = ["m5.large"]
      instance_type  = "m5.large"
      node_count = 2
      max_size = 2
    }
  }
}
${moved}`;
}

const gpus = (s: Shape, n: number) => n * 1; // g5.xlarge: 1 A10G; Standard_NC4as_T4_v3: 1 T4

async function changes(base: string, head: string) {
  const r = await detectPr({ 'infra/main.tf': base }, { 'infra/main.tf': head });
  return r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]);
}

describe("a module's map of pools", () => {
  it('a pool renamed and resized under the same key is one pool resized', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (s) => {
        const found = await changes(main(s, s.key, s.before, s.a), main(s, s.key, s.after, s.b));
        expect(found).toEqual([[s.after, gpus(s, s.a), gpus(s, s.b)]]);
      }),
      { numRuns: 30 },
    );
  });

  it('a pool whose key a moved block renames, renamed and resized, is one pool resized', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (s) => {
        const at = (key: string) =>
          s.map === 'node_pools'
            ? `module.cluster.azurerm_kubernetes_cluster_node_pool.node_pool_create_before_destroy["${key}"]`
            : `module.cluster.module.${SUBMODULE[s.map]}["${key}"]`;
        const moved = `\nmoved {\n  from = ${at(s.key)}\n  to   = ${at(`${s.key}2`)}\n}\n`;
        const found = await changes(main(s, s.key, s.before, s.a), main(s, `${s.key}2`, s.after, s.b, moved));
        expect(found).toEqual([[s.after, gpus(s, s.a), gpus(s, s.b)]]);
      }),
      { numRuns: 20 },
    );
  });

  it('a pool renamed under a new key with no moved block is a removal and an addition', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (s) => {
        const found = await changes(main(s, s.key, s.before, s.a), main(s, `${s.key}2`, s.after, s.b));
        // A pool of no GPUs removed or added is no change.
        const wanted = [
          [s.before, gpus(s, s.a), 0],
          [s.after, 0, gpus(s, s.b)],
        ].filter(([, x, y]) => x !== y);
        expect(found).toHaveLength(wanted.length);
        expect(found).toEqual(expect.arrayContaining(wanted));
      }),
      { numRuns: 20 },
    );
  });
});
