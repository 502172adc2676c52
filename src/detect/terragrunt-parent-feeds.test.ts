import { describe, expect, it } from 'vitest';
import { detectPr } from '../../test/detect/real-fixtures.js';

/**
 * A changed Terragrunt parent's inputs reach the units that include it, merged under theirs:
 * each unit is judged with them by what they feed in its module. A GPU type into a node group the
 * parser counts is counted on the unit; into a launch template nothing reads, it is not followed
 * at the parent's key; a unit setting the key itself takes none of it; a CPU type is no change.
 */

const SINKS = {
  'node-group': `resource "aws_eks_node_group" "workers" {\n  cluster_name    = "main"\n  node_group_name = "workers"\n  node_role_arn   = "arn:aws:iam::1:role/n"\n  subnet_ids      = ["subnet-1"]\n  instance_types  = [var.worker_type]\n  scaling_config {\n    desired_size = 0\n    min_size     = 0\n    max_size     = 3\n  }\n}\n`,
  'launch-template': 'resource "aws_launch_template" "workers" {\n  name_prefix   = "workers"\n  instance_type = var.worker_type\n}\n',
};
const VARIABLE = 'variable "worker_type" {\n  type = string\n}\n';

/** The parent, how a unit includes it, and where the unit sits. */
const PARENTS = [
  {
    parent: 'root.hcl',
    include: 'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n',
    unit: 'live/prod/workers/terragrunt.hcl',
  },
  { parent: 'live/env.hcl', include: 'include "env" {\n  path = find_in_parent_folders("env.hcl")\n}\n', unit: 'live/prod/terragrunt.hcl' },
  {
    parent: 'live/_envcommon/workers.hcl',
    include: 'include "common" {\n  path = "${dirname(find_in_parent_folders("root.hcl"))}/live/_envcommon/workers.hcl"\n}\n',
    unit: 'live/prod/workers/terragrunt.hcl',
  },
];

const inputs = (type: string) => `inputs = {\n  worker_type = "${type}"\n}\n`;

describe("a Terragrunt parent's inputs judged in each unit by what they feed", () => {
  for (const [sink, body] of Object.entries(SINKS)) {
    for (const p of PARENTS) {
      for (const overridden of [false, true]) {
        it(`${p.parent} → ${sink}${overridden ? ', the unit setting it itself' : ''}`, async () => {
          const depth = p.unit.split('/').length - 1;
          const unit = `${p.include}terraform {\n  source = "${'../'.repeat(depth)}modules/workers"\n}\n${overridden ? inputs('t3.large') : ''}`;
          const tree = {
            'modules/workers/main.tf': VARIABLE + body,
            [p.unit]: unit,
            ...(p.parent === 'root.hcl' ? {} : { 'root.hcl': '' }),
          };
          const got = await detectPr({ ...tree, [p.parent]: inputs('t3.medium') }, { ...tree, [p.parent]: inputs('g5.xlarge') });
          const changes = got.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]);
          const state = got.coverage.find((c) => c.file === p.parent);
          if (overridden) {
            expect(changes).toEqual([]);
            expect(state?.state).toBe('read');
          } else if (sink === 'node-group') {
            expect(changes).toEqual([['workers', 0, 3]]);
            expect(state?.state).toBe('read');
          } else {
            expect(changes).toEqual([]);
            expect(state?.state).toBe('not-followed');
            expect(state?.notFollowed?.map((n) => [n.line, n.subject, n.inputs])).toEqual([[2, 'g5.xlarge', ['worker_type']]]);
          }
        });
      }
      it(`${p.parent} → ${sink}, a CPU type: no change`, async () => {
        const depth = p.unit.split('/').length - 1;
        const unit = `${p.include}terraform {\n  source = "${'../'.repeat(depth)}modules/workers"\n}\n`;
        const tree = { 'modules/workers/main.tf': VARIABLE + body, [p.unit]: unit, ...(p.parent === 'root.hcl' ? {} : { 'root.hcl': '' }) };
        const got = await detectPr({ ...tree, [p.parent]: inputs('t3.medium') }, { ...tree, [p.parent]: inputs('m5.large') });
        expect(got.changes).toEqual([]);
        // It names no GPU at either side: not even a signal to account for.
        expect(got.coverage.find((c) => c.file === p.parent)?.state).toBe('not-capacity');
      });
    }
  }

  for (const [sink, body] of Object.entries(SINKS)) {
    it(`a unit taking its module from the parent → ${sink}`, async () => {
      const parent = 'live/_envcommon/workers.hcl';
      const unit = 'include "common" {\n  path = find_in_parent_folders("_envcommon/workers.hcl")\n}\n';
      // Terragrunt merges the parent's source into the unit: its path is taken from the unit's folder.
      const common = (type: string) => `terraform {\n  source = "../../../modules/workers"\n}\n${inputs(type)}`; // fixture path: data, never read
      const tree = { 'modules/workers/main.tf': VARIABLE + body, 'live/prod/workers/terragrunt.hcl': unit };
      const got = await detectPr({ ...tree, [parent]: common('t3.medium') }, { ...tree, [parent]: common('g5.xlarge') });
      const state = got.coverage.find((c) => c.file === parent)?.state;
      expect(state).toBe(sink === 'node-group' ? 'read' : 'not-followed');
    });
  }
});
