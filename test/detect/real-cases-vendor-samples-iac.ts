import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on infrastructure code of cloud vendors' modules and ML platforms'
 * deploy tools: Azure's verified AKS module (pools handed to a local module's `for_each`),
 * Google's ML benchmark clusters (GKE pools with `total_max_node_count`), determined's EKS example
 * (Karpenter pools in `kubectl_manifest` heredocs, a registry EKS module) and its GKE deploy tool
 * (a Python program running `gcloud container node-pools create`), and DuploCloud's GKE node pool
 * resource.
 */
export const VENDOR_SAMPLE_IAC_CASES: readonly RealCase[] = [
  // Azure/terraform-azurerm-avm-res-containerservice-managedcluster: examples/default calls the
  // module at ../.., whose `module "nodepools" { for_each = var.agent_pools }` hands each pool to
  // modules/agentpool, an azapi_resource agent pool no reader counts.
  {
    id: 'avm aks module: the default example gains a Standard_NC6s_v3 agent pool of 2 nodes',
    target: 'terraform-aks/avm-managedcluster',
    edits: [
      [
        'examples/default/main.tf',
        '  dns_prefix = "defaultexample"\n',
        '  agent_pools = {\n    gpu = {\n      name     = "gpu"\n      vm_size  = "Standard_NC6s_v3"\n      count_of = 2\n    }\n  }\n  dns_prefix = "defaultexample"\n',
      ],
    ],
    expect: 'not-followed',
    why: 'the pool reaches an azapi_resource body through for_each and each.value: not read, so the V100 pool is named, never no change',
  },
  {
    id: 'avm aks module: the default pool Standard_B2s_v2 → Standard_NC24ads_A100_v4',
    target: 'terraform-aks/avm-managedcluster',
    edits: [['examples/default/main.tf', 'vm_size  = "Standard_B2s_v2"', 'vm_size  = "Standard_NC24ads_A100_v4"']],
    expect: 'not-followed',
    why: 'the default pool is an azapi_resource body no reader counts: one A100 per node, not read',
  },
  {
    id: 'avm aks module: the default pool count_of 1 → 3 (negative control)',
    target: 'terraform-aks/avm-managedcluster',
    edits: [['examples/default/main.tf', 'count_of = 1', 'count_of = 3']],
    expect: [],
    why: 'Standard_B2s_v2 has no GPU',
  },
  // GoogleCloudPlatform/ml-auto-solutions deployment/clusters.tf: two clusters named gpu-uc1 and
  // benchmarking-gpu-uc1 (default pools removed), V100, H100, A100 and L4 node pools.
  {
    id: 'ml-auto-solutions: the V100 pool max_node_count 6 → 10 (one zone)',
    target: 'terraform-gke/ml-auto-solutions-clusters.tf',
    edits: [['ml-auto-solutions-clusters.tf', 'max_node_count = 6', 'max_node_count = 10']],
    expect: [['gke-node-pool', 'nvidia-v100x2-pool', 12, 20]],
    why: '2 V100 per node × max 6 → 10 nodes in the one zone of node_locations',
  },
  {
    id: 'ml-auto-solutions: the H100 pool total_max_node_count 4 → 8',
    target: 'terraform-gke/ml-auto-solutions-clusters.tf',
    edits: [['ml-auto-solutions-clusters.tf', /(total_min_node_count = 2\n {4}total_max_node_count = )4/, '$18']],
    expect: [['gke-node-pool', 'nvidia-h100x8-pool', 32, 64]],
    why: 'a3-highgpu-8g with 8 H100: a total maximum of 4 → 8 nodes',
  },
  {
    id: 'ml-auto-solutions: the L4 pool g2-standard-16 × 1 → g2-standard-24 × 2',
    target: 'terraform-gke/ml-auto-solutions-clusters.tf',
    edits: [
      ['ml-auto-solutions-clusters.tf', /machine_type = "g2-standard-16"([\s\S]*?)count = 1/, 'machine_type = "g2-standard-24"$1count = 2'],
    ],
    expect: [['gke-node-pool', 'nvidia-l4x1-pool', 8, 16]],
    why: 'a total maximum of 8 nodes × 1 → 2 L4',
  },
  {
    id: 'ml-auto-solutions: the e2-medium primary pool node_count 1 → 3 (negative control)',
    target: 'terraform-gke/ml-auto-solutions-clusters.tf',
    edits: [['ml-auto-solutions-clusters.tf', /(name {7}= "primary-pool"[\s\S]*?)node_count = 1/, '$1node_count = 3']],
    expect: [],
    why: 'e2-medium has no GPU',
  },
  // determined-ai/determined examples/deploy/eks: the terraform-aws-modules EKS module with one
  // managed node group, and Karpenter NodePools in kubectl_manifest heredocs.
  {
    id: 'determined eks: the Karpenter gpus pool limit nvidia.com/gpu 4 → 16',
    target: 'terraform-eks/determined-eks',
    edits: [['determined-eks/main.tf', '"nvidia.com/gpu": 4', '"nvidia.com/gpu": 16']],
    expect: [['karpenter-nodepool', 'gpus', 4, 16]],
    why: 'the pool limit caps its GPUs: 4 → 16',
  },
  {
    id: 'determined eks: the managed node group m5.2xlarge → g5.2xlarge',
    target: 'terraform-eks/determined-eks',
    edits: [['determined-eks/main.tf', 'instance_types = ["m5.2xlarge"]', 'instance_types = ["g5.2xlarge"]']],
    expect: [['eks-node-group', 'karpenter', 0, 3]],
    why: 'max_size 3 × 1 A10G',
  },
  {
    id: 'determined eks: the default Karpenter pool cpu limit 1000 → 2000 (negative control)',
    target: 'terraform-eks/determined-eks',
    edits: [['determined-eks/main.tf', /cpu: 1000\n( {6}disruption)/, 'cpu: 2000\n$1']],
    expect: [],
    why: 'instance categories c, m and r: no GPU',
  },
  {
    id: 'determined eks: the managed node group max_size 3 → 6 (negative control)',
    target: 'terraform-eks/determined-eks',
    edits: [['determined-eks/main.tf', 'max_size     = 3', 'max_size     = 6']],
    expect: [],
    why: 'm5.2xlarge has no GPU',
  },
  // determined-ai/determined harness/determined/deploy/gke: `det deploy gke` runs
  // `gcloud container node-pools create` with `--accelerator type=…,count=…` and `--max-nodes`
  // from its arguments, whose defaults constants.py sets (4 T4 per node, at most 4 nodes).
  {
    id: 'determined gke deploy: MAX_GPU_NODES 4 → 16',
    target: 'cli-scripts/determined-deploy-gke',
    edits: [['determined-deploy-gke/constants.py', 'MAX_GPU_NODES = 4', 'MAX_GPU_NODES = 16']],
    expect: 'not-followed',
    why: 'the program is not evaluated; the file names nvidia-tesla-t4',
  },
  {
    id: 'determined gke deploy: the GPU pool --max-nodes becomes 4 × --max-gpu-nodes',
    target: 'cli-scripts/determined-deploy-gke',
    edits: [
      ['determined-deploy-gke/cli.py', '"--max-nodes={}".format(args.max_gpu_nodes)', '"--max-nodes={}".format(args.max_gpu_nodes * 4)'],
    ],
    expect: 'not-followed',
    why: 'a program running gcloud container node-pools create: its GPU settings (accelerator_type, gpu_spec) are capacity keys',
  },
  {
    id: 'determined gke deploy: --max-gpu-nodes defaults to 16',
    target: 'cli-scripts/determined-deploy-gke',
    edits: [['determined-deploy-gke/cli.py', 'default=constants.defaults.MAX_GPU_NODES,', 'default=16,']],
    expect: 'not-followed',
    why: 'as above: 4 T4 × 16 nodes where 4 were',
  },
  {
    id: 'determined gke deploy: the accelerator count is 8 whatever --gpus-per-node says',
    target: 'cli-scripts/determined-deploy-gke',
    edits: [
      [
        'determined-deploy-gke/cli.py',
        '"type={},count={}".format(args.gpu_type, args.gpus_per_node)',
        '"type={},count={}".format(args.gpu_type, 8)',
      ],
    ],
    expect: 'not-followed',
    why: 'as above: 8 GPUs per node where 4 were',
  },
  // duplocloud/terraform-provider-duplocloud's example of duplocloud_gcp_node_pool: one pool of
  // n2-highcpu-32 with 2 P100, one e2-standard-4 pool of up to 5 nodes.
  {
    id: 'duplocloud gcp node pool: accelerator_count 2 → 4',
    target: 'terraform-neoclouds/duplocloud-gcp-node-pool.tf',
    edits: [['duplocloud-gcp-node-pool.tf', 'accelerator_count  = "2"', 'accelerator_count  = "4"']],
    expect: 'not-followed',
    why: 'no reader counts DuploCloud node pools; the floor names the accelerator block',
  },
  {
    id: 'duplocloud gcp node pool: the core pool e2-standard-4 → a2-highgpu-2g',
    target: 'terraform-neoclouds/duplocloud-gcp-node-pool.tf',
    edits: [['duplocloud-gcp-node-pool.tf', 'machine_type           = "e2-standard-4"', 'machine_type           = "a2-highgpu-2g"']],
    expect: 'not-followed',
    why: 'as above: 2 A100 per node, up to 5 nodes',
  },
  {
    id: 'duplocloud gcp node pool: the core pool max_node_count 5 → 9 (negative control)',
    target: 'terraform-neoclouds/duplocloud-gcp-node-pool.tf',
    edits: [['duplocloud-gcp-node-pool.tf', 'max_node_count         = 5', 'max_node_count         = 9']],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason: 'no reader counts duplocloud_gcp_node_pool, so the P100 pool beside it keeps the file not followed',
    },
    why: 'e2-standard-4 has no GPU',
  },
];
