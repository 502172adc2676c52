import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { parseTerraformSet } from './terraform-parser.js';
import { detectPr, edited, lineIn, loadReal } from '../../../test/detect/real-fixtures.js';
import type { Edit, Tree } from '../../../test/detect/real-fixtures.js';

/**
 * Shapes met when adopting gpu-justify on real infra repositories (fixtures/real, see SOURCES.md):
 * how many GPUs one more node adds, and root modules that size a pool through a local module.
 */
describe('the GPU step of one more node', () => {
  it.each<[string, Tree, Edit, number]>([
    // p5.48xlarge: 8 H100 a node.
    [
      'terraform-aws-modules/eks managed group',
      loadReal('terraform-eks/eks-blueprints-nvidia-gpu-efa-eks.tf'),
      ['eks.tf', 'max_size     = 2\n      desired_size = 2', 'max_size     = 3\n      desired_size = 3'],
      8,
    ],
    // A regional pool's max_node_count is per zone: 3 zones × 1 T4 a node.
    [
      'regional google_container_node_pool',
      loadReal('terraform-gke/mathgpt-infra'),
      ['terraform.tfvars', /gke_gpu_max_nodes(\s+)= 1/, 'gke_gpu_max_nodes$1= 2'],
      3,
    ],
    // g5.8xlarge: 1 A10G a node.
    [
      'eksctl managed node group',
      loadReal('eksctl/awsome-dt-eks-g5-node-autorepair.yaml'),
      ['g5-node-autorepair.yaml', 'maxSize: 10', 'maxSize: 16'],
      1,
    ],
    // An InferenceSet replica is one Workspace of one Standard_NC24ads_A100_v4 (1 A100).
    [
      'KAITO InferenceSet',
      loadReal('kaito/kaito-inferenceset-llama-3.1-8b.yaml'),
      ['llama-3.1-8b.yaml', 'replicas: 2 #', 'replicas: 4 #'],
      1,
    ],
  ])('%s', async (_what, base, edit, step) => {
    const r = await detectPr(base, edited(base, [edit]));
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]?.after?.gpuStep).toBe(step);
    expect(r.changes[0]?.before?.gpuStep).toBe(step);
  });

  it('a KAITO Workspace of two-GPU nodes grows by 2', async () => {
    const base = {
      'ws.yaml':
        'apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata:\n  name: llama70b\nresource:\n  count: 2\n  instanceType: "Standard_NC48ads_A100_v4"\n',
    };
    const r = await detectPr(base, { 'ws.yaml': base['ws.yaml'].replace('count: 2', 'count: 3') });
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter, c.after?.gpuStep])).toEqual([[4, 6, 2]]);
  });

  it('eksctl instance types that differ in GPUs per node leave the step unknown', async () => {
    const group = (max: number) => ({
      'c.yaml': `apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: c\nmanagedNodeGroups:\n  - name: mixed\n    instanceTypes: ["g5.xlarge", "g5.12xlarge"]\n    maxSize: ${max}\n`,
    });
    const r = await detectPr(group(2), group(3));
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]?.after?.gpuStep).toBeUndefined();
  });
});

