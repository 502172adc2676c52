import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/** A live repository: a root.hcl every unit includes, an _envcommon file with the module, one env file per environment. */
const ROOT = (gpuMax: number, region = 'us-east-1') => `locals {
  env = read_terragrunt_config(find_in_parent_folders("env.hcl"))
}

inputs = {
  region      = "${region}"
  gpu_max     = ${gpuMax}
  environment = local.env.locals.environment
}
`;
const ENVCOMMON = (type: string) => `terraform {
  source = "tfr:///terraform-aws-modules/eks/aws?version=20.8.0"
}

inputs = {
  cluster_name = "ml"
  eks_managed_node_groups = {
    gpu = {
      instance_types = ["${type}"]
      min_size       = 0
      max_size       = 1
    }
  }
}
`;
const UNIT = `include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

include "envcommon" {
  path           = "\${dirname(find_in_parent_folders("root.hcl"))}/live/_envcommon/eks.hcl"
  merge_strategy = "deep"
}

inputs = {
  eks_managed_node_groups = {
    gpu = {
      max_size = include.root.inputs.gpu_max
    }
  }
}
`;
const ENV = (name: string) => `locals {\n  environment = "${name}"\n}\n`;

const tree = (o: { gpuMax?: number; type?: string; unit?: string; region?: string } = {}): Tree => ({
  'root.hcl': ROOT(o.gpuMax ?? 2, o.region),
  'live/_envcommon/eks.hcl': ENVCOMMON(o.type ?? 'p4d.24xlarge'),
  'live/prod/env.hcl': ENV('prod'),
  'live/prod/eks/terragrunt.hcl': o.unit ?? UNIT,
  'live/staging/env.hcl': ENV('staging'),
  'live/staging/eks/terragrunt.hcl': o.unit ?? UNIT,
});

const PROD = 'live/prod/eks/terragrunt.hcl';
const STAGING = 'live/staging/eks/terragrunt.hcl';

