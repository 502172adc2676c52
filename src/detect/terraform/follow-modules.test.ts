import { describe, expect, it } from 'vitest';
import { detectChanges } from '../detect-changes.js';
import { listingPr, type Tree } from '../../../test/detect/listing-tree.js';

const rows = async (base: Tree, head: Tree) => {
  const got = await detectChanges(listingPr(base, head));
  return {
    changes: got.changes.map((c) => [c.file, c.line, c.name, c.gpuModel, c.gpusBefore, c.gpusAfter]),
    coverage: got.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => n.reason)]),
    warnings: got.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message),
  };
};

/** A module of the repository: one GKE pool sized by its variables, A100s (a2-highgpu-4g: 4 per node). */
const MODULE: Tree = {
  'modules/gpu-pool/variables.tf': [
    'variable "name" {',
    '  type = string',
    '}',
    'variable "cluster_id" {',
    '  type = string',
    '}',
    'variable "pool" {',
    '  type = object({',
    '    machine_type = optional(string, "a2-highgpu-4g")',
    '    max_count    = optional(number, 1)',
    '  })',
    '}',
    '',
  ].join('\n'),
  'modules/gpu-pool/main.tf': [
    'resource "google_container_node_pool" "gpu" {',
    '  name     = var.name',
    '  cluster  = var.cluster_id',
    '  location = "us-central1-a"',
    '  autoscaling {',
    '    min_node_count = 0',
    '    max_node_count = var.pool.max_count',
    '  }',
    '  node_config {',
    '    machine_type = var.pool.machine_type',
    '  }',
    '}',
    '',
  ].join('\n'),
};

const call = (max: number) =>
  [
    'resource "random_id" "suffix" {',
    '  byte_length = 4',
    '}',
    'module "training" {',
    '  source     = "./modules/gpu-pool"',
    '  name       = "training-${random_id.suffix.hex}"',
    '  cluster_id = google_container_cluster.main.id',
    `  pool       = { max_count = ${max} }`,
    '}',
    '',
  ].join('\n');

describe('local modules read through their calls', () => {
  it("binds the call's arguments to the module's variables, optional() defaults and values known after apply included", async () => {
    const got = await rows({ ...MODULE, 'main.tf': call(2) }, { ...MODULE, 'main.tf': call(6) });
    // 2 → 6 nodes × 4 A100s; the name holds a random suffix known after apply, so the pool goes by its resource label.
    expect(got.changes).toEqual([['main.tf', 4, 'gpu', 'A100', 8, 24]]);
    expect(got.coverage).toEqual([['main.tf', 'read']]);
    expect(got.warnings).toEqual([]);
  });

  it('one call per cluster with for_each is one pool per cluster', async () => {
    const clusters = (max: number) =>
      [
        'locals {',
        '  clusters = ["east", "west", "north", "south"]',
        '}',
        'module "pools" {',
        '  for_each   = toset(local.clusters)',
        '  source     = "./modules/gpu-pool"',
        '  name       = "gpu"',
        '  cluster_id = each.key',
        `  pool       = { max_count = ${max} }`,
        '}',
        '',
      ].join('\n');
    const got = await rows({ ...MODULE, 'main.tf': clusters(1) }, { ...MODULE, 'main.tf': clusters(2) });
    expect(got.changes.map((c) => [c[2], c[4], c[5]])).toEqual([
      ['gpu [east]', 4, 8],
      ['gpu [north]', 4, 8],
      ['gpu [south]', 4, 8],
      ['gpu [west]', 4, 8],
    ]);
  });

  it('a call with more copies than are read one by one is not followed, unless what it is given did not change', async () => {
    const many = (max: number, extra = '') =>
      [
        'module "pools" {',
        '  for_each   = toset([for i in range(100) : "c${i}"])',
        '  source     = "./modules/gpu-pool"',
        '  name       = "gpu"',
        '  cluster_id = each.key',
        `  pool       = { max_count = ${max} }`,
        '}',
        extra,
      ].join('\n');
    const grown = await rows({ ...MODULE, 'main.tf': many(1) }, { ...MODULE, 'main.tf': many(2) });
    expect(grown.changes).toEqual([]);
    // The copies that are not read, and the input whose value changed.
    expect(grown.coverage).toEqual([['main.tf', 'not-followed', 'local-module', 'local-module']]);
    const same = await rows({ ...MODULE, 'main.tf': many(1) }, { ...MODULE, 'main.tf': many(1, 'output "x" {\n  value = 1\n}\n') });
    expect(same.coverage).toEqual([['main.tf', 'read']]);
  });

  it('a change inside the module is counted once, through the call, when both change', async () => {
    const head: Tree = { ...MODULE, 'main.tf': call(2) };
    head['modules/gpu-pool/variables.tf'] = (MODULE['modules/gpu-pool/variables.tf'] ?? '').replace('"a2-highgpu-4g"', '"a2-highgpu-8g"');
    const got = await rows({ ...MODULE, 'main.tf': call(1) }, head);
    expect(got.changes).toEqual([['main.tf', 4, 'gpu', 'A100', 4, 16]]);
  });
});

describe('variable files laid out apart from their module', () => {
  const ROOT: Tree = {
    'terraform/variables.tf': 'variable "gpu_max_nodes" {\n  type    = number\n  default = 1\n}\n',
    'terraform/main.tf': [
      'resource "google_container_node_pool" "gpu" {',
      '  name     = "gpu"',
      '  cluster  = "c"',
      '  location = "us-central1-a"',
      '  autoscaling {',
      '    max_node_count = var.gpu_max_nodes',
      '  }',
      '  node_config {',
      '    machine_type = "g2-standard-8"',
      '  }',
      '}',
      '',
    ].join('\n'),
  };

  it('envs/<env>/terraform.tfvars is read with the root module above it that declares its variables', async () => {
    const tfvars = (n: number) => `gpu_max_nodes = ${n}\n`;
    const got = await rows(
      { ...ROOT, 'terraform/envs/prod/terraform.tfvars': tfvars(2) },
      { ...ROOT, 'terraform/envs/prod/terraform.tfvars': tfvars(5) },
    );
    // g2-standard-8: one L4 per node.
    expect(got.changes).toEqual([['terraform/envs/prod/terraform.tfvars', 1, 'gpu', 'L4', 2, 5]]);
    expect(got.coverage).toEqual([['terraform/envs/prod/terraform.tfvars', 'read']]);
  });

  it('a variable file whose variables no module above declares stays not followed', async () => {
    const tfvars = (n: number) => `gpu_pool_size = ${n}\naccelerator = "nvidia-l4"\n`;
    const got = await rows({ 'stacks/gpu/prod.tfvars': tfvars(2) }, { 'stacks/gpu/prod.tfvars': tfvars(4) });
    expect(got.coverage).toEqual([['stacks/gpu/prod.tfvars', 'not-followed', 'tfvars-no-module']]);
  });
});
