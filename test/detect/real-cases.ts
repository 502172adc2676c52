import { isDeepStrictEqual } from 'node:util';
import type { DetectedChanges } from '../../src/detect/detect-changes.js';
import { detectPr, edited, loadReal } from './real-fixtures.js';
import { MODULE_CASES } from './real-cases-modules.js';
import type { RealCase, Row } from './real-case.js';

export type { RealCase } from './real-case.js';

/**
 * - `right`: exactly the expected changes, nothing left unfollowed (for a negative control: no change).
 * - `not-followed`: a changed file is not followed, which the review names with its reason (its
 *   verdict is insufficient-evidence), or a partial count is reported with a warning that says so.
 * - `silent-miss`: a GPU change was expected, and the review would pass with nothing reported or flagged.
 * - `wrong`: a change is reported with other numbers than expected, or where none was.
 */
export type Outcome = 'right' | 'not-followed' | 'silent-miss' | 'wrong';

function classify(c: RealCase, r: DetectedChanges): Outcome {
  const rows: Row[] = r.changes.map((x) => [x.kind, x.name, x.gpusBefore, x.gpusAfter]);
  const expected = c.expect === 'not-followed' ? [] : c.expect;
  const unfollowed = r.coverage.some((f) => f.state === 'not-followed');
  const warned = r.diagnostics.some((d) => d.severity !== 'info');
  // A number reported that is not the expected one is wrong, whatever else the review says.
  if (rows.some((row) => !expected.some((e) => isDeepStrictEqual(e, row)))) return 'wrong';
  if (unfollowed) return 'not-followed';
  if (c.expect === 'not-followed') return 'silent-miss';
  if (rows.length !== expected.length) return 'silent-miss';
  if (c.partial) return warned ? 'not-followed' : 'wrong';
  return 'right';
}

/** A negative control (no change expected) that ended anything but right: the review would hold up a PR that grows nothing. */
export function falseAlarm(c: RealCase, outcome: Outcome): boolean {
  return c.expect !== 'not-followed' && c.expect.length === 0 && outcome !== 'right';
}

/**
 * The outcome a case is written for: `right`, or `not-followed` where nothing better is possible
 * (or where the review does not read the case yet, `today`).
 */
export function wanted(c: RealCase): Outcome {
  return c.today?.outcome ?? (c.expect === 'not-followed' || c.partial ? 'not-followed' : 'right');
}

export async function runCase(c: RealCase): Promise<{ result: DetectedChanges; outcome: Outcome }> {
  const base = loadReal(c.target);
  const result = await detectPr(base, edited(base, c.edits));
  return { result, outcome: classify(c, result) };
}

const AP = 'terraform-gke/accelerated-platforms';
const TFAWS = 'terraform-eks/tf-aws-eks-example';