describe('Terragrunt include chains', () => {
  it("a root.hcl's input (gpu_max 2 → 4) reaches every unit that includes it: 16 → 32 A100 in each", async () => {
    const result = await detectPr(tree(), tree({ gpuMax: 4 }));
    expect(changeRows(result)).toEqual([
      ['eks-node-group', 'gpu', 16, 32, 'A100', PROD, lineIn(UNIT, 'max_size = include.root.inputs.gpu_max')],
      ['eks-node-group', 'gpu', 16, 32, 'A100', STAGING, lineIn(UNIT, 'max_size = include.root.inputs.gpu_max')],
    ]);
    expect(result.coverage).toEqual([{ file: 'root.hcl', state: 'read', objects: 0 }]);
    expect(result.diagnostics).toEqual([]);
  });

  it("the _envcommon file's instance type (g5.12xlarge → p4d) reaches the units, deep-merged under their inputs", async () => {
    // 2 nodes (root.hcl's gpu_max) × 4 A10G → 2 × 8 A100, in each environment.
    const result = await detectPr(tree({ type: 'g5.12xlarge' }), tree());
    expect(changeRows(result).map((r) => r.slice(0, 5))).toEqual([
      ['eks-node-group', 'gpu', 8, 16, 'A100'],
      ['eks-node-group', 'gpu', 8, 16, 'A100'],
    ]);
    expect(result.coverage).toEqual([{ file: 'live/_envcommon/eks.hcl', state: 'read', objects: 0 }]);
  });

  it('a changed unit is read with what it includes: its own max_size literal wins over the parent', async () => {
    const head = UNIT.replace('max_size = include.root.inputs.gpu_max', 'max_size = 3');
    const result = await detectPr(tree(), { ...tree(), [PROD]: head });
    expect(changeRows(result)).toEqual([['eks-node-group', 'gpu', 16, 24, 'A100', PROD, lineIn(head, 'max_size = 3')]]);
    expect(result.coverage).toEqual([{ file: PROD, state: 'read', objects: 1 }]);
  });

  it('a parent edit that sizes nothing (region) is no change, and no unit is searched for', async () => {
    const result = await detectPr(tree(), tree({ region: 'us-west-2' }));
    expect(result.changes).toEqual([]);
    expect(result.coverage).toEqual([{ file: 'root.hcl', state: 'not-capacity' }]);
  });

  it('a legacy root terragrunt.hcl found by find_in_parent_folders() with no argument', async () => {
    const unit = `include {\n  path = find_in_parent_folders()\n}\n\nterraform {\n  source = "tfr:///terraform-aws-modules/eks/aws?version=20.8.0"\n}\n\ninputs = {\n  eks_managed_node_groups = {\n    gpu = {\n      instance_types = ["g5.12xlarge"]\n    }\n  }\n}\n`;
    const root = (n: number) => `inputs = {\n  eks_managed_node_groups = {\n    gpu = {\n      max_size = ${n}\n    }\n  }\n}\n`;
    const base = { 'terragrunt.hcl': root(1), 'prod/gpu/terragrunt.hcl': unit };
    const result = await detectPr(base, { ...base, 'terragrunt.hcl': root(5) });
    // Shallow merge: the unit's eks_managed_node_groups replaces the root's whole, so max_size is the module default (3).
    expect(changeRows(result)).toEqual([]);
    const deep = unit.replace('path = find_in_parent_folders()', 'path           = find_in_parent_folders()\n  merge_strategy = "deep"');
    const base2 = { 'terragrunt.hcl': root(1), 'prod/gpu/terragrunt.hcl': deep };
    const r2 = await detectPr(base2, { ...base2, 'terragrunt.hcl': root(5) });
    expect(changeRows(r2).map((r) => r.slice(0, 5))).toEqual([['eks-node-group', 'gpu', 4, 20, 'A10G']]);
  });

  it('an include whose path cannot be resolved leaves the changed unit not followed, with a warning at the include', async () => {
    const unit = UNIT.replace('path   = find_in_parent_folders("root.hcl")', 'path   = "${get_parent_terragrunt_dir()}/root.hcl"');
    const base = { ...tree(), [PROD]: unit };
    const head = { ...base, [PROD]: unit.replace('cluster_name', 'cluster_name').replace('gpu = {', 'gpu = {\n      desired_size = 1') };
    const result = await detectPr(base, head);
    expect(result.coverage.map((c) => c.state)).toEqual(['not-followed']);
    expect(result.coverage[0]?.notFollowed).toContainEqual(
      match.objectContaining({ reason: 'terragrunt-include', subject: 'include.root', needs: '${get_parent_terragrunt_dir()}/root.hcl' }),
    );
    expect(result.diagnostics).toContainEqual(
      match.objectContaining({ file: PROD, line: 1, severity: 'warning', message: match.stringContaining('get_parent_terragrunt_dir') }),
    );
  });

  it('a parent sizing change is not followed when a unit below it has an include that cannot be resolved', async () => {
    const root = (n: number) => `inputs = {\n  max_size = ${n}\n}\n`;
    const unit =
      'include "root" {\n  path = "${get_parent_terragrunt_dir()}/root.hcl"\n}\n\nterraform {\n  source = "tfr:///terraform-aws-modules/eks/aws?version=20.8.0"\n}\n';
    const base = { 'root.hcl': root(1), 'live/gpu/terragrunt.hcl': unit };
    const result = await detectPr(base, { ...base, 'root.hcl': root(5) });
    expect(result.coverage).toEqual([
      match.objectContaining({
        file: 'root.hcl',
        state: 'not-followed',
        notFollowed: [match.objectContaining({ reason: 'terragrunt-include' })],
      }),
    ]);
  });

  it('a unit whose env.hcl is missing at head is not followed', async () => {
    const head: Tree = { ...tree(), [PROD]: UNIT.replace('max_size = include', 'desired_size = 1\n      max_size = include') };
    delete head['live/prod/env.hcl'];
    const result = await detectPr(tree(), head);
    expect(result.coverage.find((c) => c.file === PROD)?.state).toBe('not-followed');
  });
});

describe('Terragrunt units built from read_terragrunt_config files', () => {
  const unit = `include "root" {
  path = find_in_parent_folders("root.hcl")
}

include "env" {
  path   = "\${get_terragrunt_dir()}/../_env/eks.hcl"
  expose = true
}

terraform {
  source = "\${include.env.locals.source_base_url}?version=20.8.0"
}

locals {
  common = read_terragrunt_config(find_in_parent_folders("common.hcl"))
  eks    = read_terragrunt_config("eks.hcl")
}

inputs = merge(local.common.inputs, local.eks.inputs)
`;
  const eks = (max: number) =>
    `inputs = {\n  eks_managed_node_groups = {\n    gpu = {\n      instance_types = ["g6e.12xlarge"]\n      max_size       = ${max}\n    }\n  }\n}\n`;
  const tree = (max: number): Tree => ({
    'root.hcl': 'remote_state {\n  backend = "s3"\n}\n',
    'live/common.hcl': 'inputs = {\n  cluster_name = "ml"\n}\n',
    'live/_env/eks.hcl': 'locals {\n  source_base_url = "tfr:///terraform-aws-modules/eks/aws"\n}\n',
    'live/prod/terragrunt.hcl': unit,
    'live/prod/eks.hcl': eks(max),
  });

  it('an eks.hcl beside the unit (max_size 1 → 3) reaches it, the source coming from include.env.locals', async () => {
    // g6e.12xlarge has 4 L40S: 1 × 4 → 3 × 4.
    const result = await detectPr(tree(1), tree(3));
    expect(changeRows(result).map((r) => r.slice(0, 5))).toEqual([['eks-node-group', 'gpu', 4, 12, 'L40S']]);
    expect(result.coverage).toEqual([{ file: 'live/prod/eks.hcl', state: 'read', objects: 0 }]);
  });
});
