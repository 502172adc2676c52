import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on GitOps repositories of platform teams: a Helm chart of one Karpenter
 * GPU NodePool that Argo CD installs (chanzuckerberg/argo-helm-charts), and the OpenShift GPU demo
 * of redhat-na-ssa whose kustomize overlays patch a ClusterAutoscaler's GPU limit with JSON patches
 * and write the device plugin's time-slicing configs into a ConfigMap.
 */
const CZI = 'helm/czi-karpenter-gpu-nodepool';
const CZI_VALUES = 'czi-karpenter-gpu-nodepool/values.yaml';
const OCP = 'openshift/demo-ocp-gpu';
const AUTOSCALE = 'configs/autoscale';
const GPUS_OVERLAY = `${AUTOSCALE}/overlays/gpus/kustomization.yaml`;
const WORKSHOP = `${AUTOSCALE}/overlays/workshop-50/kustomization.yaml`;
const BASE = `${AUTOSCALE}/base/autoscaling.yaml`;
const SLICED = (n: number) => `gpu-operator-certified/instance/overlays/time-sliced-${String(n)}/kustomization.yaml`;

export const GITOPS_CLUSTER_CASES: readonly RealCase[] = [
  {
    id: 'czi karpenter-gpu-nodepool chart: limits {} → nvidia.com/gpu "8"',
    target: CZI,
    edits: [[CZI_VALUES, '  limits: {} #', '  limits:\n    nvidia.com/gpu: "8"\n  #']],
    expect: [],
    why: 'the pool the chart renders was unbounded; a limit of 8 GPUs bounds it, which adds no GPUs (the review warns that the bound is new)',
  },
  {
    id: 'czi karpenter-gpu-nodepool chart: consolidateAfter 30s → 60s (negative control)',
    target: CZI,
    edits: [[CZI_VALUES, 'consolidateAfter: 30s', 'consolidateAfter: 60s']],
    expect: [],
    why: 'how soon empty nodes go changes no GPU count',
  },
  {
    id: 'demo-ocp-gpu: gpus overlay JSON patch gpus/0/max 8 → 16',
    target: OCP,
    edits: [
      [GPUS_OVERLAY, 'path: /spec/resourceLimits/gpus/0/max\n        value: 8', 'path: /spec/resourceLimits/gpus/0/max\n        value: 16'],
    ],
    expect: [['openshift-cluster-autoscaler', 'nvidia-gpu', 8, 16]],
    why: 'the overlay gpus-accelerator-label builds on gpus and renames the GPU type to nvidia-gpu; the cluster applies the leaf overlay, whose GPU limit goes 8 → 16',
  },
  {
    id: 'demo-ocp-gpu: workshop-50 overlay given a gpus/0/max 50 patch',
    target: OCP,
    edits: [
      [
        WORKSHOP,
        '          max: 2112',
        '          max: 2112\n      - op: replace\n        path: /spec/resourceLimits/gpus/0/max\n        value: 50',
      ],
    ],
    expect: [['openshift-cluster-autoscaler', 'nvidia.com/gpu', 1, 50]],
    why: "the workshop overlay kept the base's limit of 1 GPU; its new JSON patch sets 50",
  },
  {
    id: 'demo-ocp-gpu: time-sliced-4 overlay replicas 4 → 8',
    target: OCP,
    edits: [[SLICED(4), '                    replicas: 4', '                    replicas: 8']],
    expect: [['gpu-sharing', 'device-plugin-config/time-sliced', 4, 8]],
    today: {
      outcome: 'not-followed',
      reason:
        "the patch also writes a config `no-time-sliced` with `replicas: 0`, which the device plugin's config reader does not take, so its nvidia.com/gpu is named not followed",
    },
    why: 'a time-slicing factor 4 → 8: schedulable GPUs double, physical ones do not',
  },
  {
    id: 'demo-ocp-gpu: gpus overlay cores max 128 → 256 (negative control)',
    target: OCP,
    edits: [[GPUS_OVERLAY, 'max: 128', 'max: 256']],
    expect: [],
    why: 'a CPU core limit in the patch that also sets the GPU limit; the GPU limit stands',
  },
  {
    id: 'demo-ocp-gpu: base autoscaler unneededTime 5m → 10m (negative control)',
    target: OCP,
    edits: [[BASE, 'unneededTime: 5m', 'unneededTime: 10m']],
    expect: [],
    why: 'scale-down timing changes no GPU limit',
  },
];
