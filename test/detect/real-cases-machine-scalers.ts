import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on OpenShift GitOps repositories: ClusterAutoscaler GPU limits (as
 * written and through kustomize patches), MachineAutoscalers and KEDA ScaledObjects that scale a
 * MachineSet defined somewhere the review cannot see.
 */
export const MACHINE_SCALER_CASES: readonly RealCase[] = [
  // redhat-na-ssa/demo-ocp-autoscale-gpu: a Job clones the worker MachineSet into gpu-l4 (g6.xlarge) and
  // gpu-a10 (g5.xlarge); MachineAutoscalers and a ClusterAutoscaler with per-type GPU limits bound them.
  {
    id: 'demo-ocp-autoscale-gpu: ClusterAutoscaler nvidia-a10 max 4 → 8',
    target: 'openshift/demo-ocp-autoscale-gpu',
    edits: [
      ['cluster-autoscaler.yaml', 'type: nvidia-a10\n        min: 0\n        max: 4', 'type: nvidia-a10\n        min: 0\n        max: 8'],
    ],
    expect: [['openshift-cluster-autoscaler', 'nvidia-a10', 4, 8]],
    why: 'the cluster-wide limit on GPUs of the nvidia-a10 accelerator label',
  },
  {
    id: 'demo-ocp-autoscale-gpu: ClusterAutoscaler cores max 176 → 240 (negative control)',
    target: 'openshift/demo-ocp-autoscale-gpu',
    edits: [['cluster-autoscaler.yaml', 'max: 176', 'max: 240']],
    expect: [],
    why: 'CPU cores only; the GPU limits are unchanged',
  },
  {
    id: 'demo-ocp-autoscale-gpu: MachineAutoscaler gpu-a10 maxReplicas 4 → 8',
    target: 'openshift/demo-ocp-autoscale-gpu',
    edits: [['a10-autoscaler.yaml', 'maxReplicas: 4', 'maxReplicas: 8']],
    expect: 'not-followed',
    why: 'the MachineSet gpu-a10 is made by a Job (g5.xlarge, 1 A10G) and is in no manifest: up to 8 machines of a type the repository does not declare',
  },
  {
    id: 'demo-ocp-autoscale-gpu: KEDA ScaledObject on MachineSet gpu-keda maxReplicaCount 3 → 6',
    target: 'openshift/demo-ocp-autoscale-gpu',
    edits: [['gpu-ms-scaled.yaml', 'maxReplicaCount: 3', 'maxReplicaCount: 6']],
    expect: 'not-followed',
    why: 'KEDA scales the MachineSet gpu-keda up to maxReplicaCount machines; the MachineSet is not in the repository, so its GPUs per machine are unknown',
  },
  {
    id: 'demo-ocp-autoscale-gpu: KEDA ScaledObject cooldownPeriod 300 → 600 (negative control)',
    target: 'openshift/demo-ocp-autoscale-gpu',
    edits: [['gpu-ms-scaled.yaml', 'cooldownPeriod: 300', 'cooldownPeriod: 600']],
    expect: [],
    why: 'how long KEDA waits before scaling down: no bound on machines changes',
  },
  // redhat-na-ssa/demo-ai-gitops-catalog: a ClusterAutoscaler base and overlays that patch its GPU limits.
  {
    id: 'demo-ai-gitops-catalog: autoscale overlay gpus patch nvidia.com/gpu max 8 → 16',
    target: 'openshift/demo-ai-gitops-catalog',
    edits: [
      [
        'overlays/gpus/kustomization.yaml',
        'path: /spec/resourceLimits/gpus/0/max\n        value: 8',
        'path: /spec/resourceLimits/gpus/0/max\n        value: 16',
      ],
    ],
    expect: [['openshift-cluster-autoscaler', 'nvidia-gpu', 8, 16]],
    why: 'the overlay replaces the first GPU limit of the base (nvidia.com/gpu, max 1) with 8, now 16; overlays/gpus-accelerator-label builds on it (renaming the type nvidia-gpu), so the change is counted once, through that build, as the base case counts each kustomization that renders it',
  },
  {
    id: 'demo-ai-gitops-catalog: autoscale base amd.com/gpu max 1 → 4',
    target: 'openshift/demo-ai-gitops-catalog',
    edits: [
      ['base/autoscaling.yaml', 'type: amd.com/gpu\n        min: 0\n        max: 1', 'type: amd.com/gpu\n        min: 0\n        max: 4'],
    ],
    expect: [
      ['openshift-cluster-autoscaler', 'amd.com/gpu', 1, 4],
      ['openshift-cluster-autoscaler', 'amd.com/gpu', 1, 4],
      ['openshift-cluster-autoscaler', 'amd.com/gpu', 1, 4],
      ['openshift-cluster-autoscaler', 'amd.com/gpu', 1, 4],
    ],
    why: 'no overlay patches the AMD limit: each rendering of the limit carries 1 → 4, one row per kustomization that renders it',
  },
  {
    id: 'demo-ai-gitops-catalog: autoscale overlay workshop-50 maxNodesTotal 33 → 40 (negative control)',
    target: 'openshift/demo-ai-gitops-catalog',
    edits: [['workshop-50/kustomization.yaml', 'value: 33', 'value: 40']],
    expect: [],
    why: 'a node total, not a GPU limit',
  },
  // kubermatic/machine-controller: MachineDeployments of the cluster.k8s.io/v1alpha1 API (Kubermatic, KubeOne),
  // one per cloud, the machine type in providerSpec.value.cloudProviderSpec.
  {
    id: 'machine-controller AWS: instanceType t2.micro → p3.8xlarge',
    target: 'machine-controller/machine-controller-aws-machinedeployment.yaml',
    edits: [['machine-controller-aws-machinedeployment.yaml', 'instanceType: "t2.micro"', 'instanceType: "p3.8xlarge"']],
    expect: [['capi-machinedeployment', 'aws-machinedeployment', 0, 4]],
    why: 'replicas 1 × 4 V100 of p3.8xlarge',
  },
  {
    id: 'machine-controller AWS: replicas 1 → 3 on p3.8xlarge',
    target: 'machine-controller/machine-controller-aws-machinedeployment.yaml',
    edits: [
      ['machine-controller-aws-machinedeployment.yaml', 'instanceType: "t2.micro"', 'instanceType: "p3.8xlarge"'],
      ['machine-controller-aws-machinedeployment.yaml', 'replicas: 1', 'replicas: 3'],
    ],
    expect: [['capi-machinedeployment', 'aws-machinedeployment', 0, 12]],
    why: 'the PR makes the deployment GPU and grows it: 3 × 4 V100',
  },
  {
    id: 'machine-controller AWS: replicas 1 → 3 on t2.micro (negative control)',
    target: 'machine-controller/machine-controller-aws-machinedeployment.yaml',
    edits: [['machine-controller-aws-machinedeployment.yaml', 'replicas: 1', 'replicas: 3']],
    expect: [],
    why: 't2.micro has no GPU',
  },
  {
    id: 'machine-controller Azure: vmSize Standard_F2s_v2 → Standard_NC24ads_A100_v4',
    target: 'machine-controller/machine-controller-azure-machinedeployment.yaml',
    edits: [['machine-controller-azure-machinedeployment.yaml', 'vmSize: "Standard_F2s_v2"', 'vmSize: "Standard_NC24ads_A100_v4"']],
    expect: [['capi-machinedeployment', 'azure-machinedeployment', 0, 1]],
    why: 'replicas 1 × 1 A100',
  },
  {
    id: 'machine-controller GCE: machineType n1-standard-2 → a2-highgpu-2g',
    target: 'machine-controller/machine-controller-gce-machinedeployment.yaml',
    edits: [['machine-controller-gce-machinedeployment.yaml', 'machineType: "n1-standard-2"', 'machineType: "a2-highgpu-2g"']],
    expect: [['capi-machinedeployment', 'gce-machinedeployment', 0, 2]],
    why: 'replicas 1 × 2 A100 of a2-highgpu-2g',
  },
  // upbound/configuration-gcp-gke: a Crossplane GKE composite resource; its composition function (KCL)
  // makes a NodePool of nodes.count machines of nodes.instanceType (autoscaling min = max = count).
  {
    id: 'configuration-gcp-gke XR: nodes.instanceType e2-standard-2 → a2-highgpu-1g',
    target: 'crossplane/configuration-gcp-gke-xr.yaml',
    edits: [['configuration-gcp-gke-xr.yaml', 'instanceType: e2-standard-2', 'instanceType: a2-highgpu-1g']],
    expect: 'not-followed',
    why: 'the NodePool is made by a KCL function the review does not run: 1 × 1 A100, named only by the machine type in the claim',
  },
  {
    id: 'configuration-gcp-gke XR: nodes.count 1 → 3 on e2-standard-2 (negative control)',
    target: 'crossplane/configuration-gcp-gke-xr.yaml',
    edits: [['configuration-gcp-gke-xr.yaml', 'count: 1', 'count: 3']],
    expect: [],
    why: 'e2-standard-2 has no GPU',
  },
];
