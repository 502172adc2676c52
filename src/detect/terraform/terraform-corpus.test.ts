import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTerraformSet } from './terraform-parser.js';
import { CORPUS_ROOT } from '../../../test/detect/corpus.js';

const file = (p: string, as = p) => ({ path: as, text: readFileSync(path.join(CORPUS_ROOT, p), 'utf8') });
const run = (...files: { path: string; text: string }[]) => parseTerraformSet(files);
const gpus = (r: ReturnType<typeof run>) => r.decls.map((d) => [d.kind, d.name, d.gpus, d.gpuModel]);
const warnings = (r: ReturnType<typeof run>) => r.diagnostics.map((d) => [d.severity, d.line, d.message]);

// Each expectation follows the file's entry in corpus/SOURCES.md.
describe('terraform corpus', () => {
  it('GKE ray sample alone: the GPU pool count depends on undeclared variables', () => {
    const r = run(file('terraform-gke/gke-samples-ray-gke-standard-main.tf'));
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['gpu-pool']);
    expect(warnings(r)).toEqual([
      ['warning', 94, expect.stringContaining('the number of zones is unknown')],
      ['warning', 87, expect.stringContaining('var.enable_autopilot, which is not declared')],
    ]);
  });

  it('GKE ray sample with its variables: 3 nodes per zone × 3 zones × 2 T4 = 18', () => {
    const r = run(
      file('terraform-gke/gke-samples-ray-gke-standard-main.tf'),
      file('terraform-gke/gke-samples-ray-gke-standard-variables.tf'),
    );
    expect(gpus(r)).toEqual([['gke-node-pool', 'gpu-pool', 18, 'T4']]);
    expect(r.decls[0]?.line).toBe(94);
    expect(r.diagnostics).toEqual([]);
  });

  it('Cluster Toolkit node pool: its accelerators come from a module output', () => {
    const r = run(file('terraform-gke/cluster-toolkit-gke-node-pool-main.tf'));
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => [u.name, u.line])).toEqual([['node_pool', 101]]);
    expect(warnings(r)).toEqual([['warning', 169, expect.stringContaining('uses module.gpu.guest_accelerator, a module output')]]);
  });

  it('module internals: for_each over an undefined local', () => {
    const r = run(file('terraform-gke/tgm-gke-module-cluster-node-pool-excerpt.tf'));
    expect(r.unresolved?.map((u) => u.name)).toEqual(['pools']);
    expect(warnings(r)).toEqual([['warning', 6, expect.stringContaining('local.node_pools')]]);
  });

  it('terraform-google-modules node_pools: pool-02, max_count 2 × 1 L4 per zone; zones from an undeclared variable', () => {
    const r = run(file('terraform-gke/tgm-gke-example-node-pool-main.tf'));
    expect(gpus(r)).toEqual([['gke-node-pool', 'pool-02', 2, 'L4']]);
    expect(r.decls[0]?.line).toBe(82);
    expect(r.unresolved).toEqual([]);
    expect(warnings(r)).toEqual([
      [
        'warning',
        82,
        expect.stringContaining(
          "module.gke.node_pools[1] (pool-02): node counts are per zone and the number of zones is unknown (node_locations is not set and the module's zones uses var.zones",
        ),
      ],
    ]);
  });

  it('terraform-google-modules node_pools with zones declared: per zone × 3 zones', () => {
    const zones = {
      path: 'terraform-gke/variables.tf',
      text: 'variable "zones" {\n  type = list(string)\n  default = ["us-central1-a", "us-central1-b", "us-central1-f"]\n}\n',
    };
    const r = run(file('terraform-gke/tgm-gke-example-node-pool-main.tf'), zones);
    expect(gpus(r)).toEqual([['gke-node-pool', 'pool-02', 6, 'L4']]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the module call beside the module internals: pool-02 once, the internal for_each stays unknown', () => {
    const r = run(
      file('terraform-gke/tgm-gke-example-node-pool-main.tf'),
      file('terraform-gke/tgm-gke-module-cluster-node-pool-excerpt.tf'),
    );
    expect(r.decls.map((d) => [d.file, d.name, d.gpus])).toEqual([['terraform-gke/tgm-gke-example-node-pool-main.tf', 'pool-02', 2]]);
    expect(r.unresolved?.map((u) => [u.file, u.name])).toEqual([['terraform-gke/tgm-gke-module-cluster-node-pool-excerpt.tf', 'pools']]);
  });

  it.each([
    ['terraform-eks/data-on-eks-jark-stack-eks.tf', [['eks-node-group', 'gpu-node-grp', 4, 'A10G']]],
    ['terraform-eks/eks-blueprints-ml-capacity-block-eks.tf', [['eks-node-group', 'cbr', 16, 'H200']]],
    // max_size written twice in one object: the last (5) wins.
    ['terraform-eks/eks-blueprints-targeted-odcr-eks.tf', [['eks-node-group', 'odcr', 40, 'H100']]],
    ['terraform-eks/tf-aws-eks-tests-managed-node-group-main.tf', [['eks-node-group', 'efa', 8, 'A100']]],
  ])('EKS module groups in %s', (p, expected) => {
    const r = run(file(p));
    expect(gpus(r)).toEqual(expected);
    expect(r.diagnostics).toEqual([]);
  });

  it('the commented-out p5 group is not counted', () => {
    const r = run(file('terraform-eks/data-on-eks-jark-stack-eks.tf'));
    expect(r.decls.some((d) => d.name.includes('p5'))).toBe(false);
  });

  it('raw aws_eks_node_group inside the module: instance_types from undeclared variables', () => {
    const r = run(file('terraform-eks/tf-aws-eks-module-aws-eks-node-group-excerpt.tf'));
    expect(r.unresolved?.map((u) => u.name)).toEqual(['this']);
    expect(warnings(r)).toEqual([
      ['warning', 36, expect.stringContaining('var.capacity_type == "CAPACITY_BLOCK" ? null : var.instance_types uses var.capacity_type')],
    ]);
  });

  it('AKS for_each over var.node_pools: unknown alone, 1 A10 with the tfvars', () => {
    const alone = run(file('terraform-aks/azure-nvidia-robotics-sil-aks.tf'));
    expect(alone.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(warnings(alone)[0]?.[2]).toContain('for_each comes from var.node_pools');
    const withVars = run(
      file('terraform-aks/azure-nvidia-robotics-sil-aks.tf'),
      file('terraform-aks/azure-nvidia-robotics-terraform.tfvars.example', 'terraform-aks/terraform.tfvars'),
    );
    expect(gpus(withVars)).toEqual([['aks-node-pool', 'gpu', 1, 'A10']]);
    expect(withVars.decls[0]?.line).toBe(134);
  });

  it('AKS variables excerpt (cut mid-block) with the closing brace restored gives the same pool', () => {
    const vars = file('terraform-aks/azure-nvidia-robotics-variables-node-pools-excerpt.tf');
    const broken = run(vars);
    expect(broken.diagnostics.map((d) => [d.severity, d.line])).toEqual([['error', 5]]);
    const r = run(file('terraform-aks/azure-nvidia-robotics-sil-aks.tf'), { ...vars, text: `${vars.text}}\n` });
    expect(gpus(r)).toEqual([['aks-node-pool', 'gpu', 1, 'A10']]);
  });

  it('Karpenter values in heredocs are left to the YAML parsers', () => {
    expect(run(file('karpenter/ai-on-eks-addons-karpenter-heredoc.tf')).decls).toEqual([]);
  });
});
