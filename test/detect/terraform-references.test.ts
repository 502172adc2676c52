import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

const TEMPLATES = `resource "aws_launch_template" "gpu" {
  name_prefix   = "workers"
  instance_type = "p4d.24xlarge"
}
resource "aws_launch_template" "cpu" {
  name_prefix   = "system"
  instance_type = "m6i.large"
}
`;
const ASG = (template: string, max: number) => `resource "aws_autoscaling_group" "workers" {
  name             = "workers"
  desired_capacity = 1
  max_size         = ${max}
  min_size         = 0
  launch_template {
    id      = aws_launch_template.${template}.id
    version = "$Latest"
  }
}
output "workers" {
  value = aws_launch_template.gpu.id
}
`;
const NODE_GROUP = (template: string, max: number) => `resource "aws_eks_node_group" "workers" {
  cluster_name    = "main"
  node_group_name = "workers"
  node_role_arn   = "arn:aws:iam::1:role/nodes"
  subnet_ids      = ["subnet-1"]
  scaling_config {
    desired_size = 1
    max_size     = ${max}
    min_size     = 0
  }
  launch_template {
    id      = aws_launch_template.${template}.id
    version = aws_launch_template.${template}.latest_version
  }
}
`;
const MIG = (size: number) => `resource "google_compute_region_instance_group_manager" "trainers" {
  name               = "trainers"
  base_instance_name = "trainer"
  region             = "us-central1"
  target_size        = ${size}
  version {
    instance_template = google_compute_instance_template.a100.id
  }
}
`;
const INSTANCE_TEMPLATE = `resource "google_compute_instance_template" "a100" {
  machine_type = "a2-highgpu-1g"
  disk {
    source_image = "debian-cloud/debian-12"
  }
  network_interface {
    network = "default"
  }
}
`;

type Result = Awaited<ReturnType<typeof detectPr>>;
const notes = (r: Result, file: string) => r.coverage.find((c) => c.file === file)?.notFollowed ?? [];
const stateOf = (r: Result, file: string) => r.coverage.find((c) => c.file === file)?.state;

/**
 * A Terraform resource that takes its machines from another block (a launch template, an instance
 * template) names no GPU itself. Changed in a file of its own, it was no capacity; it is not
 * followed when the block it refers to names GPUs no reader accounts for.
 */
describe('Terraform blocks that take their machines from a block naming GPUs', () => {
  it('an Auto Scaling group resized in its own file, its launch template a GPU one elsewhere: not followed', async () => {
    const base: Tree = { 'infra/templates.tf': TEMPLATES, 'infra/asg.tf': ASG('gpu', 2) };
    const r = await detectPr(base, { ...base, 'infra/asg.tf': ASG('gpu', 4) });
    expect(notes(r, 'infra/asg.tf')).toEqual([
      {
        file: 'infra/asg.tf',
        line: 1,
        reason: 'gpu-reference',
        subject: 'aws_autoscaling_group.workers',
        needs: 'aws_launch_template.gpu (infra/templates.tf:1)',
        inputs: ['p4d.24xlarge'],
      },
    ]);
  });

  it('a node group switched to a GPU launch template is not followed; one resized on a CPU template is no capacity', async () => {
    const base: Tree = { 'eks/templates.tf': TEMPLATES, 'eks/nodes.tf': NODE_GROUP('cpu', 2) };
    const switched = await detectPr(base, { ...base, 'eks/nodes.tf': NODE_GROUP('gpu', 2) });
    expect(notes(switched, 'eks/nodes.tf').map((n) => n.reason)).toEqual(['gpu-reference']);
    const resized = await detectPr(base, { ...base, 'eks/nodes.tf': NODE_GROUP('cpu', 4) });
    expect(stateOf(resized, 'eks/nodes.tf')).not.toBe('not-followed');
  });

  it('a managed instance group resized, its instance template an A100 one in another file: not followed', async () => {
    const base: Tree = { 'gce/template.tf': INSTANCE_TEMPLATE, 'gce/mig.tf': MIG(2) };
    const r = await detectPr(base, { ...base, 'gce/mig.tf': MIG(5) });
    expect(notes(r, 'gce/mig.tf').map((n) => n.subject)).toEqual(['google_compute_region_instance_group_manager.trainers']);
  });

  it('a block of the file left as it was, and an output naming the template, hold nothing up', async () => {
    const base: Tree = { 'infra/templates.tf': TEMPLATES, 'infra/asg.tf': ASG('gpu', 2) };
    const r = await detectPr(base, {
      ...base,
      'infra/asg.tf': `${ASG('gpu', 2)}\nresource "aws_sns_topic" "alerts" {\n  name = "alerts"\n}\n`,
    });
    expect(stateOf(r, 'infra/asg.tf')).not.toBe('not-followed');
  });

  it("a module's output changed, read by its caller into a GPU pool's count: not followed on the output", async () => {
    const pool = `resource "google_container_node_pool" "pool" {\n  name       = "pool"\n  location   = "us-central1-a"\n  node_count = module.sizes.nodes\n  node_config {\n    machine_type = "g2-standard-4"\n  }\n}\n`;
    const sizes = (n: number) => `output "nodes" {\n  value = ${n}\n}\noutput "zone" {\n  value = "us-central1-a"\n}\n`;
    const base: Tree = { 'infra/main.tf': `module "sizes" {\n  source = "./sizes"\n}\n${pool}`, 'infra/sizes/outputs.tf': sizes(2) };
    const r = await detectPr(base, { ...base, 'infra/sizes/outputs.tf': sizes(5) });
    expect(notes(r, 'infra/sizes/outputs.tf')).toMatchObject([{ reason: 'gpu-reference', subject: 'output.nodes' }]);
    const other = await detectPr(base, { ...base, 'infra/sizes/outputs.tf': sizes(2).replace('us-central1-a', 'us-central1-b') });
    expect(stateOf(other, 'infra/sizes/outputs.tf')).not.toBe('not-followed');
  });
});
