import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';

const FILE = 'infra/aks/main.tf';

/** An Azure/aks/azurerm call with a GPU default pool and an extra `node_pools` map. */
const aks = (o: { agents?: string; pools?: string; version?: string }) => `module "aks" {
  source  = "Azure/aks/azurerm"
  version = "${o.version ?? '10.0.1'}"

  resource_group_name = "ml"
  prefix              = "ml"
${o.agents ?? ''}
  node_pools = {
${o.pools ?? ''}
  }
}
`;

const gpuPool = (max: number, flag = 'auto_scaling_enabled') => `    gpu = {
      name                 = "gpu"
      vm_size              = "Standard_NC24ads_A100_v4"
      ${flag} = true
      min_count            = 0
      max_count            = ${max}
    }
    cpu = {
      name       = "cpu"
      vm_size    = "Standard_D8s_v5"
      node_count = 3
    }`;

describe('Azure/aks/azurerm module inputs', () => {
  it('a node_pools entry on Standard_NC24ads_A100_v4: max_count 2 → 5 is 2 → 5 A100', async () => {
    const head = aks({ pools: gpuPool(5) });
    const result = await detectPr({ [FILE]: aks({ pools: gpuPool(2) }) }, { [FILE]: head });
    expect(changeRows(result)).toEqual([['aks-node-pool', 'gpu', 2, 5, 'A100', FILE, lineIn(head, 'max_count            = 5')]]);
    expect(result.diagnostics).toEqual([]);
  });

  it('before v10 the pool flag is enable_auto_scaling', async () => {
    const head = aks({ pools: gpuPool(4, 'enable_auto_scaling'), version: '7.5.0' });
    const result = await detectPr({ [FILE]: aks({ pools: gpuPool(1, 'enable_auto_scaling'), version: '7.5.0' }) }, { [FILE]: head });
    expect(changeRows(result)).toEqual([['aks-node-pool', 'gpu', 1, 4, 'A100', FILE, lineIn(head, 'max_count            = 4')]]);
  });

  it('the default pool: agents_size on a GPU size, agents_count 1 → 3 (manual scaling) is 4 → 12 V100', async () => {
    const agents = (n: number) => `  agents_size  = "Standard_NC24s_v3"\n  agents_count = ${n}\n`;
    const head = aks({ agents: agents(3) });
    const result = await detectPr({ [FILE]: aks({ agents: agents(1) }) }, { [FILE]: head });
    expect(changeRows(result)).toEqual([['aks-node-pool', 'nodepool', 4, 12, 'V100', FILE, lineIn(head, 'agents_count = 3')]]);
  });

  it('the default pool autoscaled: agents_max_count is the bound, agents_count is not', async () => {
    const agents = (max: number) =>
      `  agents_size          = "Standard_NC6s_v3"\n  auto_scaling_enabled = true\n  agents_count         = null\n  agents_min_count     = 1\n  agents_max_count     = ${max}\n`;
    const head = aks({ agents: agents(6) });
    const result = await detectPr({ [FILE]: aks({ agents: agents(2) }) }, { [FILE]: head });
    expect(changeRows(result)).toEqual([['aks-node-pool', 'nodepool', 2, 6, 'V100', FILE, lineIn(head, 'agents_max_count     = 6')]]);
  });

  it('moving the default pool to a GPU size without agents_count takes the module default of 2 nodes', async () => {
    const head = aks({ agents: '  agents_size = "Standard_NC4as_T4_v3"\n' });
    const result = await detectPr({ [FILE]: aks({}) }, { [FILE]: head });
    expect(changeRows(result)).toEqual([['aks-node-pool', 'nodepool', 0, 2, 'T4', FILE, lineIn(head, 'module "aks"')]]);
  });

  it('a max_count from a variable without a value is not followed, with a warning at its line, never zero', async () => {
    const pools = gpuPool(2).replace('max_count            = 2', 'max_count            = var.gpu_max');
    const head = `${aks({ pools })}\nvariable "gpu_max" {\n  type = number\n}\n`;
    const result = await detectPr({ [FILE]: aks({ pools: gpuPool(2) }) }, { [FILE]: head });
    expect(result.changes.every((c) => c.gpusAfter !== 0)).toBe(true);
    expect(result.coverage).toEqual([
      match.objectContaining({ file: FILE, state: 'not-followed', notFollowed: [match.objectContaining({ reason: 'count-unknown' })] }),
    ]);
    expect(result.diagnostics).toEqual([
      match.objectContaining({ file: FILE, severity: 'error', message: match.stringContaining('could not be read (it was 2 GPUs') }),
      match.objectContaining({
        file: FILE,
        line: lineIn(head, 'var.gpu_max'),
        severity: 'warning',
        message: match.stringContaining('var.gpu_max'),
      }),
    ]);
  });

  it('a CPU-only change (the cpu pool grows) is no GPU change', async () => {
    const result = await detectPr(
      { [FILE]: aks({ pools: gpuPool(2) }) },
      { [FILE]: aks({ pools: gpuPool(2).replace('node_count = 3', 'node_count = 6') }) },
    );
    expect(result.changes).toEqual([]);
    expect(result.coverage).toEqual([{ file: FILE, state: 'read', objects: 1 }]);
  });
});

