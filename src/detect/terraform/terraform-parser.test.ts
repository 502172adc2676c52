import { describe, expect, it } from 'vitest';
import { detectChanges } from '../detect-changes.js';
import { parseTerraformSet, terraformParser } from './terraform-parser.js';
import type { ChangeSet, TreeReader } from '../../domain/index.js';

const one = (text: string, path = 'main.tf') => parseTerraformSet([{ path, text }]);
const summary = (r: ReturnType<typeof one>) => r.decls.map((d) => [d.kind, d.name, d.gpus, d.line]);
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

const gke = (body: string) =>
  `resource "google_container_node_pool" "gpu" {\n  name = "gpu-pool"\n  location = "us-central1-a"\n${body}\n}\n`;

describe('google_container_node_pool', () => {
  it('autoscaling max × guest_accelerator count, attribute and block syntax alike', () => {
    const block = gke(
      '  autoscaling {\n    min_node_count = 1\n    max_node_count = 4\n  }\n  node_config {\n    machine_type = "n1-standard-8"\n    guest_accelerator {\n      type  = "nvidia-tesla-t4"\n      count = 2\n    }\n  }',
    );
    expect(summary(one(block))).toEqual([['gke-node-pool', 'gpu-pool', 8, lineOf(block, 'max_node_count')]]);
    expect(one(block).decls[0]?.gpuModel).toBe('T4');
    const attr = gke('  node_count = 3\n  node_config {\n    guest_accelerator = [{ type = "nvidia-l4", count = 1 }]\n  }');
    expect(summary(one(attr))).toEqual([['gke-node-pool', 'gpu-pool', 3, lineOf(attr, 'node_count')]]);
  });

  it('machine types imply GPUs; CPU pools are no GPU capacity', () => {
    expect(one(gke('  node_count = 2\n  node_config { machine_type = "a2-highgpu-4g" }')).decls[0]?.gpus).toBe(8);
    expect(one(gke('  node_count = 2\n  node_config { machine_type = "e2-standard-4" }'))).toEqual({
      decls: [],
      diagnostics: [],
      unresolved: [],
    });
  });

  it('regional pools multiply per-zone counts by literal node_locations; total_* is a total', () => {
    const regional = `resource "google_container_node_pool" "r" {\n  location = "us-central1"\n  node_locations = ["us-central1-a", "us-central1-b"]\n  autoscaling {\n    max_node_count = 3\n  }\n  node_config { machine_type = "g2-standard-4" }\n}\n`;
    expect(summary(one(regional))).toEqual([['gke-node-pool', 'r', 6, 5]]);
    const total = regional.replace('max_node_count = 3', 'total_max_node_count = 5');
    expect(one(total).decls[0]?.gpus).toBe(5);
    // No node_locations in a region: GKE's regional default of 3 zones, said in a warning.
    const regionDefault = regional.replace(/ {2}node_locations.*\n/, '');
    const r = one(regionDefault);
    expect(r.decls[0]?.gpus).toBe(9);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('us-central1 is a region and node_locations is not set: counted for 3 zones'),
    ]);
    const unknownZones = regionDefault.replace('location = "us-central1"', 'location = var.where');
    const u = one(unknownZones);
    expect(u.decls[0]?.gpus).toBe(3);
    expect(u.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('number of zones is unknown (node_locations is not set and location comes from var.where'),
    ]);
  });

  it('dynamic guest_accelerator over a static local, for_each over a literal map', () => {
    const text = `locals {\n  accels = [{ type = "nvidia-h100-80gb", count = 8 }]\n  pools = { a = 1, b = 2 }\n}\nresource "google_container_node_pool" "p" {\n  for_each = local.pools\n  name = "pool-\${each.key}"\n  location = "us-east5-a"\n  node_count = each.value\n  node_config {\n    dynamic "guest_accelerator" {\n      for_each = local.accels\n      iterator = ga\n      content {\n        type  = ga.value.type\n        count = ga.value.count\n      }\n    }\n  }\n}\n`;
    const r = one(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.decls.map((d) => [d.name, d.gpus, d.gpuModel])).toEqual([
      ['pool-a', 8, 'H100'],
      ['pool-b', 16, 'H100'],
    ]);
  });

  it('counted copies whose GPUs depend on count.index are read one by one', () => {
    // As dudaji/terraform-gke sizes four K80 pools: 1, 2, 4 and 8 GPUs per node, 8 nodes each.
    const pools = (name: string) =>
      `resource "google_container_node_pool" "gpu" {\n  count    = 4\n  name     = ${name}\n  location = "us-central1-a"\n  autoscaling {\n    max_node_count = 8\n  }\n  node_config {\n    guest_accelerator {\n      type  = "nvidia-tesla-k80"\n      count = pow(2, count.index)\n    }\n  }\n}\n`;
    const alike = one(pools('var.prefix'));
    expect(alike.decls.map((d) => [d.name, d.gpus, d.gpuModel, d.parts.length])).toEqual([['gpu', 120, 'K80', 4]]);
    expect(alike.decls[0]).not.toHaveProperty('gpuStep');
    const named = one(pools('"k80-${pow(2, count.index)}"'));
    expect(named.decls.map((d) => [d.name, d.gpus, d.gpuStep])).toEqual([
      ['k80-1', 8, 1],
      ['k80-2', 16, 2],
      ['k80-4', 32, 4],
      ['k80-8', 64, 8],
    ]);
    // Copies that read the same are still one decl of count × the one.
    expect(one(pools('var.prefix').replace('pow(2, count.index)', '2')).decls.map((d) => [d.gpus, d.gpuStep])).toEqual([[64, 8]]);
  });

  it('an unresolvable count is a warning naming the expression and line, never 0', () => {
    const text = `variable "gpu_nodes" {}\n${gke('  node_count = var.gpu_nodes\n  node_config { machine_type = "a3-highgpu-8g" }')}`;
    const r = one(text);
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['gpu-pool']);
    expect(r.diagnostics).toEqual([
      {
        file: 'main.tf',
        line: lineOf(text, 'node_count'),
        severity: 'warning',
        message: 'google_container_node_pool.gpu: node_count comes from var.gpu_nodes, which has no default: cannot tell the GPU count',
      },
    ]);
  });

  it('commented-out pools and blocks do not count', () => {
    const text = `# resource "google_container_node_pool" "old" {\n#   node_count = 9\n# }\n${gke('  node_count = 1\n  /* node_count = 50 */\n  node_config {\n    machine_type = "g2-standard-4"\n    // guest_accelerator { count = 4 }\n  }')}`;
    expect(summary(one(text))).toEqual([['gke-node-pool', 'gpu-pool', 1, lineOf(text, 'node_count = 1')]]);
  });

  it('a repeated attribute is an HCL error (as in Terraform); a repeated object key takes the last value', () => {
    const r = one(gke('  node_count = 1\n  node_count = 2\n  node_config { machine_type = "g2-standard-4" }'));
    expect(r.diagnostics.map((d) => [d.severity, d.line])).toEqual([['error', 5]]);
    const text = `locals {\n  n = { max = 1, max = 7 }\n}\n${gke('  node_count = local.n.max\n  node_config { machine_type = "g2-standard-4" }')}`;
    expect(one(text).decls[0]?.gpus).toBe(7);
  });

  it('malformed HCL gives an error with file and line, no throw', () => {
    const r = one('resource "google_container_node_pool" "x" {\n  node_count = \n}\n', 'infra/gke.tf');
    expect(r.decls).toEqual([]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ file: 'infra/gke.tf', line: 2, severity: 'error' })]);
  });

  it('heredoc text cannot be mistaken for attributes', () => {
    const text = gke(
      '  node_count = 2\n  node_config {\n    machine_type = "g2-standard-4"\n    metadata = {\n      x = <<-EOT\n        node_count = 40\n      EOT\n    }\n  }',
    );
    expect(summary(one(text))).toEqual([['gke-node-pool', 'gpu-pool', 2, lineOf(text, 'node_count = 2')]]);
  });
});

