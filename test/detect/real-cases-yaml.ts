import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on one Kubernetes YAML file each: eksctl, Karpenter, Kueue, Cluster
 * API, KAI, ComputeClass, KAITO, and the floor's shapes no parser reads.
 */
export const YAML_CASES: readonly RealCase[] = [
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
    id: 'KubeRay autoscaled cluster: the CPU worker group maxReplicas 10 → 20 (negative control, beside a GPU group)',
    target: 'floor/kuberay-ray-cluster-label-selector.yaml',
    edits: [
      [
        'kuberay-ray-cluster-label-selector.yaml',
        '    maxReplicas: 10\n    groupName: large-cpu-group',
        '    maxReplicas: 20\n    groupName: large-cpu-group',
      ],
    ],
    expect: [],
    why: "a RayCluster asks for pods (its accelerator group's `resources: GPU`); the Ray autoscaler adds pods, not nodes",
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
];
