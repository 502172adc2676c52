import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

/**
 * A changed machine resource no parser reads, whose machine type is a variable or a local defined
 * in another file of its module (terraform-value-references.ts): the size changes in one file, the
 * GPU is named in another, and the review must not pass it as no capacity.
 */

/** Where the machine type is written: [what the resource reads, the files that define it]. */
const HOLDERS = (gpu: string): readonly (readonly [ref: string, files: Tree])[] => [
  ['var.machine', { 'variables.tf': `variable "machine" {\n  type    = string\n  default = "${gpu}"\n}\n` }],
  ['var.machines[0]', { 'variables.tf': `variable "machines" {\n  type    = list(string)\n  default = ["${gpu}"]\n}\n` }],
  [
    'var.machine',
    { 'variables.tf': 'variable "machine" {\n  type = string\n}\n', 'terraform.tfvars': `region  = "eu-west-1"\nmachine = "${gpu}"\n` },
  ],
  ['var.machine', { 'variables.tf': 'variable "machine" {}\n', 'prod.auto.tfvars': `machine = "${gpu}"\n` }],
  ['local.machine', { 'locals.tf': `locals {\n  system  = "m6i.large"\n  machine = "${gpu}"\n}\n` }],
  ['local.pools.train.machine', { 'locals.tf': `locals {\n  pools = {\n    train = {\n      machine = "${gpu}"\n    }\n  }\n}\n` }],
];

/** Resources no parser reads that take a machine type and a size: [type, body with MACHINE and SIZE]. */
const RESOURCES: readonly (readonly [type: string, body: string, gpu: string])[] = [
  [
    'aws_autoscaling_group',
    '  name     = "workers"\n  min_size = 0\n  max_size = SIZE\n  mixed_instances_policy {\n    launch_template {\n      launch_template_specification {\n        launch_template_id = "lt-1"\n      }\n      override {\n        instance_type = MACHINE\n      }\n    }\n  }\n',
    'g5.12xlarge',
  ],
  ['aws_instance', '  count         = SIZE\n  ami           = "ami-1"\n  instance_type = MACHINE\n', 'p4d.24xlarge'],
  [
    'ovh_cloud_project_kube_nodepool',
    '  service_name  = "p"\n  kube_id       = "k"\n  name          = "gpu"\n  flavor_name   = MACHINE\n  desired_nodes = SIZE\n',
    'l40s-90',
  ],
  [
    'digitalocean_kubernetes_node_pool',
    '  cluster_id = "c"\n  name       = "gpu"\n  size       = MACHINE\n  node_count = SIZE\n',
    'gpu-h100x1-80gb',
  ],
  ['scaleway_k8s_pool', '  cluster_id = "c"\n  name       = "gpu"\n  node_type  = MACHINE\n  size       = SIZE\n', 'L4-1-24G'],
];

const resource = (type: string, body: string, ref: string, size: number) =>
  `resource "${type}" "workers" {\n${body.replace('MACHINE', ref).replace('SIZE', String(size))}}\n`;

const outcome = async (base: Tree, head: Tree) => {
  const r = await detectPr(base, head);
  return { changes: r.changes.length, states: r.coverage.map((c) => [c.file, c.state]) };
};

describe('a changed machine resource whose machine type is a variable or a local', () => {
  const cases = RESOURCES.flatMap(([type, body, gpu]) =>
    HOLDERS(gpu).map(([ref, files], i) => [`${type} ← ${ref} (#${String(i)})`, type, body, ref, files] as const),
  );
  it.each(cases)('%s: the size changed in its own file is not followed', async (_id, type, body, ref, files) => {
    const base = { ...files, 'main.tf': resource(type, body, ref, 1) };
    const head = { ...base, 'main.tf': resource(type, body, ref, 3) };
    expect(await outcome(base, head)).toEqual({ changes: 0, states: [['main.tf', 'not-followed']] });
    // At the base side too: the resource removed.
    expect(await outcome(base, { ...files })).toEqual({ changes: 0, states: [['main.tf', 'not-followed']] });
  });

  it.each(RESOURCES)('%s reading a CPU machine beside a GPU one of the same module: no change', async (type, body, gpu) => {
    const files = {
      'variables.tf': `variable "machine" {\n  default = "m6i.large"\n}\nvariable "gpu_machine" {\n  default = "${gpu}"\n}\n`,
      'locals.tf': `locals {\n  system = "m6i.large"\n  train  = "${gpu}"\n}\n`,
    };
    for (const ref of ['var.machine', 'local.system']) {
      const base = { ...files, 'main.tf': resource(type, body, ref, 1) };
      expect(await outcome(base, { ...base, 'main.tf': resource(type, body, ref, 3) })).toEqual({
        changes: 0,
        states: [['main.tf', 'not-capacity']],
      });
    }
  });

  it('a resource that makes no machines reading a GPU variable is no change (a DNS record, a bucket tag)', async () => {
    const files = { 'variables.tf': 'variable "machine" {\n  default = "p4d.24xlarge"\n}\n' };
    const record = (ttl: number) =>
      `resource "aws_route53_record" "r" {\n  name    = var.machine\n  records = ["1.2.3.4"]\n  ttl     = ${String(ttl)}\n}\n`;
    const base = { ...files, 'dns.tf': record(60) };
    expect(await outcome(base, { ...base, 'dns.tf': record(120) })).toEqual({ changes: 0, states: [['dns.tf', 'not-capacity']] });
  });

  it('a node group a parser reads with its variable is counted, and a tag changed beside it is no change', async () => {
    const files = { 'variables.tf': 'variable "gpu_types" {\n  default = ["g5.xlarge"]\n}\n' };
    const group = (max: number, team: string) =>
      `resource "aws_eks_node_group" "gpu" {\n  cluster_name    = "c"\n  node_group_name = "gpu"\n  node_role_arn   = "arn"\n  subnet_ids      = ["a"]\n  instance_types  = var.gpu_types\n  scaling_config {\n    desired_size = 1\n    max_size     = ${String(max)}\n    min_size     = 0\n  }\n  tags = { team = "${team}" }\n}\n`;
    const base = { ...files, 'ng.tf': group(2, 'a') };
    expect(await outcome(base, { ...base, 'ng.tf': group(4, 'a') })).toEqual({ changes: 1, states: [['ng.tf', 'read']] });
    expect(await outcome(base, { ...base, 'ng.tf': group(2, 'b') })).toEqual({ changes: 0, states: [['ng.tf', 'read']] });
  });
});