describe('aws_eks_node_group and azurerm_kubernetes_cluster_node_pool', () => {
  it('EKS: scaling_config.max_size × the instance type GPUs', () => {
    const text = `resource "aws_eks_node_group" "gpu" {\n  node_group_name = "p4"\n  instance_types = ["p4d.24xlarge"]\n  scaling_config {\n    desired_size = 0\n    min_size = 0\n    max_size = 2\n  }\n}\n`;
    expect(summary(one(text))).toEqual([['eks-node-group', 'p4', 16, 7]]);
    expect(one(text).decls[0]?.gpuStep).toBe(8);
  });

  it('EKS: instance types that differ in GPUs count at the most per node, with no step for one more node', () => {
    // g5.12xlarge has 4 GPUs, g5.48xlarge 8: one more node adds 4 or 8.
    const text = `resource "aws_eks_node_group" "gpu" {\n  node_group_name = "g5"\n  instance_types = ["g5.12xlarge", "g5.48xlarge"]\n  scaling_config {\n    max_size = 3\n  }\n}\n`;
    const decl = one(text).decls[0];
    expect(decl).toMatchObject({ gpus: 24, gpuModel: 'A10G' });
    expect(decl).not.toHaveProperty('gpuStep');
    expect(decl?.parts[0]?.label).toContain('instance types differ in GPUs per node: counted at the most');
    const same = text.replace('"g5.12xlarge", "g5.48xlarge"', '"g5.12xlarge", "g5.24xlarge"');
    expect(one(same).decls[0]?.gpuStep).toBe(4);
  });

  it('AKS: max_count when autoscaling, node_count otherwise; tfvars win over defaults', () => {
    const pool = `resource "azurerm_kubernetes_cluster_node_pool" "gpu" {\n  name = "a100"\n  vm_size = var.vm\n  node_count = 1\n  auto_scaling_enabled = var.auto\n  min_count = 1\n  max_count = 4\n}\n`;
    const vars = `variable "vm" {\n  default = "Standard_NC24ads_A100_v4"\n}\nvariable "auto" {\n  default = false\n}\n`;
    const set = (tfvars?: string) =>
      parseTerraformSet([
        { path: 'm/main.tf', text: pool },
        { path: 'm/variables.tf', text: vars },
        ...(tfvars ? [{ path: 'm/terraform.tfvars', text: tfvars }] : []),
      ]);
    expect(summary(set())).toEqual([['aks-node-pool', 'a100', 1, 4]]);
    expect(summary(set('auto = true\n'))).toEqual([['aks-node-pool', 'a100', 4, 7]]);
  });
});

