import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';

/**
 * A changed value in a variable file is judged by the GPU names the floor reads: a machine
 * image's name that says `nvidia` sizes nothing (as it does not as the variable's default), while
 * a GPU machine type or accelerator, or a value under a GPU key, fed to what no reader follows,
 * is not followed.
 */

const MAIN = `data "aws_ami" "gpu" {
  most_recent = true
  owners      = ["amazon"]
  filter {
    name   = "name"
    values = [var.node_image_pattern]
  }
}

resource "aws_launch_template" "nodes" {
  image_id      = data.aws_ami.gpu.id
  instance_type = var.node_type
}

resource "aws_autoscaling_group" "nodes" {
  max_size = var.gpu_node_count
  min_size = 0
  launch_template {
    id = aws_launch_template.nodes.id
  }
}
`;
const VARIABLES = ['node_image_pattern', 'node_type', 'gpu_node_count'].map((v) => `variable "${v}" {}\n`).join('');

const tree = (values: Record<string, string>, file: string) => ({
  'infra/main.tf': MAIN,
  'infra/variables.tf': VARIABLES,
  [`infra/${file}`]: Object.entries(values)
    .map(([k, v]) => `${k} = ${v}\n`)
    .join(''),
});

const BASE = { node_image_pattern: '"amazon-eks-node-al2023-x86_64-nvidia-1.35-*"', node_type: '"m5.large"', gpu_node_count: '2' };
const flagged = (r: DetectedChanges) =>
  r.coverage.some((c) => c.state === 'not-followed') || r.diagnostics.some((d) => d.severity === 'error');

const IMAGES = [
  '"amazon-eks-node-al2023-x86_64-nvidia-1.36-*"',
  '"amazon-eks-gpu-node-1.31-*"',
  '"ubuntu-eks/k8s_1.31/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"',
  '"bottlerocket-aws-k8s-1.31-nvidia-x86_64-*"',
];
const FILES = ['terraform.tfvars', 'prod.auto.tfvars', 'gj.auto.tfvars.json'];

const write = (file: string, values: Record<string, string>) =>
  file.endsWith('.json')
    ? {
        'infra/main.tf': MAIN,
        'infra/variables.tf': VARIABLES,
        [`infra/${file}`]: JSON.stringify(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, JSON.parse(v) as unknown]))),
      }
    : tree(values, file);

describe('a changed value of a variable file, fed to what no reader follows', () => {
  it.each(FILES.flatMap((f) => IMAGES.map((i) => [f, i])))('%s: a machine image pattern → %s is no change', async (file, image) => {
    const r = await detectPr(write(file, BASE), write(file, { ...BASE, node_image_pattern: image }));
    expect(r.changes).toEqual([]);
    expect(flagged(r), JSON.stringify(r.coverage)).toBe(false);
  });

  it.each(FILES.flatMap((f) => ['"g5.12xlarge"', '"p4d.24xlarge"', '"Standard_NC6s_v3"'].map((t) => [f, t])))(
    '%s: a GPU machine type %s is not followed',
    async (file, type) => {
      const r = await detectPr(write(file, BASE), write(file, { ...BASE, node_type: type }));
      expect(flagged(r)).toBe(true);
    },
  );

  it.each(FILES)('%s: a count under a GPU key is not followed', async (file) => {
    const r = await detectPr(write(file, BASE), write(file, { ...BASE, gpu_node_count: '8' }));
    expect(flagged(r)).toBe(true);
  });
});
