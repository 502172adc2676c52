import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

const MODULE = `variable "max_nodes" {
  default = 1
}
resource "google_container_node_pool" "gpu" {
  name     = "gpu"
  location = "us-central1-a"
  autoscaling {
    max_node_count = var.max_nodes
  }
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}
`;
const POOL = 'modules/pool/main.tf';
const UNIT = 'live/prod/gpu/terragrunt.hcl';

/** How a unit names its variable file (at `file`, as the unit's folder sees it), in its own config or its parent's. */
const NAMINGS: [what: string, attribute: (path: string) => string][] = [
  ['required_var_files', (p) => `required_var_files = ["${p}"]`],
  ['optional_var_files', (p) => `optional_var_files = ["${p}"]`],
  ['arguments -var-file=', (p) => `arguments = ["-var-file=${p}"]`],
];
const PATHS: [what: string, file: string, written: string][] = [
  ['beside the unit', 'live/prod/gpu/gpu.tfvars', '${get_terragrunt_dir()}/gpu.tfvars'],
  ['in the environment folder', 'live/prod/env.tfvars', '${get_terragrunt_dir()}/../env.tfvars'],
  ['at the repository root', 'config/prod.tfvars', '${get_repo_root()}/config/prod.tfvars'],
];
const block = (attribute: string) =>
  `terraform {\n  source = "\${get_repo_root()}/modules/pool"\n\n  extra_arguments "vars" {\n    commands = get_terraform_commands_that_need_vars()\n    ${attribute}\n  }\n}\n`;

async function review(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter]),
    states: r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => n.reason)]),
  };
}

describe("Terragrunt extra_arguments' variable files: over the unit's inputs", () => {
  for (const [what, attribute] of NAMINGS)
    for (const [where, file, written] of PATHS)
      it(`${what}, the file ${where}: a changed unit plans with its values`, async () => {
        const unit = (n: number) => `${block(attribute(written))}\ninputs = {\n  max_nodes = ${n}\n}\n`;
        // A Terragrunt repository: its root config at the top.
        const around: Tree = { [POOL]: MODULE, [file]: 'max_nodes = 8\n', 'root.hcl': '' };
        // The file says 8 whatever the inputs say: a change of the inputs alone is no change.
        expect(await review({ ...around, [UNIT]: unit(2) }, { ...around, [UNIT]: unit(4) })).toEqual({
          changes: [],
          states: [[UNIT, 'read']],
        });
        // Changed with the unit, the file's new value is what the plan takes.
        const got = await review({ ...around, [UNIT]: unit(2) }, { ...around, [file]: 'max_nodes = 12\n', [UNIT]: unit(4) });
        expect(got.changes).toEqual([[UNIT, 'gpu', 8, 12]]);
        // Changed alone, the file is read into the unit that names it.
        const alone = await review({ ...around, [UNIT]: unit(2) }, { ...around, [file]: 'max_nodes = 12\n', [UNIT]: unit(2) });
        expect(alone).toEqual({ changes: [[UNIT, 'gpu', 8, 12]], states: [[file, 'read']] });
      });

  it('in an included parent, its paths from the unit, the unit replacing a block of the same label', async () => {
    const parent = block('required_var_files = ["${get_terragrunt_dir()}/../env.tfvars"]');
    const child = (label: string) =>
      `include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n\nterraform {\n  extra_arguments "${label}" {\n    commands = ["plan", "apply"]\n    required_var_files = ["\${get_terragrunt_dir()}/gpu.tfvars"]\n  }\n}\n\ninputs = {\n  max_nodes = 1\n}\n`;
    const tree = (label: string, n: number): Tree => ({
      [POOL]: MODULE,
      'live/root.hcl': parent,
      'live/prod/env.tfvars': 'max_nodes = 8\n',
      'live/prod/gpu/gpu.tfvars': `max_nodes = ${n}\n`,
      [UNIT]: child(label),
    });
    // Another label: both files, the unit's last.
    expect((await review(tree('more', 3), tree('more', 5))).changes).toEqual([[UNIT, 'gpu', 3, 5]]);
    // The same label: the unit's block alone.
    expect((await review(tree('vars', 3), tree('vars', 5))).changes).toEqual([[UNIT, 'gpu', 3, 5]]);
  });

  it('a required file missing, a relative path, or a path from the environment: not followed', async () => {
    for (const attribute of [
      'required_var_files = ["${get_terragrunt_dir()}/missing.tfvars"]',
      'required_var_files = ["gpu.tfvars"]',
      'required_var_files = ["${get_terragrunt_dir()}/${get_env("ENV", "prod")}.tfvars"]',
      'required_var_files = local.files',
    ]) {
      const unit = (n: number) => `${block(attribute)}\ninputs = {\n  max_nodes = ${n}\n}\n`;
      const got = await review({ [POOL]: MODULE, [UNIT]: unit(2) }, { [POOL]: MODULE, [UNIT]: unit(4) });
      expect(got.states.map((s) => s[1])).toEqual(['not-followed']);
    }
  });

  it('an optional file added: the plan takes it over the inputs', async () => {
    const unit = `${block('optional_var_files = ["${get_terragrunt_dir()}/gpu.tfvars"]')}\ninputs = {\n  max_nodes = 2\n}\n`;
    const base: Tree = { [POOL]: MODULE, [UNIT]: unit };
    const got = await review(base, { ...base, 'live/prod/gpu/gpu.tfvars': 'max_nodes = 6\n' });
    expect(got.changes).toEqual([[UNIT, 'gpu', 2, 6]]);
    // Never read as nothing: read, or (a file the base lacks) not followed.
    expect(got.states.map((s) => s[1])).not.toContain('not-capacity');
  });

  it('a block for init alone hands the plan nothing', async () => {
    const unit = (n: number) =>
      `${block('commands = ["init"]\n    required_var_files = ["${get_terragrunt_dir()}/gpu.tfvars"]').replace('commands = get_terraform_commands_that_need_vars()\n', '')}\ninputs = {\n  max_nodes = ${n}\n}\n`;
    const around: Tree = { [POOL]: MODULE, 'live/prod/gpu/gpu.tfvars': 'max_nodes = 8\n' };
    expect((await review({ ...around, [UNIT]: unit(2) }, { ...around, [UNIT]: unit(4) })).changes).toEqual([[UNIT, 'gpu', 2, 4]]);
  });
});