describe('a root module that sizes a GPU pool through a local module', () => {
  // The module of mattfoster-personal/gke-gpu-setup, called the way its repository's root would.
  const call = (max: number) =>
    [
      'module "gpu_node_pool" {',
      '  source = "./modules/gpu_node_pool"',
      '',
      '  node_pool_name = "t4-inference"',
      '  cluster_name   = "ml-prod"',
      '  location       = "us-central1-a"',
      '  gpu_type       = "nvidia-tesla-t4"',
      `  max_node_count = ${max}`,
      '}',
      '',
    ].join('\n');
  const module = Object.fromEntries(
    Object.entries(loadReal('terraform-gke/gke-gpu-setup-module')).map(([p, t]) => [
      p.replace('terraform-gke/gke-gpu-setup-module', 'modules/gpu_node_pool'),
      t,
    ]),
  );

  it("a change to its inputs is read through the module: the call's arguments bound to its variables", async () => {
    const r = await detectPr({ ...module, 'main.tf': call(4) }, { ...module, 'main.tf': call(8) });
    // max_node_count 4 → 8 nodes of one nvidia-tesla-t4 each (gpu_count defaults to 1), reported at the call.
    expect(r.changes.map((c) => [c.file, c.line, c.name, c.gpuModel, c.gpusBefore, c.gpusAfter])).toEqual([
      ['main.tf', 1, 't4-inference', 'T4', 4, 8],
    ]);
    expect(r.coverage).toEqual([{ file: 'main.tf', state: 'read', objects: 1 }]);
  });

  it('a call whose module is not in the repository keeps its warning and is not followed', async () => {
    const r = await detectPr({ 'main.tf': call(4) }, { 'main.tf': call(8) });
    expect(r.changes).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        file: 'main.tf',
        line: 1,
        severity: 'warning',
        message: match.stringMatching(
          /^module\.gpu_node_pool \(source \.\/modules\/gpu_node_pool\) sizes GPU pools with \(max_node_count\).*not counted/,
        ),
      }),
    ]);
    expect(r.coverage.map((c) => [c.state, c.notFollowed?.[0]?.reason])).toEqual([['not-followed', 'local-module']]);
  });

  it('a call that only names a machine or accelerator type gets no warning', () => {
    const text =
      'module "gpu" {\n  source            = "../../internal/gpu-definition"\n  machine_type      = "a3-highgpu-8g"\n  guest_accelerator = var.guest_accelerator\n}\n';
    expect(parseTerraformSet([{ path: 'main.tf', text }]).diagnostics).toEqual([]);
  });

  it('registry modules are not local modules', () => {
    const eks = loadReal('terraform-eks/eks-blueprints-nvidia-gpu-efa-eks.tf');
    const r = parseTerraformSet(Object.entries(eks).map(([path, text]) => ({ path, text })));
    expect(r.diagnostics.filter((d) => d.message.includes('local modules'))).toEqual([]);
    expect(r.decls.map((d) => [d.name, d.gpus, d.line])).toEqual([['nvidia-efa', 16, lineIn(Object.values(eks)[0], 'max_size     = 2')]]);
  });
});

describe('a call of a module gpu-justify does not read, handed GPU types', () => {
  // As GoogleCloudPlatform/ai-infra-cluster-provisioning's samples call their GKE module: the pools
  // come from tfvars, and the module itself lives in another repository.
  const main = [
    'variable "node_pools" {}',
    'module "complex-gke" {',
    '  source     = "github.com/GoogleCloudPlatform/ai-infra-cluster-provisioning//terraform/modules/cluster/gke"',
    '  region     = "us-central1"',
    '  node_pools = var.node_pools',
    '}',
    '',
  ].join('\n');
  const tfvars = (count: number) =>
    `node_pools = [{\n  zone         = "us-central1-a"\n  node_count   = ${count}\n  machine_type = "a2-highgpu-1g"\n  guest_accelerator = { type = "nvidia-tesla-a100", count = 1 }\n}]\n`;

  it('is warned about at the call, naming what it was given, when its tfvars change', async () => {
    const r = await detectPr(
      { 'gke/main.tf': main, 'gke/terraform.tfvars': tfvars(1) },
      { 'gke/main.tf': main, 'gke/terraform.tfvars': tfvars(4) },
    );
    expect(r.changes).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        file: 'gke/main.tf',
        line: 2,
        severity: 'warning',
        message: match.stringMatching(
          /^module\.complex-gke \(source github\.com\/GoogleCloudPlatform\/.*\) is given GPU machine types or accelerators \(node_pools: nvidia-tesla-a100, a2-highgpu-1g\), but gpu-justify does not read this module/,
        ),
      }),
    ]);
  });

  it('is not warned about when handed no GPU type, nor when it is a module the readers take', () => {
    const cpu = main.replace('var.node_pools', '[{ machine_type = "e2-standard-8", node_count = 3 }]');
    expect(parseTerraformSet([{ path: 'main.tf', text: cpu }]).diagnostics).toEqual([]);
    const eks = loadReal('terraform-eks/eks-blueprints-nvidia-gpu-efa-eks.tf');
    const r = parseTerraformSet(Object.entries(eks).map(([path, text]) => ({ path, text })));
    expect(r.diagnostics.filter((d) => d.message.includes('does not read this module'))).toEqual([]);
  });
});
