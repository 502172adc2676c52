import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on a directory of a repository: Kueue queues in several files, Bicep,
 * Terraform with local modules and templates, Pulumi programs.
 */
export const REPO_CASES: readonly RealCase[] = [
  // Azure/AKS-Construction: one VM size parameter sizes the system pool (properties: aksProperties, a
  // union() holding network outputs) and the user pool (a module whose pool properties are union({…}, …)).
  {
    id: 'AKS-Construction Bicep: agentVMSize Standard_D4ds_v5 → Standard_NC24ads_A100_v4',
    target: 'bicep/aks-construction',
    edits: [['main.bicep', "param agentVMSize string = 'Standard_D4ds_v5'", "param agentVMSize string = 'Standard_NC24ads_A100_v4'"]],
    expect: [['aks-node-pool', 'userpool01', 0, 3]],
    today: {
      outcome: 'not-followed',
      reason:
        "the system pool sits in properties: aksProperties, a union() that also holds another resource's outputs; the floor names the size",
    },
    why: 'the user pool (aksagentpool.bicep, module userNodePool) has count: agentCount, 3 by default, × 1 A100 of Standard_NC24ads_A100_v4',
  },
  {
    id: 'AKS-Construction Bicep: upgradeChannel none → stable (negative control)',
    target: 'bicep/aks-construction',
    edits: [['main.bicep', "param upgradeChannel string = 'none'", "param upgradeChannel string = 'stable'"]],
    expect: [],
    why: 'no pool is GPU-sized and no size or count changes',
  },
  // unionai-oss/deploy-flyte: EKS managed node groups built by a for over locals merged with defaults
  // whose subnet_ids is a module output.
  {
    id: 'deploy-flyte EKS: worker-gpu-on-demand max_size 3 → 6',
    target: 'terraform-eks/deploy-flyte-eks',
    edits: [['eks.tf', /(gpu_count {11}= 8\n {6}max_size {12}= )3/, '$16']],
    expect: [['eks-node-group', 'worker-gpu-on-demand', 24, 48]],
    today: {
      outcome: 'not-followed',
      reason: 'the node-group locals also feed the autoscaling-group tags (nvidia.com/gpu), which no reader accounts for',
    },
    why: 'g4dn.metal has 8 T4; max_size 3 × 8 → 6 × 8',
  },
  // jesse-gonzalez/nai-llm-fleet-infra: Flux GitOps; a cluster's ConfigMap of post-build variables sets the
  // time-slicing replicas of the GPU Operator's config, a Component the profile's patch adds to the Flux Kustomization.
  {
    id: 'nai-llm-fleet-infra dragon-dev01-w01: Flux variable gpu_time_slicing_replica_count "2" → "4"',
    target: 'gpu-sharing/nai-llm-fleet-infra',
    root: true,
    edits: [['cluster-configs.yaml', 'gpu_time_slicing_replica_count: "2"', 'gpu_time_slicing_replica_count: "4"']],
    expect: [['gpu-sharing', 'time-slicing-config/any', 2, 4]],
    why: 'the Flux Kustomization gpu-operator substitutes cluster-configs into platform/gpu-operator/enable-time-slicing (added by the non-prod profile): each GPU advertised as 4, was 2',
  },
  {
    id: 'nai-llm-fleet-infra dragon-dev01-w01: Flux variable kafka_version bumped (negative control)',
    target: 'gpu-sharing/nai-llm-fleet-infra',
    root: true,
    edits: [['cluster-configs.yaml', 'kafka_version: "26.8.5"', 'kafka_version: "26.8.6"']],
    expect: [],
    why: 'kafka_version sets no GPU field; the GPU-named variables beside it are unchanged',
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
  {
    id: 'openshift-batch gpu-flavor: nodeLabels gpu.present → gpu.product H100, queues unchanged',
    target: 'kueue/openshift-batch',
    edits: [['gpu-flavor.yaml', 'nvidia.com/gpu.present: "true"', 'nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3']],
    expect: 'not-followed',
    why: 'team-a-cq and team-b-cq (their own files) name gpu-flavor; at head it pins H100 nodes, at base any GPU node, whose model the repository does not say: what their quota buys at base is unknown',
  },
  {
    id: 'openshift-batch gpu-flavor: renamed gpu-flavor → gpu-h100, queues still name gpu-flavor',
    target: 'kueue/openshift-batch',
    edits: [['gpu-flavor.yaml', 'name: gpu-flavor', 'name: gpu-h100']],
    expect: 'not-followed',
    why: 'the queues name a flavor the head no longer defines: Kueue admits nothing on it until a flavor of that name exists, and which one will is not in the repository',
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
    id: 'aks-kueue-sample h100-flavor: node label gpu-type nvidia-h100 → nvidia-a100, queues unchanged',
    target: 'kueue/aks-kueue-sample',
    edits: [['resource-flavors.yaml', 'gpu-type: nvidia-h100', 'gpu-type: nvidia-a100']],
    expect: 'not-followed',
    why: 'three queues in cluster-queues.yaml hold nvidia.com/gpu on h100-flavor; its label moves to other nodes, and `gpu-type` is a label of this cluster, not one that names the model: the GPUs their quota buys are not known',
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
];
