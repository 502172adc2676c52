import type { RealCase } from './real-case.js';

const AICP = 'terraform-gke/ai-infra-cluster-provisioning';
/** The repository calls its own modules by their GitHub URL; a review knows its name from the remote. */
const AICP_REPOSITORY = ['github.com/googlecloudplatform/ai-infra-cluster-provisioning'];
const MIG_TFVARS = 'a3/examples/mig-cos/terraform.tfvars';
const GKE_TFVARS = 'a3/examples/gke/terraform.tfvars';

/**
 * Real cases (real-cases.ts) on GoogleCloudPlatform/ai-infra-cluster-provisioning: A3 (H100)
 * clusters as Compute Engine managed instance groups (an instance template's machine type, a
 * group's target size) and as GKE node pools, each example calling the repository's module by its
 * own URL with the groups or pools in terraform.tfvars.
 */
export const INSTANCE_GROUP_CASES: readonly RealCase[] = [
  {
    id: 'ai-infra-cluster-provisioning a3 mig-cos: the first group target_size 4 → 8',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [[MIG_TFVARS, 'target_size = 4', 'target_size = 8']],
    expect: 'not-followed',
    why: 'a3-highgpu-8g (the default machine_type of instance_groups) has 8 H100: 32 → 64 GPUs, in managed instance groups, which no reader counts',
  },
  {
    id: 'ai-infra-cluster-provisioning a3 mig-cos: a third group of 4',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [[MIG_TFVARS, /\n\]\n$/, '\n  {\n    target_size = 4\n    zone        = "us-east4-b"\n  },\n]\n']],
    expect: 'not-followed',
    why: '4 more a3-highgpu-8g nodes, 32 more H100, in a managed instance group no reader counts',
  },
  {
    id: 'ai-infra-cluster-provisioning a3 mig-cos: the default machine type a3-highgpu-8g → a3-megagpu-8g',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [
      ['a3/terraform/modules/cluster/mig-cos/variables.tf', 'optional(string, "a3-highgpu-8g")', 'optional(string, "a3-megagpu-8g")'],
    ],
    expect: 'not-followed',
    why: 'still 8 GPUs a node (H100 Mega), in groups no reader counts',
  },
  {
    id: 'ai-infra-cluster-provisioning a3 gke: the first pool node_count 4 → 8',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [[GKE_TFVARS, 'node_count = 4', 'node_count = 8']],
    expect: [['gke-node-pool', 'np-0', 32, 64]],
    why: 'the pools default to a3-highgpu-8g with 8 nvidia-h100-80gb: 4 × 8 → 8 × 8 in one zone (node_locations)',
  },
  {
    id: 'ai-infra-cluster-provisioning a3 gke: a third pool of 2',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [[GKE_TFVARS, /\n\]\n/, '\n  {\n    node_count = 2\n    zone       = "us-east4-b"\n  },\n]\n']],
    expect: [['gke-node-pool', 'np-2', 0, 16]],
    why: '2 a3-highgpu-8g nodes × 8 H100',
  },
  {
    id: 'ai-infra-cluster-provisioning a3 gke: resource_prefix renamed (negative control)',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [[GKE_TFVARS, '"my-cluster-name"', '"other-cluster"']],
    expect: [],
    why: 'names only; the networks it names (`gpus`) make no machines',
  },
  {
    id: 'ai-infra-cluster-provisioning a3 gke: disk_size_gb default 200 → 500 (negative control)',
    target: AICP,
    root: true,
    repositories: AICP_REPOSITORY,
    edits: [['a3/terraform/modules/cluster/gke/variables.tf', /(type {8}= number\n {2}default {5}= )200/, '$1500']],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason:
        'the changed module is read as a root of its own, where node_pools has no value (count unknown); its caller, a3/examples/gke, is four folders up and two down, past the caller search (module-callers.ts MAX_UP 3)',
    },
    why: 'the nodes’ boot disks grow; the GPU pools keep their nodes and GPUs',
  },
];
