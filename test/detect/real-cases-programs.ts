import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on infrastructure programs and modules of other authors: a Pulumi
 * program and its stack configuration, an AWS CDK app and its context, and the OCI OKE module's
 * worker pools fed by its example variable files.
 */
export const PROGRAM_CASES: readonly RealCase[] = [
  // pulumi/examples aws-ts-eks-gpu-dra: an EKS cluster with a system group (m6i.large) and a GPU group
  // (p4d.24xlarge, 8 A100), written as Pulumi TypeScript; the project reads `clusterName` from its config.
  {
    id: 'pulumi examples gpu-dra: the GPU group maxSize 2 → 4',
    target: 'pulumi/examples-eks-gpu-dra',
    edits: [['index.ts', /(desiredSize: 1,\n {8}minSize: 0,\n {8}maxSize: )2/, '$14']],
    expect: [['eks-node-group', 'gpu-nodes', 16, 32]],
    today: { outcome: 'not-followed', reason: 'Pulumi programs are not parsed; the floor names p4d.24xlarge' },
    why: 'p4d.24xlarge has 8 A100; maxSize 2 × 8 → 4 × 8',
  },
  {
    id: 'pulumi examples gpu-dra: the system group m6i.large → g5.xlarge',
    target: 'pulumi/examples-eks-gpu-dra',
    edits: [['index.ts', 'instanceTypes: ["m6i.large"]', 'instanceTypes: ["g5.xlarge"]']],
    expect: [['eks-node-group', 'system-nodes', 0, 4]],
    today: { outcome: 'not-followed', reason: 'Pulumi programs are not parsed; the floor names g5.xlarge' },
    why: 'g5.xlarge has 1 A10G; maxSize 4',
  },
  {
    id: "pulumi examples gpu-dra: the project's config names the cluster (negative control)",
    target: 'pulumi/examples-eks-gpu-dra',
    edits: [['Pulumi.yaml', 'config:\n', 'config:\n  clusterName: dra-dev\n']],
    expect: [],
    why: 'the program reads clusterName (config.get) into names and tags only; no size or machine type changes',
  },
  {
    id: "pulumi examples gpu-dra: the project's config sets the AWS region (negative control)",
    target: 'pulumi/examples-eks-gpu-dra',
    edits: [['Pulumi.yaml', 'config:\n', 'config:\n  aws:region: us-west-2\n']],
    expect: [],
    why: "a provider's setting the program never reads: no size or machine type changes",
  },
  {
    id: 'pulumi examples gpu-dra: the CoreDNS add-on version bumped (negative control)',
    target: 'pulumi/examples-eks-gpu-dra',
    edits: [['index.ts', 'v1.13.1-eksbuild.1', 'v1.13.2-eksbuild.1']],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason: 'Pulumi programs are not parsed: a change anywhere in a program that names GPUs is not followed (the floor)',
    },
    why: 'an add-on version sizes nothing',
  },
  // aws-samples/cdk-eks-blueprints-patterns: the GPU pattern builds its cluster with the EKS Blueprints
  // GpuBuilder (G5 instances, the node group's sizes the library's defaults); cdk.json holds the context.
  {
    id: 'cdk-eks-blueprints-patterns gpu: G5 XLARGE12 → XLARGE48',
    target: 'cdk/eks-blueprints-patterns-gpu',
    edits: [['gpu-construct/index.ts', 'ec2.InstanceSize.XLARGE12', 'ec2.InstanceSize.XLARGE48']],
    expect: 'not-followed',
    why: 'g5.12xlarge has 4 A10G, g5.48xlarge 8; the node count is the GpuBuilder default, in a package not in the repository',
  },
  {
    id: 'cdk-eks-blueprints-patterns gpu: the device plugin version bumped (negative control)',
    target: 'cdk/eks-blueprints-patterns-gpu',
    edits: [['gpu-construct/index.ts', "version: 'v0.13.0'", "version: 'v0.14.0'"]],
    expect: [],
    today: {
      outcome: 'not-followed',
      reason: 'CDK apps are not parsed: a change anywhere in an app that names GPUs is not followed (the floor)',
    },
    why: 'the device plugin version sizes nothing',
  },
  {
    id: 'cdk-eks-blueprints-patterns gpu: a Conformitron context value changed (negative control)',
    target: 'cdk/eks-blueprints-patterns-gpu',
    edits: [['cdk.json', '"conformitron.version": ["1.28","1.29","1.30"]', '"conformitron.version": ["1.29","1.30","1.31"]']],
    expect: [],
    why: 'the GPU app (bin/gpu.ts, lib/gpu-construct) never reads that context key',
  },
  // oracle-terraform-modules/terraform-oci-oke: the root module reads `worker_pools` (modules/workers
  // makes oci_containerengine_node_pool from it); the example variable files set it.
  {
    id: 'terraform-oci-oke workers: the OL8 pool given the BM.GPU.A10.4 shape',
    target: 'terraform-oci/oke',
    root: true,
    edits: [['vars-workers-nodepool.auto.tfvars', /(os_version {2}= "8",\n)/, '$1    shape       = "BM.GPU.A10.4",\n']],
    expect: [['oci-node-pool', 'oke-vm-standard-ol8', 0, 4]],
    today: {
      outcome: 'not-followed',
      reason: 'worker_pools also feeds the IAM, extensions and utilities modules, where the GPU shape in it is not accounted for',
    },
    why: 'BM.GPU.A10.4 has 4 A10; size 1',
  },
  {
    id: 'terraform-oci-oke workers: the OL8 pool size 1 → 3 on the default CPU shape (negative control)',
    target: 'terraform-oci/oke',
    root: true,
    edits: [
      ['vars-workers-nodepool.auto.tfvars', /size {8}= 1,(\n {4}os {10}= "Oracle Linux",\n {4}os_version {2}= "8")/, 'size        = 3,$1'],
    ],
    expect: [],
    why: 'the default shape is VM.Standard.E4.Flex, no GPU',
  },
  {
    id: 'terraform-oci-oke workers: the disabled large pool given a GPU shape and enabled',
    target: 'terraform-oci/oke',
    root: true,
    edits: [
      [
        'vars-workers-nodepool.auto.tfvars',
        '"VM.Standard.E4.Flex",\n    ocpus            = 8',
        '"VM.GPU.A10.2",\n    ocpus            = 8',
      ],
      ['vars-workers-nodepool.auto.tfvars', /(boot_volume_size = 200,\n {4}create {11}= )false/, '$1true'],
    ],
    expect: [['oci-node-pool', 'oke-vm-standard-large', 0, 2]],
    today: {
      outcome: 'not-followed',
      reason: 'worker_pools also feeds the IAM, extensions and utilities modules, where the GPU shape in it is not accounted for',
    },
    why: 'VM.GPU.A10.2 has 2 A10; size 1, create false → true',
  },
  {
    id: 'terraform-oci-oke workers: the autoscaled pool max_size 3 → 6 on CPU (negative control)',
    target: 'terraform-oci/oke',
    root: true,
    edits: [['vars-workers-autoscaling.auto.tfvars', 'max_size                 = 3', 'max_size                 = 6']],
    expect: [],
    why: 'the default shape is VM.Standard.E4.Flex, no GPU',
  },
];
