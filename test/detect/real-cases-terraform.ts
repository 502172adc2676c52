import type { RealCase } from './real-case.js';

const AP = 'terraform-gke/accelerated-platforms';
const TFAWS = 'terraform-eks/tf-aws-eks-example';

/**
 * Real cases (real-cases.ts) on one Terraform file or module each: GKE node pools, the EKS and AKS
 * modules' node groups, ai-on-gke's pools from variables.
 */
export const TERRAFORM_CASES: readonly RealCase[] = [
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
  // Azure/terraform-azurerm-aks examples call the module by a path ("../..") that holds the module's
  // own files: the default pool (two `dynamic "default_node_pool"` shapes) and the `node_pools` map.
  {
    id: 'azurerm-aks startup: the default pool given a GPU agents_size',
    target: 'terraform-aks/azurerm-aks',
    edits: [
      [
        'startup/main.tf',
        '  agents_count              = 2\n',
        '  agents_count              = 2\n  agents_size               = "Standard_NC24ads_A100_v4"\n',
      ],
    ],
    expect: [['aks-node-pool', 'testnodepool', 0, 2]],
    why: 'auto_scaling_enabled = false picks the manually scaled default pool: agents_count 2 × 1 A100 per Standard_NC24ads_A100_v4',
  },
  {
    id: 'azurerm-aks multiple node pools: the pools moved to Standard_NC4as_T4_v3',
    target: 'terraform-aks/azurerm-aks',
    edits: [['multiple_node_pools/main.tf', 'vm_size               = "Standard_D2s_v3"', 'vm_size               = "Standard_NC4as_T4_v3"']],
    expect: [
      ['aks-node-pool', 'worker0', 0, 1],
      ['aks-node-pool', 'worker1', 0, 1],
      ['aks-node-pool', 'worker2', 0, 1],
    ],
    today: {
      outcome: 'not-followed',
      reason:
        "counted, but the module also hands `node_pools` to a `null_resource`'s triggers and an `azapi_update_resource`, which no reader takes: the T4 size is not accounted for there",
    },
    why: 'a for expression makes 3 pools (their names from a random id, known after apply), node_count 1 × 1 T4 each',
  },
  {
    id: 'azurerm-aks startup: agents_count 2 → 3 on the default Standard_D2s_v3 (negative control)',
    target: 'terraform-aks/azurerm-aks',
    edits: [['startup/main.tf', '  agents_count              = 2\n', '  agents_count              = 3\n']],
    expect: [],
    why: 'agents_size is not set: the module default Standard_D2s_v3 has no GPU',
  },
  {
    id: 'azurerm-aks multiple node pools: node_count 1 → 2 on Standard_D2s_v3 (negative control)',
    target: 'terraform-aks/azurerm-aks',
    edits: [['multiple_node_pools/main.tf', 'node_count            = 1', 'node_count            = 2']],
    expect: [],
    why: 'the three pools stay on Standard_D2s_v3, which has no GPU',
  },
  // GoogleCloudPlatform/ai-on-gke: terraform-google-modules/kubernetes-engine with pools from variables;
  // infrastructure/ calls the cluster modules by path, its values in platform.tfvars.
  {
    id: 'ai-on-gke private cluster module: enable_gpu default true → false',
    target: 'terraform-gke/ai-on-gke/modules/gke-standard-private-cluster',
    edits: [
      [
        'gke-standard-private-cluster/variables.tf',
        'description = "Set to true to create TPU node pool"\n  default     = true',
        'description = "Set to true to create TPU node pool"\n  default     = false',
      ],
    ],
    expect: 'not-followed',
    why: 'gpu_pools, tpu_pools and cpu_pools have no default: the pools come from the caller',
  },
  {
    id: 'ai-on-gke public cluster module: a default GPU pool list',
    target: 'terraform-gke/ai-on-gke/modules/gke-standard-public-cluster',
    edits: [
      [
        'gke-standard-public-cluster/variables.tf',
        'variable "gpu_pools" {\n  type = list(map(any))\n}',
        'variable "gpu_pools" {\n  type = list(map(any))\n  default = [{\n    name              = "gpu-pool-l4"\n    machine_type      = "g2-standard-24"\n    node_locations    = "us-central1-a"\n    autoscaling       = true\n    max_count         = 3\n    accelerator_count = 2\n    accelerator_type  = "nvidia-l4"\n  }]\n}',
      ],
    ],
    expect: 'not-followed',
    why: 'tpu_pools and cpu_pools still have no default, so the concat() of pools cannot be evaluated',
  },
  {
    id: 'ai-on-gke platform.tfvars: gpu-pool-l4 max_count 3 → 6',
    target: 'terraform-gke/ai-on-gke',
    edits: [['platform.tfvars', 'max_count          = 3', 'max_count          = 6']],
    expect: [['gke-node-pool', 'gpu-pool-l4', 6, 12]],
    why: 'infrastructure/ read with its variable file: a public standard cluster (private_cluster = false) whose module hands gpu_pools to the GKE module; node_locations "us-central1-a" is one zone: 3 × 2 L4 → 6 × 2',
  },
  {
    id: 'ai-on-gke platform.tfvars: gpu-pool-l4 disk_size_gb 100 → 200 (negative control)',
    target: 'terraform-gke/ai-on-gke',
    edits: [['platform.tfvars', 'disk_size_gb       = 100', 'disk_size_gb       = 200']],
    expect: [],
    why: 'a boot disk size sizes no GPU',
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
  // nebius/nebius-solution-library k8s-training: Nebius node groups whose `template` also renders
  // a cloud-init templatefile() given another resource's attribute (a boot script: no capacity).
  {
    id: 'nebius k8s-training tfvars: gpu_nodes_count_per_group 2 → 4',
    target: 'terraform-nebius/k8s-training',
    edits: [['terraform.tfvars', 'gpu_nodes_count_per_group  = 2', 'gpu_nodes_count_per_group  = 4']],
    expect: [['nebius-node-group', 'gpu', 16, 32]],
    why: 'fixed_node_count = var.gpu_nodes_count_per_group, count = var.gpu_node_groups (1); preset 8gpu-128vcpu-1600gb has 8 H200: 2 × 8 → 4 × 8',
  },
  {
    id: 'nebius k8s-training main.tf: the GPU group fixed_node_count written 4',
    target: 'terraform-nebius/k8s-training',
    edits: [['main.tf', 'fixed_node_count = var.gpu_nodes_count_per_group', 'fixed_node_count = 4']],
    expect: [['nebius-node-group', 'gpu', 16, 32]],
    why: 'the tfvars give 2 nodes of 8 H200; written 4: 32',
  },
  {
    id: 'nebius k8s-training tfvars: gpu_node_groups 1 → 2',
    target: 'terraform-nebius/k8s-training',
    edits: [['terraform.tfvars', 'gpu_node_groups            = 1', 'gpu_node_groups            = 2']],
    expect: [['nebius-node-group', 'gpu', 16, 32]],
    why: 'count = var.gpu_node_groups copies the group of 2 × 8 H200',
  },
  {
    id: 'nebius k8s-training tfvars: cpu_nodes_count 2 → 3 (negative control)',
    target: 'terraform-nebius/k8s-training',
    edits: [['terraform.tfvars', 'cpu_nodes_count            = 2', 'cpu_nodes_count            = 3']],
    expect: [],
    why: 'the CPU group (cpu-d3) only',
  },
];
