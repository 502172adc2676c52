import type { RealCase } from './real-case.js';

const NV_EKS = 'terraform-eks/nvidia-terraform-modules-eks';
const NV_AKS = 'terraform-aks/nvidia-terraform-modules-aks';
const P6 = 'terraform-eks/aws-do-eks-p6-b200';
const NV_GKE = 'terraform-gke/nvidia-terraform-modules-gke';

/**
 * Pull requests on whole Terraform root modules (a folder: main.tf with its variables.tf and
 * tfvars), as their own histories changed them: the GPU pool's size and machine come from variable
 * defaults, and the same files hold data sources, IAM grants and AMI lookups named for GPUs that
 * size nothing.
 */
export const MODULE_CASES: readonly RealCase[] = [
  // NVIDIA/nvidia-terraform-modules eks/: terraform-aws-modules/eks with one GPU managed group.
  {
    id: 'nvidia-terraform-modules eks: gpu_instance_type g4dn.2xlarge → g6e.12xlarge',
    target: NV_EKS,
    edits: [['variables.tf', 'default     = "g4dn.2xlarge"', 'default     = "g6e.12xlarge"']],
    expect: [['eks-node-group', 'tf-gpu', 5, 20]],
    why: 'max_gpu_nodes 5: × 1 T4 per g4dn.2xlarge → × 4 L40S per g6e.12xlarge (the upstream history made the opposite change)',
  },
  {
    id: 'nvidia-terraform-modules eks: max_gpu_nodes 5 → 8',
    target: NV_EKS,
    edits: [['variables.tf', /(variable "max_gpu_nodes" \{\n[^}]*default {5}= )"5"/, '$1"8"']],
    expect: [['eks-node-group', 'tf-gpu', 5, 8]],
    why: 'g4dn.2xlarge has 1 T4: max_size 5 → 8',
  },
  {
    id: 'nvidia-terraform-modules eks: cluster_version 1.32 → 1.33, beside gpu_ami_id (negative control)',
    target: NV_EKS,
    edits: [['variables.tf', 'default     = "1.32"', 'default     = "1.33"']],
    expect: [],
    why: 'the control plane version; the file also declares `gpu_ami_id`, an AMI, which sizes nothing',
  },
  // NVIDIA/nvidia-terraform-modules aks/: azurerm_kubernetes_cluster_node_pool with autoscaling.
  {
    id: 'nvidia-terraform-modules aks: gpu_node_pool_max_count 5 → 8',
    target: NV_AKS,
    edits: [['variables.tf', /(variable "gpu_node_pool_max_count" \{\n[^}]*default {5}= )5/, '$18']],
    expect: [['aks-node-pool', 'aksgpu1', 5, 8]],
    why: 'Standard_NC4as_T4_v3 has 1 T4: max_count 5 → 8',
  },
  {
    id: 'nvidia-terraform-modules aks: Standard_NC4as_T4_v3 → Standard_NC64as_T4_v3',
    target: NV_AKS,
    edits: [['variables.tf', '"Standard_NC4as_T4_v3"', '"Standard_NC64as_T4_v3"']],
    expect: [['aks-node-pool', 'aksgpu1', 5, 20]],
    why: 'max_count 5: × 1 T4 → × 4 T4',
  },
  {
    id: 'nvidia-terraform-modules aks: the CPU pool max count 5 → 8 (negative control)',
    target: NV_AKS,
    edits: [['variables.tf', /(variable "cpu_node_pool_max_count" \{\n[^}]*default {5}= )5/, '$18']],
    expect: [],
    why: 'Standard_D16_v5 has no GPU',
  },
  {
    id: 'nvidia-terraform-modules aks: GPU Operator v25.3.0 → v25.10.0 (negative control)',
    target: NV_AKS,
    edits: [['variables.tf', '"v25.3.0"', '"v25.10.0"']],
    expect: [],
    why: 'the operator that installs drivers and the device plugin, not the pool',
  },
  // NVIDIA/nvidia-terraform-modules gke/: the pool named "tf-${var.cluster_name}-gpu-pool", called from examples/cnpack.
  {
    id: 'nvidia-terraform-modules gke cnpack: the tfvars values commented out, the pool name with them (negative control)',
    target: NV_GKE,
    edits: [['examples/cnpack/terraform.tfvars', /^(\w)/gm, '# $1']],
    expect: [],
    why: 'upstream commit 77f3156: the GPU pool loses the name cluster_name gave it, and stays the same resource (module.holoscan-ready-gke.google_container_node_pool.gpu_nodes) of the same size',
  },
  // aws-samples/aws-do-eks wd/conf/terraform/eks-p6-b200: a p6-b200 group, managed or self-managed by a variable.
  {
    id: 'aws-do-eks p6-b200: the GPU group max_size 128 → 64',
    target: P6,
    edits: [['variables.tf', '"128"', '"64"']],
    expect: [['eks-node-group', 'gpu', 1024, 512]],
    why: 'p6-b200.48xlarge has 8 B200: 128 × 8 → 64 × 8',
  },
  {
    id: 'aws-do-eks p6-b200: the GPU group moved from managed to self-managed (negative control)',
    target: P6,
    edits: [['variables.tf', 'default     = "managed"', 'default     = "self-managed"']],
    expect: [],
    why: 'the same group, 128 × 8 B200, declared in self_managed_node_groups instead of eks_managed_node_groups',
  },
  {
    id: 'aws-do-eks p6-b200: the GPU AMI name pattern 1.35 → 1.36 (negative control)',
    target: P6,
    edits: [['variables.tf', 'nvidia-1.35-*', 'nvidia-1.36-*']],
    expect: [],
    why: 'the image the nodes boot, read by `data "aws_ami" "eks_gpu_node"`: no GPU change',
  },
];
