import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on GPU cluster blueprints that vendors and their samples publish:
 * NVIDIA NIM's GKE Terraform and EKS CDK app, and the EKS toolkit of aws-samples (eksctl
 * configs, node groups made by the AWS CLI from a launch template).
 */
export const VENDOR_BLUEPRINT_CASES: readonly RealCase[] = [
  // NVIDIA/nim-deploy GKE Terraform: 2-setup's terraform.auto.tfvars sets `gpu_pools` (g2-standard-4,
  // one nvidia-l4, max 3), fed through ../terraform/modules/gke-cluster into the
  // terraform-google-modules GKE module; the cluster's location is a placeholder.
  {
    id: 'nim-deploy gke: the gpu pool max_count 3 → 6',
    target: 'terraform-gke/nim-deploy-gke',
    edits: [
      [
        '2-setup/terraform.auto.tfvars',
        /(accelerator_count {2}= 1\n {4}autoscaling {8}= true\n {4}min_count {10}= 1\n {4}max_count {10}= )3/,
        '$16',
      ],
    ],
    expect: [['gke-node-pool', 'gpu-pool', 3, 6]],
    partial: true,
    why: 'g2-standard-4 with 1 L4: max 3 → 6 nodes per zone; the zones come from a placeholder location, so a lower bound with a warning',
  },
  {
    id: 'nim-deploy gke: the gpu pool g2-standard-4 × 1 L4 → g2-standard-24 × 2',
    target: 'terraform-gke/nim-deploy-gke',
    edits: [
      [
        '2-setup/terraform.auto.tfvars',
        'machine_type       = "g2-standard-4"\n    accelerator_type   = "nvidia-l4"\n    accelerator_count  = 1',
        'machine_type       = "g2-standard-24"\n    accelerator_type   = "nvidia-l4"\n    accelerator_count  = 2',
      ],
    ],
    expect: [['gke-node-pool', 'gpu-pool', 3, 6]],
    partial: true,
    why: 'max 3 nodes × 1 L4 → × 2 L4, per zone (zones unknown), with a warning',
  },
  {
    id: 'nim-deploy gke: the cpu pool max_count 3 → 5 (negative control)',
    target: 'terraform-gke/nim-deploy-gke',
    edits: [
      [
        '2-setup/terraform.auto.tfvars',
        /(machine_type = "e2-standard-2"\n {2}autoscaling {2}= false\n {2}min_count {4}= 1\n {2}max_count {4}= )3/,
        '$15',
      ],
    ],
    expect: [],
    why: 'e2-standard-2 has no GPU',
  },
  {
    id: 'nim-deploy gke: the cluster renamed (negative control)',
    target: 'terraform-gke/nim-deploy-gke',
    edits: [['2-setup/terraform.auto.tfvars', 'cluster_name      = "nim-demo-gke"', 'cluster_name      = "nim-prod-gke"']],
    expect: [],
    why: 'a name sizes nothing',
  },
  // NVIDIA/nim-deploy nim-eks-cdk: an AWS CDK app whose EksClusterStack adds a node group of
  // g5.12xlarge (4 A10G), minSize 1; bin/ instantiates the stacks.
  {
    id: 'nim-deploy eks cdk: the GPU node group minSize 1 → 4',
    target: 'cdk/nim-deploy-eks-cdk',
    edits: [['lib/eks-cluster-stack.ts', 'minSize: 1,', 'minSize: 4,']],
    expect: 'not-followed',
    why: 'CDK apps are not evaluated; the floor names g5.12xlarge in the changed file',
  },
  {
    id: 'nim-deploy eks cdk: the app makes a second EksClusterStack',
    target: 'cdk/nim-deploy-eks-cdk',
    edits: [
      [
        'bin/nim-eks-cdk.ts',
        'const efsStack',
        "new EksClusterStack(app, 'eks-cluster-stack-2', {\n    vpc: vpcStack.vpc\n});\nconst efsStack",
      ],
    ],
    expect: 'not-followed',
    why: "another copy of the stack's g5.12xlarge node group; bin/ names no GPU, the app's lib/ does (program-sources.ts)",
  },
  {
    id: "nim-deploy eks cdk: the EFS stack's id changed (negative control)",
    target: 'cdk/nim-deploy-eks-cdk',
    edits: [['bin/nim-eks-cdk.ts', "new EfsStack(app,'efs-stack'", "new EfsStack(app,'efs-stack-v2'"]],
    expect: [],
    why: 'a stack id sizes nothing',
  },
  {
    id: 'nim-deploy eks cdk: the GPU node group diskSize 100 → 200 (negative control)',
    target: 'cdk/nim-deploy-eks-cdk',
    edits: [['lib/eks-cluster-stack.ts', 'diskSize: 100', 'diskSize: 200']],
    expect: [],
    today: { outcome: 'not-followed', reason: 'CDK apps are not parsed: a change in a file that names a GPU is not followed (the floor)' },
    why: 'a disk size sizes no GPU',
  },
  // aws-samples/aws-do-eks: nodegroup.conf sets a p5.48xlarge (8 H100) launch template and the
  // sizes (max 10) that eks-nodegroup-create.sh passes to `aws eks create-nodegroup --launch-template`.
  {
    id: 'aws-do-eks nodegroup.conf: MAX_SIZE 10 → 20',
    target: 'cli-scripts/aws-do-eks-nodegroup',
    edits: [['nodegroup.conf', 'export MAX_SIZE=10', 'export MAX_SIZE=20']],
    expect: 'not-followed',
    why: 'p5.48xlarge has 8 H100: 80 → 160, made by a CLI command (not counted)',
  },
  {
    id: 'aws-do-eks nodegroup: the create script sets maxSize 20 itself',
    target: 'cli-scripts/aws-do-eks-nodegroup',
    edits: [['eks-nodegroup-create.sh', 'maxSize=${MAX_SIZE}', 'maxSize=20']],
    expect: 'not-followed',
    why: "the group's machines are its launch template's (p5.48xlarge), not the CLI's default",
  },
  {
    id: 'aws-do-eks nodegroup.conf: the placement group renamed (negative control)',
    target: 'cli-scripts/aws-do-eks-nodegroup',
    edits: [['nodegroup.conf', 'PLACEMENT_GROUP_NAME=p5-pg', 'PLACEMENT_GROUP_NAME=p5-pg-2']],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason: 'the conf names p5.48xlarge for a launch template written by envsubst into a JSON template, which no reader follows',
    },
    why: 'a placement group sizes nothing',
  },
  // aws-do-eks eksctl: eks-gpu-p5-cbr.yaml (a p5.48xlarge group on a capacity block, max 8) and
  // eks.conf (the env-driven eksctl runs: GPU groups g4dn.12xlarge and p3dn.24xlarge, sizes (0 0)).
  {
    id: 'aws-do-eks eksctl p5-cbr: maxSize 8 → 16',
    target: 'eksctl/aws-do-eks',
    edits: [['eks-gpu-p5-cbr.yaml', 'maxSize: 8', 'maxSize: 16']],
    expect: [['eksctl-nodegroup', 'p5-cbr', 64, 128]],
    why: 'p5.48xlarge has 8 H100: 8 → 16 nodes',
  },
  {
    id: 'aws-do-eks eksctl p5-cbr: the system group desiredCapacity 1 → 2 (negative control)',
    target: 'eksctl/aws-do-eks',
    edits: [
      ['eks-gpu-p5-cbr.yaml', 'instanceType: c5.2xlarge\n    desiredCapacity: 1', 'instanceType: c5.2xlarge\n    desiredCapacity: 2'],
    ],
    expect: [],
    why: 'c5.2xlarge has no GPU',
  },
  {
    id: 'aws-do-eks eks.conf: the GPU group sizes (0 0) → (2 0)',
    target: 'eksctl/aws-do-eks',
    edits: [['eks.conf', 'export GPU_NODEGROUP_SIZES=(0 0)', 'export GPU_NODEGROUP_SIZES=(2 0)']],
    expect: 'not-followed',
    why: 'two g4dn.12xlarge (4 T4 each) made by scripts that read the arrays; not counted',
  },
  {
    id: 'aws-do-eks eks.conf: the CPU group sizes (2 0) → (3 0) (negative control)',
    target: 'eksctl/aws-do-eks',
    edits: [['eks.conf', 'export CPU_NODEGROUP_SIZES=(2 0)', 'export CPU_NODEGROUP_SIZES=(3 0)']],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason: 'the file names GPU instance types in arrays that scripts elsewhere read; no reader follows them',
    },
    why: 'c5.2xlarge has no GPU',
  },
];
