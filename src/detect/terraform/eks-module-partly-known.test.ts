import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * terraform-aws-modules/eks node-group maps built by a `for` over locals merged with defaults, one
 * field of which is known only once applied (unionai-oss/deploy-flyte's `subnet_ids =
 * module.vpc.private_subnets`, a role ARN in tags). Terraform sizes the groups from their own
 * fields: the unknown field spoils only itself, so every shape counts the GPU groups exactly, and a
 * CPU-only edit beside them stays no change.
 */

const GPU: Record<string, number> = { 'g4dn.metal': 8, 'g5.12xlarge': 4, 'p4d.24xlarge': 8, 'g4dn.xlarge': 1 };
const CPU = ['m7i.xlarge', 't3.large'];

type Unknown = 'defaults' | 'body' | 'tags';
type Loop = 'map' | 'list';

interface Case {
  unknown: Unknown;
  loop: Loop;
  merged: boolean;
  attr: 'eks_managed_node_groups' | 'self_managed_node_groups';
  edit: 'max-size' | 'cpu-to-gpu' | 'bigger-gpu' | 'cpu-only';
  gpuType: string;
  biggerType: string;
  cpuType: string;
  before: number;
  after: number;
}

const cases: fc.Arbitrary<Case> = fc
  .record({
    unknown: fc.constantFrom<Unknown>('defaults', 'body', 'tags'),
    loop: fc.constantFrom<Loop>('map', 'list'),
    merged: fc.boolean(),
    attr: fc.constantFrom('eks_managed_node_groups' as const, 'self_managed_node_groups' as const),
    edit: fc.constantFrom('max-size' as const, 'cpu-to-gpu' as const, 'bigger-gpu' as const, 'cpu-only' as const),
    gpuType: fc.constantFrom('g4dn.xlarge', 'g5.12xlarge'),
    biggerType: fc.constantFrom('g4dn.metal', 'p4d.24xlarge'),
    cpuType: fc.constantFrom(...CPU),
    before: fc.integer({ min: 1, max: 5 }),
    raise: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ raise, ...c }) => ({ ...c, after: c.before + raise }));

function tree(c: Case, side: 'base' | 'head'): Tree {
  const head = side === 'head';
  const max = c.edit === 'max-size' && head ? c.after : c.before;
  const type = c.edit === 'cpu-to-gpu' && !head ? c.cpuType : c.edit === 'bigger-gpu' && head ? c.biggerType : c.gpuType;
  const disk = c.edit === 'cpu-only' && head ? 600 : 500;
  const subnets = 'module.vpc.private_subnets';
  const defaults = [
    '    instance_type = "m7i.xlarge"',
    '    min_size      = 0',
    '    max_size      = 1',
    '    disk_gb       = 20',
    ...(c.unknown === 'defaults' ? [`    subnet_ids    = ${subnets}`] : []),
  ].join('\n');
  const group = (name: string, t: string, m: number, d: number) =>
    `${c.loop === 'list' ? '{\n      name          = "' + name + '"\n' : name + ' = {\n'}      instance_type = "${t}"\n      max_size      = ${m}\n      disk_gb       = ${d}\n    }`;
  const groups =
    c.loop === 'map'
      ? `{\n    ${group('workers', 'm7i.xlarge', 4, disk)}\n    ${group('ml', type, max, 200)}\n  }`
      : `[\n    ${group('workers', 'm7i.xlarge', 4, disk)},\n    ${group('ml', type, max, 200)},\n  ]`;
  const each = c.merged ? 'merge(local.defaults, v)' : 'v';
  const source = c.loop === 'map' ? `for k, v in local.groups : k => ` : `for v in local.groups : v.name => `;
  const typeAttr = c.attr === 'eks_managed_node_groups' ? 'instance_types = [g.instance_type]' : 'instance_type = g.instance_type';
  const body = [
    `      ${typeAttr}`,
    '      min_size     = 0',
    '      max_size     = g.max_size',
    '      desired_size = 0',
    `      disk_size    = ${c.merged ? 'g.disk_gb' : '20'}`,
    `      subnet_ids   = ${c.unknown === 'defaults' && c.merged ? 'g.subnet_ids' : subnets}`,
    ...(c.unknown === 'tags' ? ['      tags = { owner = aws_iam_role.nodes.arn }'] : []),
  ].join('\n');
  const main = `locals {
  defaults = {
${defaults}
  }
  groups = ${groups}
  with_defaults = { ${source}${each} }
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.8.1"
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "20.8.5"

  ${c.attr} = {
    for k, g in local.with_defaults : k => {
${body}
    }
  }
}
`;
  return { 'infra/eks/main.tf': main };
}

describe('EKS node groups built by a for over locals with a field known only once applied', () => {
  it('are counted group by group: the unknown field spoils only itself', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const result = await detectPr(tree(c, 'base'), tree(c, 'head'));
        const gpus = (t: string) => GPU[t] ?? 0;
        const want =
          c.edit === 'max-size'
            ? [[c.before * gpus(c.gpuType), c.after * gpus(c.gpuType)]]
            : c.edit === 'cpu-to-gpu'
              ? [[0, c.before * gpus(c.gpuType)]]
              : c.edit === 'bigger-gpu'
                ? [[c.before * gpus(c.gpuType), c.before * gpus(c.biggerType)]]
                : [];
        const counted = result.changes.map((ch) => [ch.gpusBefore, ch.gpusAfter]);
        const state = result.coverage.find((f) => f.file === 'infra/eks/main.tf')?.state;
        expect({ c, counted, state }).toEqual({ c, counted: want, state: 'read' });
      }),
      { numRuns: 60 },
    );
  });
});
