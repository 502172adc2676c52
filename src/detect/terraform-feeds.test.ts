import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../test/detect/real-fixtures.js';
import type { Tree } from '../../test/detect/real-fixtures.js';

/**
 * What a changed variable feeds, on generated module chains: a root variable handed through 1–3
 * local module calls (each level naming the argument its own way, some through a local) into
 * either a node group the Terraform parser counts or a launch template or rendered template
 * nothing reads. A GPU value into what is counted is counted; into what is not read, it is not
 * followed on the line that sets it (never a silent "no change"); a CPU value is no change either way.
 * Each call (and the Terragrunt unit's source) names its module by path or by the repository's own
 * URL: both are modules of this tree, judged by the same rule.
 */

/** GPU instance types and the GPUs each holds. */
const GPUS_PER: Record<string, number> = { 'g5.xlarge': 1, 'g4dn.xlarge': 1, 'p4d.24xlarge': 8, 'g6e.12xlarge': 4 };
const GPU = Object.keys(GPUS_PER);
const CPU = ['t3.medium', 'm5.large', 'c5.2xlarge'];
const NAMES = ['instance_type', 'node_type', 'machine', 'worker_size', 'type'];

const REPO = 'github.com/acme/infra';

interface Chain {
  levels: { name: string; viaLocal: boolean; byUrl: boolean }[];
  sink: 'node-group' | 'launch-template' | 'template-file';
  /** Where the value is set: the root variable's default, a variable file beside the root, or one of an environment's folder. */
  where: 'default' | 'tfvars' | 'env-tfvars' | 'terragrunt';
  gpu: boolean;
  before: string;
  after: string;
  maxSize: number;
}

const chain: fc.Arbitrary<Chain> = fc
  .record({
    levels: fc.array(fc.record({ name: fc.constantFrom(...NAMES), viaLocal: fc.boolean(), byUrl: fc.boolean() }), {
      minLength: 2,
      maxLength: 4,
    }),
    sink: fc.constantFrom('node-group' as const, 'launch-template' as const, 'template-file' as const),
    where: fc.constantFrom('default' as const, 'tfvars' as const, 'env-tfvars' as const, 'terragrunt' as const),
    gpu: fc.boolean(),
    cpu: fc.constantFrom(...CPU),
    other: fc.constantFrom(...CPU, ...GPU),
    gpuType: fc.constantFrom(...GPU),
    maxSize: fc.integer({ min: 1, max: 20 }),
  })
  .map(({ levels, sink, where, gpu, cpu, other, gpuType, maxSize }) => ({
    // A unit's module is a call itself: two more levels below it are read.
    levels: where === 'terragrunt' ? levels.slice(0, 3) : levels,
    sink,
    where,
    gpu,
    before: cpu,
    after: gpu ? gpuType : other === cpu || GPU.includes(other) ? (CPU.find((c) => c !== cpu) ?? cpu) : other,
    maxSize,
  }));

/** The value of level `i`'s variable, as its module reads it: directly or through a local. */
const use = (l: { name: string; viaLocal: boolean }) => (l.viaLocal ? `local.${l.name}_v` : `var.${l.name}`);
const declare = (l: { name: string; viaLocal: boolean }) =>
  `variable "${l.name}" {\n  type = string\n}\n${l.viaLocal ? `\nlocals {\n  ${l.name}_v = var.${l.name}\n}\n` : ''}`;

function sinkOf(c: Chain, value: string): string {
  if (c.sink === 'node-group') {
    return `resource "aws_eks_node_group" "gpu" {\n  cluster_name    = "main"\n  node_group_name = "gpu"\n  node_role_arn   = "arn:aws:iam::1:role/n"\n  subnet_ids      = ["subnet-1"]\n  instance_types  = [${value}]\n\n  scaling_config {\n    desired_size = 0\n    min_size     = 0\n    max_size     = ${c.maxSize}\n  }\n}\n`;
  }
  if (c.sink === 'launch-template') {
    return `resource "aws_launch_template" "workers" {\n  name_prefix   = "workers"\n  instance_type = ${value}\n}\n`;
  }
  return `data "template_file" "nodepool" {\n  template = file("\${path.module}/nodepool.tpl")\n  vars = {\n    instance_type = ${value}\n  }\n}\n`;
}

