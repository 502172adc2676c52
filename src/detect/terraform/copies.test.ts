import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import { MAX_COPIES } from './copies.js';
import { parseTerraformSet } from './terraform-parser.js';

const POOL = (copies: string, name = '"gpu"') => `resource "google_container_node_pool" "gpu" {
  ${copies}
  name       = ${name}
  cluster    = "c"
  location   = "us-central1-a"
  node_count = 2
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}
`;
const read = (text: string) => parseTerraformSet([{ path: 'infra/main.tf', text }]);
const rows = (text: string) => read(text).decls.map((d) => [d.name, d.gpus]);

describe('copies of a node pool (for_each, count)', () => {
  // Every way of writing two copies of a pool named alike: each copy counts.
  it.each([
    ['a set', 'for_each = toset(["a", "b"])'],
    ['a list of strings through toset', 'for_each = toset(concat(["a"], ["b"]))'],
    ['a map', 'for_each = { a = 1, b = 2 }'],
    ['a for expression', 'for_each = { for k in ["a", "b"] : k => k }'],
    ['a filtered for expression', 'for_each = { for k, v in { a = true, b = true, c = false } : k => v if v }'],
    ['a local', 'for_each = local.clusters'],
    ['a variable default', 'for_each = var.clusters'],
    ['count', 'count = 2'],
    ['count from length()', 'count = length(local.clusters)'],
  ])('%s makes two copies of the same name: 2 × 2 GPUs', (_, copies) => {
    const text = `locals {\n  clusters = { a = "x", b = "y" }\n}\nvariable "clusters" {\n  default = ["a", "b"]\n}\n${POOL(copies)}`;
    expect(rows(text)).toEqual([['gpu', 4]]);
  });

  it('names each copy by its own name when the names differ, and labels the parts by key', () => {
    expect(rows(POOL('for_each = toset(["a", "b"])', '"gpu-${each.key}"'))).toEqual([
      ['gpu-a', 2],
      ['gpu-b', 2],
    ]);
    expect(read(POOL('for_each = toset(["a", "b"])')).decls[0]?.parts.map((p) => p.label)).toEqual([
      '["a"] gpu: 2 nodes × 1 GPU (per zone × 1 zone)',
      '["b"] gpu: 2 nodes × 1 GPU (per zone × 1 zone)',
    ]);
  });

  it('a copy added under the same name is a change', async () => {
    const base = { 'infra/main.tf': POOL('for_each = toset(["a"])') };
    const head = { 'infra/main.tf': POOL('for_each = toset(["a", "b", "c"])') };
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['gpu', 2, 6]]);
  });

  it('copies that cannot be told are count unknown, never one copy', () => {
    const r = read(POOL('for_each = var.clusters'));
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('for_each comes from var.clusters, which is not declared in the files read: cannot tell how many copies'),
    ]);
    expect(read(POOL(`for_each = toset([for i in range(${MAX_COPIES + 1}) : tostring(i)])`)).unresolved?.map((u) => u.name)).toEqual([
      'gpu',
    ]);
  });

  it('a CPU pool copied by an unknown for_each is no GPU capacity', () => {
    const cpu = POOL('for_each = var.clusters').replace('a2-highgpu-1g', 'e2-standard-8');
    expect(read(cpu)).toEqual({ decls: [], diagnostics: [], unresolved: [] });
  });

  it('copies whose values are partly unknown are read as far as they are known', () => {
    const text = `locals {\n  pools = { for k in ["a", "b"] : k => { nodes = 3, subnet = data.x.id } }\n}\n${POOL('for_each = local.pools').replace('node_count = 2', 'node_count = each.value.nodes')}`;
    expect(rows(text)).toEqual([['gpu', 6]]);
  });
});

describe('copies of a module (for_each, count)', () => {
  const EKS = (copies: string) => `module "eks" {
  source = "terraform-aws-modules/eks/aws"
  ${copies}
  eks_managed_node_groups = {
    gpu = {
      instance_types = ["g5.2xlarge"]
      max_size       = 2
    }
  }
}
`;
  it.each([
    ['for_each', 'for_each = toset(["east", "west", "north"])'],
    ['count', 'count = 3'],
  ])('a module called with %s declares its pools once per copy', (_, copies) => {
    expect(rows(EKS(copies))).toEqual([['gpu', 6]]);
  });

  it('a module whose copies cannot be told leaves its pools count unknown', () => {
    const r = read(EKS('count = var.clusters'));
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'module.eks: count comes from var.clusters, which is not declared in the files read: cannot tell how many copies there are of the GPU pools it declares',
    ]);
  });

  it('count = 0 declares nothing', () => {
    expect(rows(EKS('count = 0'))).toEqual([]);
  });
});