describe('azurerm_kubernetes_cluster default_node_pool', () => {
  const cluster = (pool: string) =>
    `resource "azurerm_kubernetes_cluster" "aks" {\n  name       = var.aks_name\n  dns_prefix = "ml"\n\n  default_node_pool {\n${pool}\n  }\n}\n`;

  it('a GPU VM size is a pool named as the default pool, counted as AKS node pools are', () => {
    const fixed = cluster('    name       = "default"\n    node_count = 3\n    vm_size    = "Standard_NC24s_v3"');
    expect(summary(one(fixed))).toEqual([['aks-node-pool', 'default', 12, lineOf(fixed, 'node_count')]]);
    expect(one(fixed).decls[0]).toMatchObject({ gpuModel: 'V100', gpuStep: 4 });
    const scaled = cluster(
      '    name                 = "gpu"\n    vm_size              = "Standard_NC24ads_A100_v4"\n    auto_scaling_enabled = true\n    min_count            = 1\n    max_count            = 5',
    );
    expect(summary(one(scaled))).toEqual([['aks-node-pool', 'gpu', 5, lineOf(scaled, 'max_count')]]);
  });

  it('a CPU default pool is no GPU capacity; an unknown count keeps the pool under its own name', () => {
    expect(one(cluster('    name = "system"\n    node_count = 3\n    vm_size = "Standard_D4s_v5"'))).toEqual({
      decls: [],
      diagnostics: [],
      unresolved: [],
    });
    const unknown = one(cluster('    name       = "default"\n    node_count = var.node_count\n    vm_size    = "Standard_NC24s_v3"'));
    expect(unknown.unresolved).toEqual([expect.objectContaining({ kind: 'aks-node-pool', name: 'default' })]);
    expect(unknown.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('azurerm_kubernetes_cluster.aks.default_node_pool: node_count comes from var.node_count'),
    ]);
    // The system pool's VM size from a variable with no value: taken as the CPU pool it almost always is.
    expect(one(cluster('    name = "system"\n    node_count = 3\n    vm_size = var.system_vm'))).toEqual({
      decls: [],
      diagnostics: [],
      unresolved: [],
    });
  });
});

describe('terraformParser', () => {
  it('claims only .tf / .tfvars files that mention a node pool', () => {
    expect(terraformParser.mightContain('a.tf', 'resource "aws_eks_node_group" "x" {}')).toBe(true);
    expect(terraformParser.mightContain('a.tf', 'resource "aws_s3_bucket" "x" {}')).toBe(false);
    expect(terraformParser.mightContain('a.yaml', 'aws_eks_node_group')).toBe(false);
    expect(terraformParser.acceptsPath?.('env/prod.tfvars')).toBe(true);
  });
});

class ListingTree implements TreeReader {
  constructor(
    readonly label: string,
    private readonly files: Record<string, string>,
  ) {}
  async read(path: string): Promise<string | null> {
    return this.files[path] ?? null;
  }
  async list(dir: string): Promise<string[]> {
    return Object.keys(this.files).filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/'));
  }
}

describe('detectChanges with a Terraform module', () => {
  const main = `resource "google_container_node_pool" "gpu" {\n  name = "train"\n  location = "us-central1-a"\n  node_count = var.nodes\n  node_config { machine_type = "a2-highgpu-1g" }\n}\n`;
  const vars = (n: number) => `variable "nodes" {\n  default = ${n}\n}\n`;

  it('a change to a sibling variables file changes the pool in main.tf', async () => {
    const set: ChangeSet = {
      base: new ListingTree('base', { 'gke/main.tf': main, 'gke/variables.tf': vars(2) }),
      head: new ListingTree('head', { 'gke/main.tf': main, 'gke/variables.tf': vars(6) }),
      changedPaths: async () => ['gke/variables.tf'],
    };
    const { changes, diagnostics } = await detectChanges(set);
    expect(diagnostics).toEqual([]);
    expect(changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter])).toEqual([['gke/main.tf', 'train', 2, 6]]);
  });

  it('without list, only the changed files are read', async () => {
    const tree = (n: number): TreeReader => ({
      label: 'x',
      read: async (p) => ({ 'gke/main.tf': main, 'gke/variables.tf': vars(n) })[p] ?? null,
    });
    const set: ChangeSet = { base: tree(2), head: tree(6), changedPaths: async () => ['gke/main.tf'] };
    const { changes, diagnostics } = await detectChanges(set);
    expect(changes).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('var.nodes, which is not declared')]);
  });
});