const EKS = 'infra/eks/main.tf';

describe('terraform-aws-modules/eks groups built with merge()', () => {
  const eks = (max: number) => `locals {
  gpu_defaults = {
    ami_type       = "AL2023_x86_64_NVIDIA"
    instance_types = ["g6e.12xlarge"]
    min_size       = 0
  }
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  eks_managed_node_group_defaults = {
    max_size = 2
  }

  eks_managed_node_groups = merge(
    {
      system = {
        instance_types = ["m6i.large"]
        subnet_ids     = module.vpc.private_subnets
        max_size       = 4
      }
    },
    {
      gpu = merge(local.gpu_defaults, {
        max_size   = ${max}
        subnet_ids = module.vpc.private_subnets
      })
    },
  )
}
`;

  it('merge({…}, {gpu = merge(local.defaults, {…})}): max_size 2 → 6 is 8 → 24 L40S; computed subnets spoil nothing', async () => {
    const result = await detectPr({ [EKS]: eks(2) }, { [EKS]: eks(6) });
    expect(changeRows(result)).toEqual([['eks-node-group', 'gpu', 8, 24, 'L40S', EKS, lineIn(eks(6), 'gpu = merge(')]]);
    expect(result.diagnostics).toEqual([]);
  });

  it('a group without max_size takes eks_managed_node_group_defaults', async () => {
    const head = eks(2).replace('        max_size   = 2\n', '');
    const base = head.replace('max_size = 2\n  }', 'max_size = 1\n  }');
    const result = await detectPr({ [EKS]: base }, { [EKS]: head });
    expect(changeRows(result)).toEqual([['eks-node-group', 'gpu', 4, 8, 'L40S', EKS, lineIn(head, 'gpu = merge(')]]);
  });

  it('merge() with a spread or an unknown argument is not followed, with a warning', async () => {
    const head = eks(2).replace('merge(local.gpu_defaults,', 'merge(var.gpu_defaults,');
    const result = await detectPr({ [EKS]: eks(2) }, { [EKS]: head });
    expect(result.coverage[0]?.state).toBe('not-followed');
    expect(result.changes.every((c) => c.gpusAfter !== 0)).toBe(true);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('could not be read (it was 8 GPUs'),
      expect.stringContaining('gpu comes from var.gpu_defaults'),
    ]);
  });
});

describe('a module whose GPU pools come from its caller', () => {
  const main = `module "gke" {
  source     = "terraform-google-modules/kubernetes-engine/google"
  project_id = "p"
  name       = "ml"
  region     = "us-central1"
  node_pools = var.gpu_pools
}
`;
  const vars = (def: string) =>
    `variable "gpu_pools" {\n  type = list(map(any))\n}\n\nvariable "enable_gpu" {\n  type    = bool\n  default = ${def}\n}\n`;
  const tree = (def: string, outputs = 'output "name" {\n  value = module.gke.name\n}\n') => ({
    'm/main.tf': main,
    'm/variables.tf': vars(def),
    'm/outputs.tf': outputs,
  });

  it('a changed variables.tf beside the unknown pools is not followed', async () => {
    const result = await detectPr(tree('true'), tree('false'));
    expect(result.coverage).toEqual([
      match.objectContaining({
        file: 'm/variables.tf',
        state: 'not-followed',
        notFollowed: [match.objectContaining({ reason: 'count-unknown' })],
      }),
    ]);
  });

  it('a changed outputs.tf, which gives the module no values, is read', async () => {
    const result = await detectPr(tree('true'), tree('true', 'output "id" {\n  value = module.gke.cluster_id\n}\n'));
    expect(result.coverage).toEqual([{ file: 'm/outputs.tf', state: 'read', objects: 0 }]);
  });
});
