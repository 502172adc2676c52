import { describe, expect, it } from 'vitest';
import { lookupInstanceType } from '../kit/gpu-types/index.js';
import { parseTerraformSet } from './terraform-parser.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

/** A HyperPod cluster as aws-samples' hyperpod-eks module declares it, its groups from tfvars. */
const MAIN = `variable "instance_groups" {}

resource "awscc_sagemaker_cluster" "hyperpod" {
  cluster_name = "ml"
  instance_groups = [for g in var.instance_groups : {
    instance_group_name = g.name
    instance_type       = g.instance_type
    instance_count      = g.instance_count
  }]
}
`;
const tfvars = (count: number) => `instance_groups = [
  {
    name           = "accelerated-1"
    instance_type  = "ml.g5.8xlarge"
    instance_count = ${count}
  },
  {
    name           = "controller"
    instance_type  = "ml.m5.2xlarge"
    instance_count = 1
  }
]
`;

describe('SageMaker HyperPod instance groups', () => {
  it('take ml. instance types as the EC2 types they are', () => {
    expect(lookupInstanceType('ml.p5.48xlarge')).toMatchObject({ gpus: 8, gpuModel: 'H100' });
    expect(lookupInstanceType('ml.m5.2xlarge')).toBeNull();
  });

  it('are one declaration per GPU group, instance_count × its GPUs', () => {
    const literal = `resource "awscc_sagemaker_cluster" "hp" {\n  instance_groups = [{\n    instance_group_name = "workers"\n    instance_type       = "ml.p5.48xlarge"\n    instance_count      = 4\n  }]\n}\n`;
    const r = parseTerraformSet([{ path: 'hp.tf', text: literal }]);
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.gpuStep, d.line])).toEqual([
      ['sagemaker-hyperpod-group', 'workers', 'H100', 32, 8, lineIn(literal, 'instance_count')],
    ]);
  });

  it('a tfvars change of a group built by a for expression is a change of that group', async () => {
    const base = { 'hp/main.tf': MAIN, 'hp/terraform.tfvars': tfvars(2) };
    const result = await detectPr(base, { ...base, 'hp/terraform.tfvars': tfvars(4) });
    expect(changeRows(result).map((r) => r.slice(0, 5))).toEqual([['sagemaker-hyperpod-group', 'accelerated-1', 2, 4, 'A10G']]);
  });
});
