import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../test/detect/real-fixtures.js';
import type { Tree } from '../../test/detect/real-fixtures.js';

/**
 * What a map of pools handed to a local module's `for_each` (or `count`) feeds, on generated
 * calls: `for_each = var.pools` (a root variable set by its default or a variable file, or a
 * literal map in the call) copies the module once per pool, each copy reading
 * `each.value.machine` and `each.value.size` (or `var.pools[count.index]`). The module holds an
 * EKS node group the parser counts, or a generic resource nothing reads (an `azapi_resource`
 * agent pool, a launch template). A GPU pool into what is counted is counted; into what is not
 * read it is not followed where it is written, never "no change"; a CPU-only change is no change.
 * (The shape of Azure's verified AKS module: `module "nodepools" { for_each = var.agent_pools }`.)
 */

const GPUS_PER: Record<string, number> = { 'g5.xlarge': 1, 'p4d.24xlarge': 8, 'g6e.12xlarge': 4 };
const GPU = Object.keys(GPUS_PER);
const CPU = ['t3.medium', 'm5.large'];

interface Call {
  copy: 'for_each' | 'count';
  where: 'default' | 'tfvars' | 'literal';
  sink: 'node-group' | 'azapi' | 'launch-template';
  /** The pool the change adds: a GPU type (else a CPU one). */
  added: string;
  size: number;
}

const call: fc.Arbitrary<Call> = fc.record({
  copy: fc.constantFrom('for_each' as const, 'count' as const),
  where: fc.constantFrom('default' as const, 'tfvars' as const, 'literal' as const),
  sink: fc.constantFrom('node-group' as const, 'azapi' as const, 'launch-template' as const),
  added: fc.constantFrom(...GPU, ...CPU),
  size: fc.integer({ min: 1, max: 12 }),
});

function sinkOf(c: Call): string {
  if (c.sink === 'node-group')
    return `resource "aws_eks_node_group" "this" {\n  cluster_name    = "main"\n  node_group_name = var.name\n  node_role_arn   = "arn:aws:iam::1:role/n"\n  subnet_ids      = ["subnet-1"]\n  instance_types  = [var.machine]\n\n  scaling_config {\n    desired_size = var.size\n    min_size     = 0\n    max_size     = var.size\n  }\n}\n`;
  if (c.sink === 'azapi')
    return `resource "azapi_resource" "this" {\n  type      = "Microsoft.ContainerService/managedClusters/agentPools@2024-05-01"\n  name      = var.name\n  parent_id = "/subscriptions/x"\n  body = {\n    properties = {\n      vmSize = var.machine\n      count  = var.size\n    }\n  }\n}\n`;
  return `resource "aws_launch_template" "this" {\n  name_prefix   = var.name\n  instance_type = var.machine\n}\n\nresource "aws_autoscaling_group" "this" {\n  name     = var.name\n  max_size = var.size\n  min_size = 0\n  launch_template {\n    id = aws_launch_template.this.id\n  }\n}\n`;
}

const pool = (name: string, machine: string, size: number) => `  ${name} = {\n    machine = "${machine}"\n    size    = ${size}\n  }\n`;
const pools = (c: Call, withAdded: boolean) => `{\n${pool('system', 'm5.large', 2)}${withAdded ? pool('extra', c.added, c.size) : ''}}`;

/** The repository with the map of pools, the added one or not. */
function tree(c: Call, withAdded: boolean): Tree {
  const map = pools(c, withAdded);
  const value = c.where === 'literal' ? map : 'var.pools';
  const copies =
    c.copy === 'for_each'
      ? `  for_each = ${value}\n\n  name    = each.key\n  machine = each.value.machine\n  size    = each.value.size\n`
      : `  count = length(${c.where === 'literal' ? 'local.pools' : 'var.pools'})\n\n  name    = keys(${c.where === 'literal' ? 'local.pools' : 'var.pools'})[count.index]\n  machine = values(${c.where === 'literal' ? 'local.pools' : 'var.pools'})[count.index].machine\n  size    = values(${c.where === 'literal' ? 'local.pools' : 'var.pools'})[count.index].size\n`;
  const out: Tree = {
    'infra/main.tf': `module "pools" {\n  source = "./modules/pool"\n${copies}}\n`,
    'infra/modules/pool/variables.tf': `variable "name" {\n  type = string\n}\n\nvariable "machine" {\n  type = string\n}\n\nvariable "size" {\n  type = number\n}\n`,
    'infra/modules/pool/main.tf': sinkOf(c),
  };
  if (c.where === 'literal' && c.copy === 'count') out['infra/locals.tf'] = `locals {\n  pools = ${map}\n}\n`;
  if (c.where !== 'literal' || c.copy === 'count')
    out['infra/variables.tf'] =
      `variable "pools" {\n  type    = map(object({ machine = string, size = number }))\n  default = ${c.where === 'default' ? map : '{}'}\n}\n`;
  if (c.where === 'tfvars') out['infra/terraform.tfvars'] = `pools = ${map}\n`;
  return out;
}

/** The file the change edits. */
function changedFile(c: Call): string {
  if (c.where === 'tfvars') return 'infra/terraform.tfvars';
  if (c.where === 'default') return 'infra/variables.tf';
  return c.copy === 'count' ? 'infra/locals.tf' : 'infra/main.tf';
}

describe('what a map handed to a local module call`s for_each or count feeds', () => {
  it('counts a GPU pool the module counts, names one it cannot read, and leaves a CPU pool alone', async () => {
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        const result = await detectPr(tree(c, false), tree(c, true));
        const file = result.coverage.find((f) => f.file === changedFile(c));
        const gpus = (GPUS_PER[c.added] ?? 0) * c.size;
        if (gpus === 0) {
          expect(result.changes).toEqual([]);
          expect(file?.state).not.toBe('not-followed');
        } else if (c.sink === 'node-group') {
          const counted = result.changes.map((ch) => [ch.kind, ch.gpusBefore, ch.gpusAfter]);
          // Counted, or at worst not followed: never a silent "no change".
          if (counted.length === 0) expect(file?.state).toBe('not-followed');
          else expect(counted).toEqual([['eks-node-group', 0, gpus]]);
        } else {
          expect(result.changes).toEqual([]);
          expect(file?.state).toBe('not-followed');
          expect(file?.notFollowed?.[0]).toMatchObject({ reason: 'unaccounted-signal', subject: c.added });
        }
      }),
      { numRuns: 60 },
    );
  });
});
