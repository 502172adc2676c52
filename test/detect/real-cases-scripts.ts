import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on node pools made by cloud CLIs in scripts, and on Bicep templates
 * deployed with ARM JSON parameter files.
 */
export const SCRIPT_CASES: readonly RealCase[] = [
  // Hassamulhaq-devops/az-aks-unreal-pixel-streaming: `az aks nodepool add` in a script that sources
  // env.rc, where GPU_NP_SKU=Standard_NC12 (2 K80) and TURN_NP_SKU=Standard_F8s_v2 are set.
  {
    id: 'aks-unreal-pixel-streaming create-nodepools.sh: gpunp --node-count 1 → 3',
    target: 'cli-scripts/aks-unreal-pixel-streaming',
    edits: [['create-nodepools.sh', '--node-count 1', '--node-count 3']],
    expect: 'not-followed',
    why: 'gpunp is Standard_NC12 (2 K80) by env.rc: 2 → 6 GPUs; a CLI command is not counted (what it sizes depends on what exists when it runs)',
  },
  {
    id: 'aks-unreal-pixel-streaming create-nodepools.sh: gpunp made to autoscale to 4 nodes',
    target: 'cli-scripts/aks-unreal-pixel-streaming',
    edits: [
      [
        'create-nodepools.sh',
        '--name gpunp \\\n    --node-count 1 \\',
        '--name gpunp \\\n    --node-count 1 \\\n    --enable-cluster-autoscaler --min-count 1 --max-count 4 \\',
      ],
    ],
    expect: 'not-followed',
    why: 'up to 4 × Standard_NC12 (2 K80): 2 → 8 GPUs',
  },
  {
    id: 'aks-unreal-pixel-streaming env.rc: GPU_NP_SKU Standard_NC12 → Standard_NC24',
    target: 'cli-scripts/aks-unreal-pixel-streaming',
    edits: [['env.rc', 'GPU_NP_SKU="Standard_NC12"', 'GPU_NP_SKU="Standard_NC24"']],
    expect: 'not-followed',
    why: 'the sourced variable sizes gpunp: 1 × 2 K80 → 1 × 4 K80',
  },
  {
    id: 'aks-unreal-pixel-streaming create-nodepools.sh: turnp --node-count 1 → 2 (negative control)',
    target: 'cli-scripts/aks-unreal-pixel-streaming',
    edits: [['create-nodepools.sh', /(--name turnp \\\n {4}--node-count )1/, '$12']],
    expect: [],
    why: 'turnp is Standard_F8s_v2 by env.rc: no GPU',
  },
  {
    id: 'aks-unreal-pixel-streaming env.rc: ACR_NAME renamed (negative control)',
    target: 'cli-scripts/aks-unreal-pixel-streaming',
    edits: [['env.rc', 'ACR_NAME="gbbpixel"', 'ACR_NAME="gbbpixel2"']],
    expect: [],
    why: 'the registry name sizes no pool; the GPU size beside it stands as it was',
  },
  {
    id: 'aks-unreal-pixel-streaming deploy-Infra.sh: az aks create --node-count 1 → 3 (negative control)',
    target: 'cli-scripts/aks-unreal-pixel-streaming',
    edits: [['deploy-Infra.sh', '--node-count 1', '--node-count 3']],
    expect: [],
    why: 'no --node-vm-size: the CLI default size, which has no GPU',
  },
  // bwplotka/gke-ai-observability: the demo's cluster and its L4 node pool, made with gcloud.
  {
    id: 'gke-ai-observability 2.sh: gpupool --num-nodes 1 → 2',
    target: 'cli-scripts/gke-ai-observability',
    edits: [['2.sh', '--num-nodes=1', '--num-nodes=2']],
    expect: 'not-followed',
    why: 'g2-standard-8 with one nvidia-l4 in one zone: 1 → 2 GPUs',
  },
  {
    id: 'gke-ai-observability 2.sh: gpupool g2-standard-8 → g2-standard-24 with 2 L4',
    target: 'cli-scripts/gke-ai-observability',
    edits: [
      ['2.sh', 'type=nvidia-l4,count=1', 'type=nvidia-l4,count=2'],
      ['2.sh', '--machine-type=g2-standard-8', '--machine-type=g2-standard-24'],
    ],
    expect: 'not-followed',
    why: '1 node × 1 L4 → 1 node × 2 L4',
  },
  {
    id: 'gke-ai-observability 1.sh: cluster --num-nodes 1 → 2 (negative control)',
    target: 'cli-scripts/gke-ai-observability',
    edits: [['1.sh', '--num-nodes=1', '--num-nodes=2']],
    expect: [],
    why: 'no --machine-type or --accelerator: the default pool of e2-medium, no GPU',
  },
  {
    id: 'gke-ai-observability 2.sh: comment reworded (negative control)',
    target: 'cli-scripts/gke-ai-observability',
    edits: [['2.sh', '# Create a pool with one node with NVIDIA L4 GPU.', '# One node with an NVIDIA L4 GPU.']],
    expect: [],
    why: 'the command stands as it was',
  },
  // snobu/StableAzure: an AKS cluster with a V100 pool in Bicep (cluster.bicep, parameter defaults) and
  // the same template under AzureUI/ with Main.parameters.json, whose counts are written as strings.
  {
    id: 'StableAzure Main.parameters.json: nodeCountGPU "1" → "3"',
    target: 'bicep/stable-azure',
    edits: [['Main.parameters.json', /("nodeCountGPU": \{\s*"value": )"1"/, '$1"3"']],
    expect: 'not-followed',
    why: 'ARM takes no string for an int parameter, so the count is unknown at both sides (1 → 3 × 1 V100 if it were read as a number)',
  },
  {
    id: 'StableAzure Main.parameters.json: counts written as numbers, nodeCountGPU 2',
    target: 'bicep/stable-azure',
    edits: [
      ['Main.parameters.json', /("nodeCount": \{\s*"value": )"1"/, '$11'],
      ['Main.parameters.json', /("nodeCountGPU": \{\s*"value": )"1"/, '$12'],
    ],
    expect: 'not-followed',
    why: 'gpupool: 2 × Standard_NC6s_v3 (1 V100) = 2 now; before, a string count ARM refuses: unknown, so the increase is not told',
  },
  {
    id: 'StableAzure Main.parameters.json: nodeSizeGPU Standard_NC6s_v3 → Standard_NC24s_v3',
    target: 'bicep/stable-azure',
    edits: [['Main.parameters.json', '"value": "Standard_NC6s_v3"', '"value": "Standard_NC24s_v3"']],
    expect: 'not-followed',
    why: '1 node × 1 V100 → × 4 V100, with the count a string',
  },
  {
    id: 'StableAzure Main.bicep: nodeCountGPU default 1 → 4, the parameter file sets it',
    target: 'bicep/stable-azure',
    edits: [['Main.bicep', 'param nodeCountGPU int = 1', 'param nodeCountGPU int = 4']],
    expect: 'not-followed',
    why: 'Main.parameters.json gives nodeCountGPU, so the default is not what is deployed; what it gives is a string',
  },
  {
    id: 'StableAzure cluster.bicep: nodeCountGPU 1 → 2',
    target: 'bicep/stable-azure',
    edits: [['cluster.bicep', 'param nodeCountGPU int = 1', 'param nodeCountGPU int = 2']],
    expect: [['aks-node-pool', 'gpupool', 1, 2]],
    why: 'Standard_NC6s_v3 has 1 V100: 1 → 2',
  },
  {
    id: 'StableAzure cluster.bicep: system nodeCount 2 → 3 (negative control)',
    target: 'bicep/stable-azure',
    edits: [['cluster.bicep', 'param nodeCount int = 2', 'param nodeCount int = 3']],
    expect: [],
    why: 'the system pool is Standard_E2bs_v5, no GPU',
  },
  {
    id: 'StableAzure registry.parameters.json: registryName changed (negative control)',
    target: 'bicep/stable-azure',
    edits: [['registry.parameters.json', /"value": "[^"]*"/, '"value": "otherregistry"']],
    expect: [],
    why: 'registry.bicep makes a container registry only',
  },
  {
    id: 'StableAzure Main.parameters.json: clusterName changed (negative control)',
    target: 'bicep/stable-azure',
    edits: [['Main.parameters.json', '"value": "stable-azure-k8s"', '"value": "stable-azure-aks"']],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason: "gpupool's count is a string ARM refuses, so the pool is count unknown, and any value the file changes is not followed",
    },
    why: 'the name sizes nothing',
  },
  // thom/aws-devops-jenkins: AWS's self-managed node group template (an Auto Scaling group and its
  // launch template), deployed by 03-create-eks-node-group-stack.sh with eks-node-group-parameters.json.
  {
    id: 'aws-devops-jenkins eks-node-group-parameters.json: NodeInstanceType t2.micro → g4dn.12xlarge',
    target: 'cloudformation/aws-devops-jenkins',
    edits: [['eks-node-group-parameters.json', '"t2.micro"', '"g4dn.12xlarge"']],
    expect: [['eks-node-group', 'NodeGroup', 0, 16]],
    why: 'the parameter file sets the launch template type; MaxSize is its Default, 4: 4 × 4 T4',
  },
  {
    id: 'aws-devops-jenkins eks-node-group-parameters.json: NodeAutoScalingGroupMaxSize set to 8 with g4dn.xlarge',
    target: 'cloudformation/aws-devops-jenkins',
    edits: [
      ['eks-node-group-parameters.json', '"t2.micro"', '"g4dn.xlarge"'],
      [
        'eks-node-group-parameters.json',
        '"ParameterKey": "StackName",',
        '"ParameterKey": "NodeAutoScalingGroupMaxSize",\n    "ParameterValue": "8"\n  },\n  {\n    "ParameterKey": "StackName",',
      ],
    ],
    expect: [['eks-node-group', 'NodeGroup', 0, 8]],
    why: '8 × g4dn.xlarge (1 T4), from t2.micro',
  },
  {
    id: 'aws-devops-jenkins eks-node-group.yml: NodeInstanceType Default t2.micro → g4dn.12xlarge, the parameter file sets it (negative control)',
    target: 'cloudformation/aws-devops-jenkins',
    edits: [['eks-node-group.yml', 'Default: t2.micro', 'Default: g4dn.12xlarge']],
    expect: [],
    why: 'create-stack passes eks-node-group-parameters.json, whose t2.micro is what is deployed',
  },
  {
    id: 'aws-devops-jenkins eks-node-group-parameters.json: NodeGroupName changed (negative control)',
    target: 'cloudformation/aws-devops-jenkins',
    edits: [['eks-node-group-parameters.json', '"cicd-capstone-workers"', '"cicd-workers"']],
    expect: [],
    why: 'a name sizes nothing; the type is t2.micro',
  },
  {
    id: 'aws-devops-jenkins eks-node-group.yml: MaxSize Default 4 → 8 with t2.micro (negative control)',
    target: 'cloudformation/aws-devops-jenkins',
    edits: [['eks-node-group.yml', /(NodeAutoScalingGroupMaxSize:\n {4}Type: Number\n {4}Default: )4/, '$18']],
    expect: [],
    why: 't2.micro has no GPU',
  },
];