export const REAL_CASES: readonly RealCase[] = [
  // GoogleCloudPlatform/accelerated-platforms: google_container_node_pool with total_* autoscaling limits.
  {
    id: 'accelerated-platforms a100: total_max_node_count 1000 → 1250',
    target: `${AP}-uc1-gpu-a100.tf`,
    edits: [['a100.tf', 'total_max_node_count = 1000', 'total_max_node_count = 1250']],
    expect: [['gke-node-pool', 'gpu-a100x2-a2h2', 2000, 2500]],
    why: 'a2-highgpu-2g with 2 nvidia-tesla-a100 per node; total_max_node_count is over all zones: 1000 × 2 → 1250 × 2',
  },
  {
    id: 'accelerated-platforms a100: a2-highgpu-2g → a2-highgpu-4g with 4 accelerators',
    target: `${AP}-uc1-gpu-a100.tf`,
    edits: [
      ['a100.tf', 'machine_type    = "a2-highgpu-2g"', 'machine_type    = "a2-highgpu-4g"'],
      ['a100.tf', 'count = 2', 'count = 4'],
    ],
    expect: [['gke-node-pool', 'gpu-a100x2-a2h2', 2000, 4000]],
    why: 'the first pool only: 1000 nodes × 2 → × 4 A100',
  },
  {
    id: 'accelerated-platforms h100: total_max_node_count 1000 → 2000',
    target: `${AP}-uc1-gpu-h100.tf`,
    edits: [['h100.tf', 'total_max_node_count = 1000', 'total_max_node_count = 2000']],
    expect: [['gke-node-pool', 'gpu-h100x8-a3h8', 8000, 16000]],
    why: 'a3-highgpu-8g, 8 nvidia-h100-80gb per node: 1000 × 8 → 2000 × 8',
  },
  {
    id: 'accelerated-platforms l4 (us-central1): location_policy ANY → BALANCED (negative control)',
    target: `${AP}-uc1-gpu-l4-rtx.tf`,
    edits: [['l4-rtx.tf', 'location_policy      = "ANY"', 'location_policy      = "BALANCED"']],
    expect: [],
    why: 'how nodes spread over zones, not how many: no GPU change',
  },
  {
    id: 'accelerated-platforms l4 (us-east4): total_max_node_count 1000 → 500',
    target: `${AP}-ue4-gpu-l4.tf`,
    edits: [['ue4-gpu-l4.tf', 'total_max_node_count = 1000', 'total_max_node_count = 500']],
    expect: [['gke-node-pool', 'gpu-l4x2-g2s24', 2000, 1000]],
    why: 'g2-standard-24 with 2 nvidia-l4: 1000 × 2 → 500 × 2',
  },
  // terraform-aws-modules/eks examples: the module's node-group maps.
  {
    id: 'terraform-aws-eks managed group: m6i.large → g5.12xlarge',
    target: `${TFAWS}-mng-al2023.tf`,
    edits: [
      ['mng-al2023.tf', 'instance_types = ["m6i.large"]', 'instance_types = ["g5.12xlarge"]'],
      ['mng-al2023.tf', 'AL2023_x86_64_STANDARD', 'AL2023_x86_64_NVIDIA'],
    ],
    expect: [['eks-node-group', 'example', 0, 20]],
    why: 'max_size 5 × 4 A10G per g5.12xlarge',
  },
  {
    id: 'terraform-aws-eks managed group: max_size 5 → 10 on m6i.large (negative control)',
    target: `${TFAWS}-mng-al2023.tf`,
    edits: [['mng-al2023.tf', 'max_size = 5', 'max_size = 10']],
    expect: [],
    why: 'm6i.large has no GPU',
  },
  {
    id: 'terraform-aws-eks bottlerocket group: m6i.large → g6.2xlarge, max_size 5 → 3',
    target: `${TFAWS}-mng-bottlerocket.tf`,
    edits: [
      ['bottlerocket.tf', 'instance_types = ["m6i.large"]', 'instance_types = ["g6.2xlarge"]'],
      ['bottlerocket.tf', 'max_size = 5', 'max_size = 3'],
    ],
    expect: [['eks-node-group', 'example', 0, 3]],
    why: '3 nodes × 1 L4 per g6.2xlarge',
  },
  {
    id: 'terraform-aws-eks self-managed group: m6i.large → p4d.24xlarge',
    target: `${TFAWS}-smng-al2023.tf`,
    edits: [['smng-al2023.tf', 'instance_type = "m6i.large"', 'instance_type = "p4d.24xlarge"']],
    expect: [['eks-node-group', 'example', 0, 40]],
    why: 'max_size 5 × 8 A100 per p4d.24xlarge',
  },
  {
    id: 'terraform-aws-eks self-managed group given instance_types (ignored by the submodule)',
    target: `${TFAWS}-smng-al2023.tf`,
    edits: [['smng-al2023.tf', 'instance_type = "m6i.large"', 'instance_types = ["g5.xlarge"]']],
    expect: [],
    why: 'self-managed groups read instance_type only; the module launches its default m6i.large: no GPUs (a warning says so)',
  },
  // awslabs/ai-on-eks.
  {
    id: 'ai-on-eks base: a GPU managed group added next to the core group',
    target: 'terraform-eks/ai-on-eks-base-eks.tf',
    edits: [
      [
        'ai-on-eks-base-eks.tf',
        '  eks_managed_node_groups = {\n',
        '  eks_managed_node_groups = {\n    gpu = {\n      instance_types = ["g5.2xlarge"]\n      ami_type       = "AL2023_x86_64_NVIDIA"\n      min_size       = 0\n      max_size       = 4\n      desired_size   = 0\n      subnet_ids     = module.vpc.private_subnets\n    }\n',
      ],
    ],
    expect: [['eks-node-group', 'gpu', 0, 4]],
    why: '4 × 1 A10G per g5.2xlarge; subnet_ids is a module output, which sizes nothing',
  },
  {
    id: 'ai-on-eks base: core group max_size 8 → 10 on m5.xlarge (negative control)',
    target: 'terraform-eks/ai-on-eks-base-eks.tf',
    edits: [['ai-on-eks-base-eks.tf', 'max_size     = 8', 'max_size     = 10']],
    expect: [],
    why: 'm5.xlarge has no GPU',
  },
  {
    id: 'ai-on-eks triton: core group moved to g5.xlarge',
    target: 'terraform-eks/ai-on-eks-triton-eks.tf',
    edits: [['ai-on-eks-triton-eks.tf', 'instance_types = ["m5.xlarge"]', 'instance_types = ["g5.xlarge"]']],
    expect: [['eks-node-group', 'core-node-group', 0, 8]],
    why: 'max_size 8 × 1 A10G; the group is named by its `name`',
  },
  // Azure/terraform-azurerm-aks examples call the module by a path ("../..") that is not in the PR's tree.
  {
    id: 'azurerm-aks startup: the default pool given a GPU agents_size',
    target: 'terraform-aks/azurerm-aks-example-startup.tf',
    edits: [
      [
        'startup.tf',
        '  agents_count              = 2\n',
        '  agents_count              = 2\n  agents_size               = "Standard_NC24ads_A100_v4"\n',
      ],
    ],
    expect: 'not-followed',
    why: 'the module is read from ../.., outside the files read: its pools cannot be counted',
  },
  {
    id: 'azurerm-aks multiple node pools: the pools moved to Standard_NC4as_T4_v3',
    target: 'terraform-aks/azurerm-aks-example-multiple-node-pools.tf',
    edits: [['multiple-node-pools.tf', 'vm_size               = "Standard_D2s_v3"', 'vm_size               = "Standard_NC4as_T4_v3"']],
    expect: 'not-followed',
    why: 'the module is read from ../..: 3 × 1 T4 would be created, which cannot be seen from here',
  },
  // GoogleCloudPlatform/ai-on-gke: terraform-google-modules/kubernetes-engine with pools from variables.
  {
    id: 'ai-on-gke private cluster module: enable_gpu default true → false',
    target: 'terraform-gke/ai-on-gke-standard-private',
    edits: [
      [
        'ai-on-gke-standard-private/variables.tf',
        'description = "Set to true to create TPU node pool"\n  default     = true',
        'description = "Set to true to create TPU node pool"\n  default     = false',
      ],
    ],
    expect: 'not-followed',
    why: 'gpu_pools, tpu_pools and cpu_pools have no default: the pools come from the caller',
  },
  {
    id: 'ai-on-gke public cluster module: a default GPU pool list',
    target: 'terraform-gke/ai-on-gke-standard-public',
    edits: [
      [
        'ai-on-gke-standard-public/variables.tf',
        'variable "gpu_pools" {\n  type = list(map(any))\n}',
        'variable "gpu_pools" {\n  type = list(map(any))\n  default = [{\n    name              = "gpu-pool-l4"\n    machine_type      = "g2-standard-24"\n    node_locations    = "us-central1-a"\n    autoscaling       = true\n    max_count         = 3\n    accelerator_count = 2\n    accelerator_type  = "nvidia-l4"\n  }]\n}',
      ],
    ],
    expect: 'not-followed',
    why: 'tpu_pools and cpu_pools still have no default, so the concat() of pools cannot be evaluated',
  },
  {
    id: 'ai-on-gke platform.tfvars: gpu-pool-l4 max_count 3 → 6',
    target: 'terraform-gke/ai-on-gke-infrastructure-platform.tfvars',
    edits: [['platform.tfvars', 'max_count          = 3', 'max_count          = 6']],
    expect: 'not-followed',
    why: 'the values of infrastructure/, whose module is not beside the tfvars here',
  },
  // GoogleCloudPlatform/stable-diffusion-on-gcp.
  {
    id: 'stable-diffusion-on-gcp: GPU pool max_node_count 10 → 20',
    target: 'terraform-gke/sd-on-gcp-nonagones',
    edits: [['sd-on-gcp-nonagones/main.tf', 'max_node_count = 10', 'max_node_count = 20']],
    expect: [['gke-node-pool', 'nvidia-tesla-t4-nodepool', 10, 20]],
    partial: true,
    why: 'max_node_count is per zone (1 nvidia-tesla-t4 per node), and the pool runs in the zones of var.cluster_location, which has no value ("a zone or region"): 10 → 20 T4 in one zone, more if a region',
  },
  // eksctl examples.
  {
    id: 'eksctl 44: gpu-repair-ng maxSize 8 → 16',
    target: 'eksctl/eksctl-44-node-repair.yaml',
    edits: [['eksctl-44-node-repair.yaml', 'minSize: 2\n    maxSize: 8', 'minSize: 2\n    maxSize: 16']],
    expect: [['eksctl-nodegroup', 'gpu-repair-ng', 8, 16]],
    why: 'g4dn.xlarge has 1 T4',
  },
  {
    id: 'eksctl 44: count-repair-ng maxSize 20 → 30 (negative control)',
    target: 'eksctl/eksctl-44-node-repair.yaml',
    edits: [['eksctl-44-node-repair.yaml', 'maxSize: 20', 'maxSize: 30']],
    expect: [],
    why: 'm5.xlarge has no GPU',
  },
  {
    id: 'eksctl 15: managed-ng-public m5.large → g5.xlarge',
    target: 'eksctl/eksctl-15-managed-nodes.yaml',
    edits: [['eksctl-15-managed-nodes.yaml', 'instanceType: m5.large', 'instanceType: g5.xlarge']],
    expect: [['eksctl-nodegroup', 'managed-ng-public', 0, 4]],
    why: 'maxSize 4 × 1 A10G',
  },
  {
    id: 'eksctl 05: ng3-private-b c3.8xlarge → p3.8xlarge (no maxSize)',
    target: 'eksctl/eksctl-05-advanced-nodegroups.yaml',
    edits: [['eksctl-05-advanced-nodegroups.yaml', 'instanceType: c3.8xlarge', 'instanceType: p3.8xlarge']],
    expect: [['eksctl-nodegroup', 'ng3-private-b', 0, 16]],
    why: 'eksctl sets maxSize to desiredCapacity when only that is given: 4 × 4 V100',
  },
  // aws-samples/karpenter-blueprints and aws/karpenter-provider-aws NodePools.
  {
    id: 'karpenter-blueprints gpu-slices: nvidia.com/gpu limit 40 → 80',
    target: 'karpenter/karpenter-blueprints-node-overlay-gpu-nodepool.yaml',
    edits: [['node-overlay-gpu-nodepool.yaml', 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 80']],
    expect: [['karpenter-nodepool', 'gpu-slices', 40, 80]],
    why: 'the NodePool limit on nvidia.com/gpu is the bound',
  },
  {
    id: 'karpenter-blueprints auto mode gpu: nvidia.com/gpu limit 5 → 8',
    target: 'karpenter/karpenter-blueprints-gpu-nodepool-automode.yaml',
    edits: [['gpu-nodepool-automode.yaml', 'nvidia.com/gpu: 5', 'nvidia.com/gpu: 8']],
    expect: [['karpenter-nodepool', 'gpu', 5, 8]],
    why: 'the limit is the bound',
  },
  {
    id: 'karpenter-blueprints static pool: replicas 1 → 2 on g6e.8xlarge',
    target: 'karpenter/karpenter-blueprints-static-nodepool.yaml',
    edits: [['static-nodepool.yaml', 'replicas: 1', 'replicas: 2']],
    expect: [['karpenter-nodepool', 'gpu-static', 1, 2]],
    why: 'a static NodePool runs `replicas` nodes: 1 → 2 × 1 L40S per g6e.8xlarge',
  },
  {
    id: 'karpenter general-purpose: instance-category g allowed, no GPU limit',
    target: 'karpenter/karpenter-aws-v1-general-purpose.yaml',
    edits: [['general-purpose.yaml', 'values: ["c", "m", "r"]', 'values: ["c", "m", "r", "g"]']],
    expect: 'not-followed',
    why: 'g instances carry GPUs and nothing limits them: the pool can grow without bound',
  },
  {
    id: 'karpenter large-instances: instance-cpu Gt 3 → 7 (negative control)',
    target: 'karpenter/karpenter-aws-v1-large-instances.yaml',
    edits: [['large-instances.yaml', 'values: ["3"]', 'values: ["7"]']],
    expect: [],
    why: 'no GPU instance is allowed or excluded by a CPU count',
  },
  // kubernetes-sigs/kueue examples.
  {
    id: 'kueue TAS: tas-cluster-queue nvidia.com/gpu 16 → 32',
    target: 'kueue/kueue-tas-sample-gpu-queues.yaml',
    edits: [['kueue-tas-sample-gpu-queues.yaml', 'nominalQuota: 16', 'nominalQuota: 32']],
    expect: [['kueue-cluster-queue', 'tas-cluster-queue', 16, 32]],
    why: 'nominal quota of the one flavor',
  },
  {
    id: 'kueue single ClusterQueue: nvidia.com/gpu quota 8 added',
    target: 'kueue/kueue-single-clusterqueue-setup.yaml',
    edits: [
      [
        'kueue-single-clusterqueue-setup.yaml',
        'coveredResources: ["cpu", "memory"]',
        'coveredResources: ["cpu", "memory", "nvidia.com/gpu"]',
      ],
      [
        'kueue-single-clusterqueue-setup.yaml',
        'nominalQuota: 36Gi\n',
        'nominalQuota: 36Gi\n      - name: "nvidia.com/gpu"\n        nominalQuota: 8\n',
      ],
    ],
    expect: [['kueue-cluster-queue', 'cluster-queue', 0, 8]],
    why: '0 → 8 GPUs of quota',
  },
  {
    id: 'kueue shared quota: on-demand cpu 9 → 12 (negative control)',
    target: 'kueue/kueue-shared-quota-setup.yaml',
    edits: [['kueue-shared-quota-setup.yaml', 'nominalQuota: 9', 'nominalQuota: 12']],
    expect: [],
    why: 'CPU only',
  },
  {
    id: 'kueue DRA sample: example.com/gpu 8 → 16',
    target: 'kueue/kueue-dra-sample-queues.yaml',
    edits: [['kueue-dra-sample-queues.yaml', 'nominalQuota: 8', 'nominalQuota: 16']],
    expect: 'not-followed',
    why: 'example.com/gpu is the logical resource a DRA DeviceClass is mapped to: 8 → 16 devices, which may be whole GPUs, under a name no GPU vendor uses',
  },
  // kubernetes-sigs/cluster-api-provider-azure.
  {
    id: 'capz default MachineDeployment: vmSize set to Standard_NC24ads_A100_v4',
    target: 'cluster-api/capz-default-machine-deployment.yaml',
    edits: [['capz-default-machine-deployment.yaml', 'vmSize: ${AZURE_NODE_MACHINE_TYPE}', 'vmSize: Standard_NC24ads_A100_v4']],
    expect: 'not-followed',
    why: 'replicas is ${WORKER_MACHINE_COUNT:=2}: 2 × 1 A100 only if the variable is not set when the template is rendered',
  },
  // The floor: shapes no parser reads end not followed; GPU names that say nothing of capacity do not.
  {
    id: 'pulumi-eks managed node group with gpu: true given a size (Pulumi, no parser)',
    target: 'floor/pulumi-eks-managed-ng-gpu-index.ts',
    edits: [
      [
        'pulumi-eks-managed-ng-gpu-index.ts',
        '    gpu: true\n',
        '    gpu: true,\n    scalingConfig: { minSize: 1, desiredSize: 2, maxSize: 8 },\n',
      ],
    ],
    expect: 'not-followed',
    why: 'a GPU managed node group of up to 8 nodes, declared in TypeScript: no reader counts it, the floor sees `gpu`',
  },
  {
    id: 'Volcano queue root-eng-prod given an nvidia.com/gpu capability of 16',
    target: 'floor/volcano-hierarchical-queues.yaml',
    edits: [
      ['volcano-hierarchical-queues.yaml', 'spec:\n  weight: 1\n---', 'spec:\n  weight: 1\n  capability:\n    nvidia.com/gpu: 16\n---'],
    ],
    expect: [['volcano-queue', 'root-eng-prod', 0, 16]],
    why: 'a Volcano queue caps the GPUs its jobs hold: with no deserved or guarantee, its capability is what it counts',
  },
  {
    id: 'Volcano queue root-eng-prod given nvidia.com/gpu deserved 4 under a capability of 16',
    target: 'floor/volcano-hierarchical-queues.yaml',
    edits: [
      [
        'volcano-hierarchical-queues.yaml',
        'spec:\n  weight: 1\n---',
        'spec:\n  weight: 1\n  capability:\n    nvidia.com/gpu: 16\n  deserved:\n    nvidia.com/gpu: 4\n---',
      ],
    ],
    expect: [['volcano-queue', 'root-eng-prod', 0, 4]],
    why: "a Volcano queue's deserved GPUs are its share, as a ClusterQueue's nominal quota; the capability above it is what it may borrow",
  },
  // NVIDIA/KAI-Scheduler quick-start queues: a parent and a child, GPU quota 0, no limit.
  {
    id: 'KAI default-queue: gpu quota 0 → 8',
    target: 'kai-scheduler/kai-default-queues.yaml',
    edits: [['kai-default-queues.yaml', /(name: default-queue[\s\S]*?gpu:\n {6}limit: -1\n {6}overQuotaWeight: 1\n {6}quota: )0/, '$18']],
    expect: [['kai-queue', 'default-queue', 0, 8]],
    why: 'a KAI queue is guaranteed its GPU quota',
  },
  {
    id: 'KAI default-parent-queue: cpu quota 0 → 16000 (negative control)',
    target: 'kai-scheduler/kai-default-queues.yaml',
    edits: [
      [
        'kai-default-queues.yaml',
        /(name: default-parent-queue\nspec:\n {2}resources:\n {4}cpu:\n {6}limit: -1\n {6}overQuotaWeight: 1\n {6}quota: )0/,
        '$116000',
      ],
    ],
    expect: [],
    why: 'a CPU quota beside a GPU quota that stays 0',
  },
  // GoogleCloudPlatform/accelerated-platforms: a ComputeClass creating L4 node pools.
  {
    id: 'accelerated-platforms ComputeClass gpu-l4-24gb-x2: spot priority 2 → 4 L4 per node',
    target: 'gke-compute-class/accelerated-platforms-gpu-l4-24gb-x2.yaml',
    edits: [
      [
        'accelerated-platforms-gpu-l4-24gb-x2.yaml',
        /( {8}count: )2(\n {8}driverVersion: latest\n {8}type: nvidia-l4\n {6}machineType: g2-standard-24\n {6}maxPodsPerNode: 32\n {6}spot: true)/,
        '$14$2',
      ],
    ],
    expect: 'not-followed',
    why: 'a ComputeClass that creates node pools sets no node count: its GPU nodes are bounded by nothing it declares',
  },
  {
    id: 'accelerated-platforms ComputeClass gpu-l4-24gb-x2: active migration off (negative control)',
    target: 'gke-compute-class/accelerated-platforms-gpu-l4-24gb-x2.yaml',
    edits: [['accelerated-platforms-gpu-l4-24gb-x2.yaml', 'optimizeRulePriority: true', 'optimizeRulePriority: false']],
    expect: [],
    why: 'its GPU priorities and what it creates are the same',
  },
  {
    id: 'Volcano queue root-sci-prod weight 1 → 2 (negative control, no GPU named)',
    target: 'floor/volcano-hierarchical-queues.yaml',
    edits: [['volcano-hierarchical-queues.yaml', '"1/8/8"\nspec:\n  weight: 1', '"1/8/8"\nspec:\n  weight: 2']],
    expect: [],
    why: 'a share of the cluster among queues, no GPU named in the file',
  },
  {
    id: 'Volcano TF job on GPUs: workers 3 → 6 (negative control, a workload requesting GPUs)',
    target: 'floor/volcano-tf-example-gpu.yaml',
    edits: [['volcano-tf-example-gpu.yaml', '- replicas: 3', '- replicas: 6']],
    expect: [],
    why: 'demand, not capacity: nvidia.com/gpu only in container requests and limits, `--num_gpus` in a command',
  },
  {
    id: 'karpenter-blueprints auto mode gpu pool: cpu limit 100 → 200 (negative control, CPU-only edit beside a GPU limit)',
    target: 'karpenter/karpenter-blueprints-gpu-nodepool-automode.yaml',
    edits: [['gpu-nodepool-automode.yaml', 'cpu: 100', 'cpu: 200']],
    expect: [],
    why: 'the nvidia.com/gpu limit stays 5; Karpenter accounts for every GPU name of the pool',
  },
  {
    id: 'kaito MIG workspace: a label added (negative control)',
    target: 'kaito/kaito-workspace-mig.yaml',
    edits: [['kaito-workspace-mig.yaml', 'metadata:\n', 'metadata:\n  labels:\n    team: research\n']],
    expect: [],
    why: 'a label added to the object: the GPU count is the same',
  },
  // redhat-hpc/openshift-batch: Kueue ClusterQueues of two teams and a shared pool, one file each, quotas quoted.
  {
    id: 'openshift-batch team-a-cq: nvidia.com/gpu quota "4" → "8"',
    target: 'kueue/openshift-batch',
    edits: [['team-a-cq.yaml', 'nominalQuota: "4"', 'nominalQuota: "8"']],
    expect: [['kueue-cluster-queue', 'team-a-cq', 4, 8]],
    why: 'a quoted quantity is the same number: 4 → 8 GPUs of nominal quota on gpu-flavor',
  },
  {
    id: 'openshift-batch team-b-cq: nvidia.com/gpu quota "0" → "2", borrowing limit "0" kept',
    target: 'kueue/openshift-batch',
    edits: [['team-b-cq.yaml', 'nominalQuota: "0"', 'nominalQuota: "2"']],
    expect: [['kueue-cluster-queue', 'team-b-cq', 0, 2]],
    why: 'the first nominalQuota of the file is the GPU one (its resource group comes first): 0 → 2',
  },
  {
    id: 'openshift-batch shared-cq: cpu quota 10 → 20 (negative control)',
    target: 'kueue/openshift-batch',
    edits: [['shared-cq.yaml', 'nominalQuota: 10', 'nominalQuota: 20']],
    expect: [],
    why: 'the shared queue covers cpu and memory only',
  },
  {
    id: 'openshift-batch gpu-flavor: taint effect NoSchedule → NoExecute (negative control)',
    target: 'kueue/openshift-batch',
    edits: [['gpu-flavor.yaml', 'effect: NoSchedule', 'effect: NoExecute']],
    expect: [],
    why: "a flavor's toleration says where admitted pods may run, not how many GPUs any queue holds",
  },
  // Azure-Samples/aks-kueue-sample: one multi-document file of Kueue queues over one H100 node, and its Bicep.
  {
    id: 'aks-kueue-sample team-a-cq: nvidia.com/gpu quota 2 → 4',
    target: 'kueue/aks-kueue-sample',
    edits: [['cluster-queues.yaml', '"nvidia.com/gpu"\n              nominalQuota: 2', '"nvidia.com/gpu"\n              nominalQuota: 4']],
    expect: [['kueue-cluster-queue', 'team-a-cq', 2, 4]],
    why: "the first GPU quota of the file is team-a-cq's (team-b-cq, the same text, follows): 2 → 4",
  },
  {
    id: 'aks-kueue-sample shared-cq: nvidia.com/gpu quota 4 → 8, lending limit kept',
    target: 'kueue/aks-kueue-sample',
    edits: [['cluster-queues.yaml', 'nominalQuota: 4\n              lendingLimit: 4', 'nominalQuota: 8\n              lendingLimit: 4']],
    expect: [['kueue-cluster-queue', 'shared-cq', 4, 8]],
    why: "the burst pool's nominal quota: 4 → 8 H100",
  },
  {
    id: 'aks-kueue-sample team-a-cq: cpu quota 24 → 32 (negative control, a GPU quota beside it)',
    target: 'kueue/aks-kueue-sample',
    edits: [['cluster-queues.yaml', 'nominalQuota: 24', 'nominalQuota: 32']],
    expect: [],
    why: 'cpu of team-a-cq only; its nvidia.com/gpu quota stays 2',
  },
  {
    id: 'aks-kueue-sample Bicep: gpuNodeCount 1 → 2 in main.bicepparam',
    target: 'bicep/aks-kueue-sample',
    edits: [['main.bicepparam', 'param gpuNodeCount = 1', 'param gpuNodeCount = 2']],
    expect: [['aks-node-pool', 'gpu', 8, 16]],
    why: 'main.bicep hands gpuNodeCount and gpuVmSize to modules/gpu-nodepool.bicep, whose pool `gpu` has count: gpuNodeCount; Standard_ND96isr_H100_v5 has 8 H100: 1 × 8 → 2 × 8',
  },
  {
    id: 'aks-kueue-sample Bicep: systemNodeCount 2 → 3 (negative control)',
    target: 'bicep/aks-kueue-sample',
    edits: [['main.bicepparam', 'param systemNodeCount = 2', 'param systemNodeCount = 3']],
    expect: [],
    why: 'the system pool is Standard_D4s_v5, no GPU',
  },
  // Northo/k8s-webserver-with-inference-job-demo: an AKS cluster whose GPU pool is commented out.
  {
    id: 'k8s-inference-demo AKS: the commented-out T4 pool enabled',
    target: 'terraform-aks/k8s-inference-demo',
    edits: [
      [
        'aks.tf',
        /# resource "azurerm_kubernetes_cluster_node_pool" "gpu" \{[\s\S]*# \}\n$/,
        'resource "azurerm_kubernetes_cluster_node_pool" "gpu" {\n  name                  = "gpu"\n  kubernetes_cluster_id = azurerm_kubernetes_cluster.aks.id\n  vm_size               = "standard_nc4as_t4_v3"\n  node_count            = 0\n  auto_scaling_enabled  = true\n  min_count             = 0\n  max_count             = 3\n  tags = {\n    environment = "development"\n  }\n\n  node_taints = [\n    "key=gpu:NoSchedule",\n  ]\n}\n',
      ],
    ],
    expect: [['aks-node-pool', 'gpu', 0, 3]],
    why: 'Standard_NC4as_T4_v3 (Azure sizes are case-blind) has 1 T4; autoscaling up to max_count 3: 0 → 3',
  },
  {
    id: "k8s-inference-demo AKS: the commented-out pool's max_count 3 → 4, still a comment (negative control)",
    target: 'terraform-aks/k8s-inference-demo',
    edits: [['aks.tf', '#   max_count             = 3', '#   max_count             = 4']],
    expect: [],
    why: 'a comment: nothing is created',
  },
  {
    id: 'k8s-inference-demo AKS: default pool node_count 2 → 3 (negative control)',
    target: 'terraform-aks/k8s-inference-demo',
    edits: [['aks.tf', 'node_count = 2', 'node_count = 3']],
    expect: [],
    why: 'Standard_D2_v2 has no GPU',
  },
  // kevinchevreuil/eks-cluster-nodegroup: a plain aws_eks_node_group (its network module is a git submodule).
  {
    id: 'eks-cluster-nodegroup: c5.2xlarge → g5.xlarge with the NVIDIA AMI',
    target: 'terraform-eks/eks-cluster-nodegroup',
    edits: [
      ['eks_node_group.tf', 'instance_types  = ["c5.2xlarge"]', 'instance_types  = ["g5.xlarge"]'],
      ['eks_node_group.tf', 'AL2023_x86_64_STANDARD', 'AL2023_x86_64_NVIDIA'],
    ],
    expect: [['eks-node-group', 'Kdzdo-EKS-NodeGroup', 0, 450]],
    why: 'max_size 450 × 1 A10G per g5.xlarge; the group is named by node_group_name',
  },
  {
    id: 'eks-cluster-nodegroup: max_size 450 → 500 on c5.2xlarge (negative control)',
    target: 'terraform-eks/eks-cluster-nodegroup',
    edits: [['eks_node_group.tf', 'max_size     = 450', 'max_size     = 500']],
    expect: [],
    why: 'c5.2xlarge has no GPU',
  },
  // minasaeedbasta/terraform-eks-karpenter: local modules, a launch template, Karpenter NodePools rendered from templates.
  {
    id: "terraform-eks-karpenter: the default NodePool's instance type t3.medium → g5.xlarge",
    target: 'karpenter/terraform-eks-karpenter',
    edits: [
      [
        'terraform-eks-karpenter/variables.tf',
        'default     = "t3.medium"\n  description = "The EC2 instance type to be used for the default karpenter nodepool"',
        'default     = "g5.xlarge"\n  description = "The EC2 instance type to be used for the default karpenter nodepool"',
      ],
    ],
    expect: [['karpenter-nodepool', 'default', 0, 250]],
    today: {
      outcome: 'not-followed',
      reason:
        'the NodePool (templates/nodepool_default.tpl, rendered by a `template_file` data source) is in a local module whose Kubernetes manifests are not read through its call, and its only limit is cpu',
    },
    why: 'the module hands the variable to nodepool_default.tpl (`values: [${instance_type}]`), whose only limit is cpu: 1000: 1000 / 4 vCPU = 250 g5.xlarge × 1 A10G',
  },
  {
    id: "terraform-eks-karpenter: the controller node group's instance type t3.medium → g4dn.xlarge",
    target: 'karpenter/terraform-eks-karpenter',
    edits: [
      [
        'terraform-eks-karpenter/variables.tf',
        'default     = "t3.medium"\n  description = "The EC2 instance type to be used for the EKS worker nodes"',
        'default     = "g4dn.xlarge"\n  description = "The EC2 instance type to be used for the EKS worker nodes"',
      ],
    ],
    expect: [['eks-node-group', 'karpenter', 0, 2]],
    today: {
      outcome: 'not-followed',
      reason: 'an instance type given to a node group through its launch template (aws_launch_template.karpenter) is not read',
    },
    why: 'module eks sets aws_launch_template.karpenter instance_type = var.instance_type, the template of aws_eks_node_group.karpenter, max_size 2: 2 × 1 T4',
  },
  {
    id: 'terraform-eks-karpenter: node_group_scaling max_size 2 → 3 (negative control)',
    target: 'karpenter/terraform-eks-karpenter',
    edits: [['terraform-eks-karpenter/variables.tf', 'max_size         = 2', 'max_size         = 3']],
    expect: [],
    why: "the variable is handed to module eks, which sizes nothing with it (the node group's sizes are literals), and the instances are t3.medium",
  },
  // pulumi/pulumi-eks examples: managed node groups in TypeScript, which only the floor reads.
  {
    id: "pulumi-eks efa: the GPU group's max size 2 → 4 (instance types from the stack config)",
    target: 'pulumi/pulumi-eks-efa',
    edits: [
      ['index.ts', 'maxSize: 2', 'maxSize: 4'],
      ['index.ts', 'desiredSize: 2', 'desiredSize: 4'],
    ],
    expect: 'not-followed',
    why: 'instanceTypes come from `config.require("instanceTypes")`, a stack setting not in the repository: GPUs per node unknown',
  },
  {
    id: 'pulumi-eks managed node groups: aws-managed-ng2 t3.medium → g5.xlarge',
    target: 'pulumi/pulumi-eks-managed-nodegroups',
    edits: [['index.ts', 'instanceTypes: ["t3.medium"]', 'instanceTypes: ["g5.xlarge"]']],
    expect: [['eks-node-group', 'aws-managed-ng2', 0, 2]],
    today: { outcome: 'not-followed', reason: 'Pulumi programs are not parsed; the floor names g5.xlarge' },
    why: 'maxSize 2 × 1 A10G',
  },
  ...MODULE_CASES,
];
