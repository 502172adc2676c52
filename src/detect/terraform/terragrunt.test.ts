import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { terraformParser } from './terraform-parser.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** A Terragrunt unit calling terraform-aws-modules/eks, its node groups in `inputs`. */
const unit = (gpuMax: number) => `terraform {
  source = "tfr:///terraform-aws-modules/eks/aws?version=20.8.0"
}

locals {
  gpu_max = ${gpuMax}
}

inputs = {
  cluster_name = "prod-cluster"
  vpc_id       = dependency.vpc.outputs.vpc_id

  eks_managed_node_groups = {
    general = {
      instance_types = ["m5.large"]
      max_size       = 10
    }
    gpu = {
      instance_types = ["p4d.24xlarge"]
      max_size       = local.gpu_max
    }
  }
}
`;
const FILE = 'live/prod/eks/terragrunt.hcl';

describe('a Terragrunt unit', () => {
  it('is read as the module call it makes: its EKS node groups from inputs, locals resolved', async () => {
    const result = await detectPr({ [FILE]: unit(2) }, { [FILE]: unit(4) });
    expect(changeRows(result)).toEqual([
      ['eks-node-group', 'gpu', 16, 32, 'A100', FILE, lineIn(unit(4), 'max_size       = local.gpu_max')],
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it('calling a module gpu-justify does not read, handed GPU types, is warned about at its inputs', () => {
    const other = `terraform {\n  source = "git::https://example.com/infra/gpu-pool.git?ref=v1"\n}\n\ninputs = {\n  machine_type = "a2-highgpu-1g"\n  node_count   = 2\n}\n`;
    const r = terraformParser.parse(FILE, other);
    expect(r.decls).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        line: 5,
        severity: 'warning',
        message: match.stringContaining(
          'module.terragrunt (source git::https://example.com/infra/gpu-pool.git?ref=v1) is given GPU machine types',
        ),
      }),
    ]);
  });

  it('is claimed only as terragrunt.hcl with inputs', () => {
    expect(terraformParser.mightContain(FILE, unit(2))).toBe(true);
    expect(terraformParser.mightContain(FILE, 'include "root" {\n  path = find_in_parent_folders()\n}\n')).toBe(false);
    expect(terraformParser.mightContain('root.hcl', unit(2))).toBe(false);
  });
});
