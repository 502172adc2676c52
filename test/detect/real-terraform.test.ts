import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { changeRows, detectPr, edited, lineIn, loadReal } from './real-fixtures.js';
import type { Edit } from './real-fixtures.js';

/**
 * Terraform from public repositories (fixtures/real/SOURCES.md), run as pull requests: the file
 * as published is the base, the head grows its GPUs or edits something else.
 */
async function pr(target: string, edits: Edit[]) {
  const base = loadReal(target);
  const head = edited(base, edits);
  return { head, result: await detectPr(base, head) };
}

const messages = (r: { diagnostics: { message: string }[] }) => r.diagnostics.map((d) => d.message);

describe('terraform-aws-modules/eks in real files', () => {
  const efa = 'terraform-eks/eks-blueprints-nvidia-gpu-efa-eks.tf';

  it('a p5.48xlarge managed group: max_size 2 → 4 is 16 → 32 H100 at the max_size line', async () => {
    const { head, result } = await pr(efa, [
      [
        efa,
        'max_size     = 2\n      desired_size = 2\n\n      # This will',
        'max_size     = 4\n      desired_size = 2\n\n      # This will',
      ],
    ]);
    expect(changeRows(result)).toEqual([['eks-node-group', 'nvidia-efa', 16, 32, 'H100', efa, lineIn(head[efa], 'max_size     = 4')]]);
    expect(result.diagnostics).toEqual([]);
  });

  it('an unrelated edit (cluster version) gives no change', async () => {
    const { result } = await pr(efa, [[efa, 'cluster_version = "1.32"', 'cluster_version = "1.33"']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([]);
  });

  it('a group toggled by `cond ? {…} : null` is read through the taken branch, tfvars included', async () => {
    const dir = 'terraform-eks/llm-d-eks';
    const { head, result } = await pr(dir, [['terraform.tfvars', 'enable_gpu_node_group = false', 'enable_gpu_node_group = true']]);
    // gpu_max = 3 × g5.xlarge (1 A10G); the group is an expression, so its key's line is the place.
    expect(changeRows(result)).toEqual([
      ['eks-node-group', 'gpu-ng', 0, 3, 'A10G', `${dir}/main.tf`, lineIn(head[`${dir}/main.tf`], 'gpu = local.gpu_enabled ?')],
    ]);
  });

  it("the same repository's variables.tf is not valid HCL: one error naming the first and counting the rest", async () => {
    const dir = 'terraform-eks/llm-d-eks';
    const { head, result } = await pr(dir, [
      [
        'main.tf',
        'disk_size      = 100\n      labels         = { workload = "cpu" }',
        'disk_size      = 200\n      labels         = { workload = "cpu" }',
      ],
    ]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      file: `${dir}/variables.tf`,
      line: lineIn(head[`${dir}/variables.tf`], 'variable "cpu_desired"'),
      severity: 'error',
    });
    expect(result.diagnostics[0]?.message).toMatch(
      /^HCL syntax error: Invalid single-argument block definition: .* \(and 5 more errors at lines 46, 47, 60, 61, 62\); nothing in this file was read/,
    );
  });
});

describe('terraform-aws-modules/eks self_managed_node_groups in a real file', () => {
  const file = 'terraform-eks/tf-aws-eks-tests-self-managed-node-group-excerpt.tf';

  it('a GPU group written with instance_types (which self-managed groups ignore) is a warning, not GPUs', async () => {
    const { head, result } = await pr(file, [[file, 'max_size     = 7', 'max_size     = 9']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file,
        line: lineIn(head[file], 'instance_types = ["p4d.24xlarge"]'),
        severity: 'warning',
        message:
          'module.eks.self_managed_node_groups.efa: sets instance_types, which self_managed_node_groups do not read (they take instance_type): the module launches its default instance type; not counted as GPUs',
      },
    ]);
  });

  it('with instance_type it is one p4d.24xlarge at most: 0 → 8 A100 at the max_size line', async () => {
    const { head, result } = await pr(file, [[file, 'instance_types = ["p4d.24xlarge"]', 'instance_type = "p4d.24xlarge"']]);
    const text = head[file] ?? '';
    const maxLine = lineIn(text.slice(text.indexOf('efa = {')), 'max_size') + lineIn(text, 'efa = {') - 1;
    expect(changeRows(result)).toEqual([['eks-node-group', 'efa', 0, 8, 'A100', file, maxLine]]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('aws_eks_node_group in real files', () => {
  const dir = 'terraform-eks/eks-ai-gpu';

  it('a GPU AMI on a CPU default instance type is no GPU; switching the default to g4dn.xlarge is 0 → 2 T4', async () => {
    const { head, result } = await pr(dir, [['variables.tf', 'default     = ["t3.small"]\n} ', 'default     = ["g4dn.xlarge"]\n} ']]);
    expect(changeRows(result)).toEqual([
      [
        'eks-node-group',
        'gpu_node_groups',
        0,
        2,
        'T4',
        `${dir}/node-groups.tf`,
        lineIn(head[`${dir}/node-groups.tf`], 'max_size     = var.gpu_node_group_max_size'),
      ],
    ]);
  });

  it('an unrelated edit (disk size) gives no change and no diagnostic', async () => {
    const { result } = await pr(dir, [['node-groups.tf', 'disk_size = 40', 'disk_size = 80']]);
    expect(result).toMatchObject({ changes: [], diagnostics: [] });
  });
});

describe('google_container_node_pool in real files', () => {
  it('regional pool over tfvars zones (CRLF files): max 1 → 2 per zone × 3 zones is 3 → 6 T4', async () => {
    const dir = 'terraform-gke/mathgpt-infra';
    const { head, result } = await pr(dir, [['terraform.tfvars', 'gke_gpu_max_nodes     = 1', 'gke_gpu_max_nodes     = 2']]);
    expect(changeRows(result)).toEqual([
      [
        'gke-node-pool',
        'mathsgpt-gpu-cluster-gpu-pool',
        3,
        6,
        'T4',
        `${dir}/main.tf`,
        lineIn(head[`${dir}/main.tf`], 'max_node_count = var.gke_gpu_max_nodes'),
      ],
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it('fewer zones in tfvars is a decrease; an unrelated disk edit is nothing', async () => {
    const dir = 'terraform-gke/mathgpt-infra';
    const fewer = await pr(dir, [['terraform.tfvars', /gke_gpu_zones .*\n/, 'gke_gpu_zones         = ["europe-west4-a"]\n']]);
    expect(changeRows(fewer.result).map((r) => r.slice(2, 4))).toEqual([[3, 1]]);
    const unrelated = await pr(dir, [['main.tf', 'disk_size_gb = 30', 'disk_size_gb = 100']]);
    expect(unrelated.result).toMatchObject({ changes: [], diagnostics: [] });
  });

  it('a regional location from a variable default without node_locations counts 3 zones and says so', async () => {
    const dir = 'terraform-gke/kueue-multikueue-dws';
    const { head, result } = await pr(dir, [['clusters.tf', 'max_node_count = 1', 'max_node_count = 4']]);
    const file = `${dir}/clusters.tf`;
    expect(changeRows(result)).toEqual([['gke-node-pool', 'manager_nodes', 3, 12, 'T4', file, lineIn(head[file], 'max_node_count = 4')]]);
    expect(messages(result)).toEqual([
      expect.stringContaining('location europe-west4 is a region and node_locations is not set: counted for 3 zones'),
      expect.stringContaining('for_each comes from google_container_cluster.worker_clusters, another resource'),
    ]);
  });

  it('a zone-or-region variable without default: the count is per zone and the warning says why', async () => {
    const dir = 'terraform-gke/gke-gpu-setup-module';
    const { head, result } = await pr(dir, [['variables.tf', 'default     = 5', 'default     = 10']]);
    const file = `${dir}/main.tf`;
    expect(changeRows(result)).toEqual([
      ['gke-node-pool', 'gpu_pool', 5, 10, 'T4', file, lineIn(head[file], 'max_node_count = var.max_node_count')],
    ]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        file,
        severity: 'warning',
        message: match.stringContaining(
          'number of zones is unknown (node_locations is not set and location comes from var.location, which has no default)',
        ),
      }),
    ]);
  });

  it('element() over a variable without default is unknown, with the expression named, never 0', async () => {
    const dir = 'terraform-gke/polyaxon-gpu-node-pool';
    const { head, result } = await pr(dir, [['main.tf', 'auto_repair  = true', 'auto_repair  = false']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        line: lineIn(head[`${dir}/main.tf`], 'count = element(var.gpu_node_pools.*.guest_accelerator.count'),
        message: match.stringContaining(
          'guest_accelerator.count = element(var.gpu_node_pools.*.guest_accelerator.count, count.index) uses var.gpu_node_pools, which has no default',
        ),
      }),
    ]);
  });
});

describe('azurerm_kubernetes_cluster_node_pool in real files', () => {
  it('count from an undeclared toggle: a node_count edit is not guessed, the warning names the variable', async () => {
    const file = 'terraform-aks/liantis-aks-gpu.tf';
    const { result } = await pr(file, [[file, 'node_count            = 1', 'node_count            = 3']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        line: 3,
        message: match.stringContaining('var.enable_gpu_nodepool, which is not declared in the files read'),
      }),
    ]);
  });

  it('a MIG pool without node_count: the size before is unknown, and the PR says so when it sets one', async () => {
    const file = 'terraform-aks/azurerm-acctest-nodepool-gpu-instance-mig.tf';
    const { result } = await pr(file, [
      [file, 'gpu_instance          = "MIG1g"', 'gpu_instance          = "MIG1g"\n  node_count            = 2'],
    ]);
    expect(result.changes).toEqual([]);
    expect(messages(result)).toEqual([
      expect.stringMatching(/internal: the GPU quota before this change .* could not be read, so the change is unknown; it is now 2 GPUs/),
    ]);
  });
});
