import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * terraform-aws-modules/eks node-group maps the review cannot evaluate as a whole: the map (or its
 * `*_defaults`) comes from a variable with no default, from a local that also reads one (an SSH key
 * name, say), from merge() or a `for` over one. Raising a GPU group there (its max_size, or its
 * instance type from CPU to GPU, in the module's file or in the variable file feeding it) is a
 * counted change or a not-followed file: never "no change" on a file marked read.
 */

const GPU: Record<string, number> = { 'g4dn.xlarge': 1, 'g5.12xlarge': 4, 'p4d.24xlarge': 8 };
const CPU = ['t3.medium', 'm6a.xlarge'];

type Shape = 'local-with-unknown' | 'var-no-default' | 'merge-unknown' | 'for-unknown' | 'defaults-unknown';
type Where = 'module-file' | 'variables-file';

interface Case {
  shape: Shape;
  where: Where;
  attr: 'eks_managed_node_groups' | 'self_managed_node_groups';
  edit: 'max-size' | 'cpu-to-gpu';
  gpuType: string;
  cpuType: string;
  before: number;
  after: number;
}

const cases: fc.Arbitrary<Case> = fc
  .record({
    shape: fc.constantFrom<Shape>('local-with-unknown', 'var-no-default', 'merge-unknown', 'for-unknown', 'defaults-unknown'),
    where: fc.constantFrom<Where>('module-file', 'variables-file'),
    attr: fc.constantFrom('eks_managed_node_groups' as const, 'self_managed_node_groups' as const),
    edit: fc.constantFrom('max-size' as const, 'cpu-to-gpu' as const),
    gpuType: fc.constantFrom(...Object.keys(GPU)),
    cpuType: fc.constantFrom(...CPU),
    before: fc.integer({ min: 1, max: 6 }),
    raise: fc.integer({ min: 1, max: 10 }),
  })
  .map(({ raise, ...c }) => ({ ...c, after: c.before + raise }));

function tree(c: Case, side: 'base' | 'head'): Tree {
  const size = c.edit === 'max-size' && side === 'head' ? c.after : c.before;
  const type = c.edit === 'cpu-to-gpu' && side === 'base' ? c.cpuType : c.gpuType;
  const typeAttr = c.attr === 'eks_managed_node_groups' ? `instance_types = ["${type}"]` : `instance_type = "${type}"`;
  const typeVar = c.attr === 'eks_managed_node_groups' ? `instance_types = ["${type}"]` : `instance_type = "${type}"`;
  const typeType = c.attr === 'eks_managed_node_groups' ? 'instance_types = list(string)' : 'instance_type = string';
  const fromVar = c.where === 'variables-file';
  const typeRef =
    c.attr === 'eks_managed_node_groups' ? 'instance_types = var.gpu.instance_types' : 'instance_type = var.gpu.instance_type';
  const group = fromVar
    ? `{\n      ${typeRef}\n      max_size = var.gpu.max_size\n      key_name = var.environment.ssh_key_name\n    }`
    : `{\n      ${typeAttr}\n      max_size = ${size}\n      key_name = var.environment.ssh_key_name\n    }`;
  const variables = [
    'variable "environment" {\n  type = object({ ssh_key_name = string, extra = map(any) })\n}\n',
    `variable "gpu" {\n  type = object({ ${typeType}, max_size = number })\n  default = {\n    ${typeVar}\n    max_size = ${size}\n  }\n}\n`,
  ].join('\n');
  let locals = '';
  let groups = 'local.groups';
  let defaults = '';
  if (c.shape === 'local-with-unknown') locals = `locals {\n  groups = {\n    gpu = ${group}\n  }\n}\n`;
  if (c.shape === 'var-no-default' || c.shape === 'defaults-unknown') {
    locals = `locals {\n  groups = {\n    gpu = ${group.replace(/\n\s*key_name = [^\n]*/, '')}\n  }\n}\n`;
    groups = c.shape === 'var-no-default' ? 'merge(local.groups, var.environment.extra)' : 'local.groups';
    if (c.shape === 'defaults-unknown') defaults = `  ${c.attr.replace('_groups', '_group_defaults')} = var.environment.extra\n`;
  }
  if (c.shape === 'merge-unknown') {
    locals = `locals {\n  groups = {\n    gpu = ${group.replace(/\n\s*key_name = [^\n]*/, '')}\n  }\n}\n`;
    groups = 'merge(var.environment.extra, local.groups)';
  }
  if (c.shape === 'for-unknown') {
    locals = `locals {\n  groups = {\n    gpu = ${group}\n  }\n}\n`;
    groups = '{ for k, v in local.groups : k => merge(v, { key_name = var.environment.ssh_key_name }) }';
  }
  const main = `${locals}\nmodule "eks" {\n  source  = "terraform-aws-modules/eks/aws"\n  version = "20.8.5"\n\n${defaults}  ${c.attr} = ${groups}\n}\n`;
  return { 'infra/eks/main.tf': main, 'infra/eks/variables.tf': variables };
}

describe('EKS node-group maps the review cannot evaluate whole', () => {
  it('count a raised GPU group or name the changed file not followed, never a silent no change', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const result = await detectPr(tree(c, 'base'), tree(c, 'head'));
        const changed = c.where === 'module-file' ? 'infra/eks/main.tf' : 'infra/eks/variables.tf';
        const file = result.coverage.find((f) => f.file === changed);
        const gpus = GPU[c.gpuType] ?? 0;
        const want = c.edit === 'max-size' ? [c.before * gpus, c.after * gpus] : [0, c.before * gpus];
        const counted = result.changes.map((ch) => [ch.gpusBefore, ch.gpusAfter]);
        if (file?.state !== 'not-followed') expect(counted).toEqual([want]);
        else expect(counted.every(([b, a]) => b === want[0] && a === want[1])).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
