import { describe, expect, it } from 'vitest';
import { detectPr } from '../../test/detect/real-fixtures.js';
import type { Tree } from '../../test/detect/real-fixtures.js';
import { jsonVariables } from './terraform-json-feeds.js';

/**
 * A module in Terraform's JSON syntax is fed as one in HCL: a GPU type set in a variable file for a
 * variable a `.tf.json` declares, handed to a node group the parser counts, is counted; handed to a
 * launch template nothing reads, it is not followed at its key (never a silent "no change").
 */

const VARIABLES_JSON = `${JSON.stringify({ variable: { worker_type: { type: 'string', default: 't3.medium' }, max: { type: 'number', default: 3 } } }, null, 2)}\n`;
const VARIABLES_HCL =
  'variable "worker_type" {\n  type    = string\n  default = "t3.medium"\n}\nvariable "max" {\n  type    = number\n  default = 3\n}\n';

const SINKS = {
  'node-group': `resource "aws_eks_node_group" "workers" {\n  cluster_name    = "main"\n  node_group_name = "workers"\n  node_role_arn   = "arn:aws:iam::1:role/n"\n  subnet_ids      = ["subnet-1"]\n  instance_types  = [var.worker_type]\n  scaling_config {\n    desired_size = 0\n    min_size     = 0\n    max_size     = var.max\n  }\n}\n`,
  'launch-template': 'resource "aws_launch_template" "workers" {\n  name_prefix   = "workers"\n  instance_type = var.worker_type\n}\n',
};

/** The values file: beside the module or in an environment's folder below it, HCL or JSON. */
const VALUES = [
  { path: 'infra/envs/prod/terraform.tfvars.json', text: (t: string) => `${JSON.stringify({ worker_type: t, max: 3 }, null, 2)}\n` },
  { path: 'infra/envs/prod/terraform.tfvars', text: (t: string) => `worker_type = "${t}"\nmax         = 3\n` },
];

describe('variables declared in .tf.json feed as those in .tf do', () => {
  for (const [sink, body] of Object.entries(SINKS)) {
    for (const declared of ['json', 'hcl'] as const) {
      for (const values of VALUES) {
        it(`${values.path} → ${declared} variable → ${sink}`, async () => {
          const module: Tree = {
            [declared === 'json' ? 'infra/variables.tf.json' : 'infra/variables.tf']: declared === 'json' ? VARIABLES_JSON : VARIABLES_HCL,
            'infra/main.tf': body,
          };
          const got = await detectPr(
            { ...module, [values.path]: values.text('t3.medium') },
            { ...module, [values.path]: values.text('g5.xlarge') },
          );
          const changes = got.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]);
          const state = got.coverage.find((c) => c.file === values.path);
          if (sink === 'node-group') {
            expect(changes).toEqual([['workers', 0, 3]]);
            expect(state?.state).toBe('read');
          } else {
            expect(changes).toEqual([]);
            expect(state?.state).toBe('not-followed');
          }
        });
      }
    }
  }

  it('finds each variable with the lines of its object', () => {
    expect(jsonVariables(VARIABLES_JSON)).toEqual([
      { name: 'worker_type', from: 3, to: 6 },
      { name: 'max', from: 7, to: 10 },
    ]);
    expect(jsonVariables('not json')).toEqual([]);
    expect(jsonVariables('{"variable": [{"a": {}}, {"b": {"default": 1}}]}')).toEqual([
      { name: 'a', from: 1, to: 1 },
      { name: 'b', from: 1, to: 1 },
    ]);
  });
});
