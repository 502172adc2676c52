import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on node pools made by cloud CLIs in scripts, and on Bicep templates
 * deployed with ARM JSON parameter files.
 */
export const HUNT11_CASES: readonly RealCase[] = [
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
];