/** The file that sets the value, and its line there. */
const SET_AT = {
  default: 'infra/variables.tf',
  tfvars: 'infra/terraform.tfvars',
  'env-tfvars': 'infra/envs/prod/terraform.tfvars',
  terragrunt: 'infra/live/prod/terragrunt.hcl',
};
const LINE_AT = { default: 3, tfvars: 2, 'env-tfvars': 2, terragrunt: 7 };

/** The repository of a chain, with the root default set to `value`. */
function tree(c: Chain, value: string): Tree {
  const [root, ...inner] = c.levels;
  if (root === undefined) return {};
  const out: Tree = {
    'infra/variables.tf': `variable "${root.name}" {\n  type        = string\n  default     = "${c.where === 'default' ? value : 'm5.large'}"\n  description = "what the workers run on"\n}\n\nvariable "region" {\n  type    = string\n  default = "us-east-1"\n}\n`,
  };
  let dir = 'infra';
  let parent = root;
  inner.forEach((level, i) => {
    const source = level.byUrl
      ? `git::https://github.com/acme/infra.git//infra/modules/l${i + 1}?ref=v1`
      : i === 0
        ? './modules/l1'
        : `../l${i + 1}`;
    const call = `module "l${i + 1}" {\n  source = "${source}"\n  region = var.region\n  ${level.name} = ${use(parent)}\n}\n`;
    out[`${dir}/${i === 0 ? 'main' : 'calls'}.tf`] = `${call}`;
    dir = `infra/modules/l${i + 1}`;
    out[`${dir}/variables.tf`] = `${declare(level)}\nvariable "region" {\n  type = string\n}\n`;
    parent = level;
  });
  out[`${dir}/main.tf`] = sinkOf(c, use(parent));
  if (root.viaLocal) out['infra/locals.tf'] = `locals {\n  ${root.name}_v = var.${root.name}\n}\n`;
  if (c.where === 'terragrunt')
    out[SET_AT.terragrunt] =
      `terraform {\n  source = "${root.byUrl ? `${REPO}//infra?ref=v1` : '../..'}"\n}\n\ninputs = {\n  region = "us-east-1"\n  ${root.name} = "${value}"\n}\n`;
  else if (c.where !== 'default') out[SET_AT[c.where]] = `region = "us-east-1"\n${root.name} = "${value}"\n`;
  out[`${dir}/nodepool.tpl`] = 'apiVersion: karpenter.sh/v1\nkind: NodePool\n';
  return out;
}

describe('what a changed variable feeds, through local modules', () => {
  it('counts what reaches a counted node group, names what reaches nothing read, and leaves CPU values alone', async () => {
    await fc.assert(
      fc.asyncProperty(chain, async (c) => {
        const result = await detectPr(tree(c, c.before), tree(c, c.after), true, [REPO]);
        const file = result.coverage.find((f) => f.file === SET_AT[c.where]);
        if (!c.gpu) {
          expect(file?.state).not.toBe('not-followed');
          expect(result.changes).toEqual([]);
        } else if (c.sink === 'node-group') {
          expect(file?.state).not.toBe('not-followed');
          const gpus = c.maxSize * (GPUS_PER[c.after] ?? 0);
          expect(result.changes.map((ch) => [ch.kind, ch.gpusBefore, ch.gpusAfter])).toEqual([['eks-node-group', 0, gpus]]);
        } else {
          expect(result.changes).toEqual([]);
          // The GPU name on the changed default is not followed, at its line: never a silent "no change".
          expect(file?.state).toBe('not-followed');
          expect(file?.notFollowed?.[0]).toMatchObject({ reason: 'unaccounted-signal', subject: c.after, line: LINE_AT[c.where] });
        }
      }),
      { numRuns: 80 },
    );
  });
});
