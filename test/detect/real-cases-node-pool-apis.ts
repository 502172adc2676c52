import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on the node-pool APIs of cluster managers and node autoprovisioners:
 * Gardener Shoots' worker pools (as written, through a kustomize overlay, and as a Kyma Runtime passes them on); Karpenter on Azure (AKS
 * node auto-provisioning), whose requirements name GPUs by the VM SKU's labels; Deckhouse NodeGroups,
 * whose machines are those of an instance class that may sit in another file.
 */
export const NODE_POOL_API_CASES: readonly RealCase[] = [
  // gardener/gardener example/90-shoot.yaml: the reference Shoot, one cpu-worker pool of m5.large, 3 to 5 machines.
  {
    id: 'gardener example Shoot: cpu-worker machine type m5.large → p3.8xlarge',
    target: 'gardener/gardener-example-shoot.yaml',
    edits: [['gardener-example-shoot.yaml', 'type: m5.large', 'type: p3.8xlarge']],
    expect: [['gardener-worker', 'crazy-botany/cpu-worker', 0, 20]],
    why: 'the pool grows to maximum 5 machines, now of p3.8xlarge with 4 V100 each: 5 × 4 = 20',
  },
  {
    id: 'gardener example Shoot: cpu-worker machine type m5.large → g2-standard-24',
    target: 'gardener/gardener-example-shoot.yaml',
    edits: [['gardener-example-shoot.yaml', 'type: m5.large', 'type: g2-standard-24']],
    expect: [['gardener-worker', 'crazy-botany/cpu-worker', 0, 10]],
    why: 'g2-standard-24 carries 2 L4: 5 machines × 2 = 10',
  },
  {
    id: 'gardener example Shoot: a gpu-worker pool of g5.12xlarge, maximum 3, added',
    target: 'gardener/gardener-example-shoot.yaml',
    edits: [
      [
        'gardener-example-shoot.yaml',
        '    workers:\n    - name: cpu-worker\n',
        '    workers:\n    - name: gpu-worker\n      minimum: 0\n      maximum: 3\n      machine:\n        type: g5.12xlarge\n    - name: cpu-worker\n',
      ],
    ],
    expect: [['gardener-worker', 'crazy-botany/gpu-worker', 0, 12]],
    why: 'a new pool of up to 3 g5.12xlarge machines with 4 A10G each: 12',
  },
  {
    id: 'gardener example Shoot: cpu-worker maximum 5 → 8 (negative control)',
    target: 'gardener/gardener-example-shoot.yaml',
    edits: [['gardener-example-shoot.yaml', 'maximum: 5', 'maximum: 8']],
    expect: [],
    why: 'm5.large machines have no GPU; the comments of the file that name GPU thresholds are no capacity',
  },
  // gardener/gardener dev-setup/gardenadm/resources: a base Shoot and the managed-infra overlay that patches it.
  {
    id: 'gardenadm resources: overlay patches worker 1 machine type local → p4d.24xlarge',
    target: 'gardener/gardenadm-resources',
    edits: [
      [
        'overlays/managed-infra/kustomization.yaml',
        '    - op: add\n      path: /spec/provider/workers/0/zones',
        '    - op: replace\n      path: /spec/provider/workers/1/machine/type\n      value: p4d.24xlarge\n    - op: add\n      path: /spec/provider/workers/0/zones',
      ],
    ],
    expect: [['gardener-worker', 'root/worker', 0, 16]],
    why: 'the overlay renders the base worker pool (maximum 2) with p4d.24xlarge machines of 8 A100: 2 × 8 = 16',
  },
  {
    id: 'gardenadm resources: base worker maximum 2 → 4 (negative control)',
    target: 'gardener/gardenadm-resources',
    edits: [['base/shoot.yaml', 'maximum: 2', 'maximum: 4']],
    expect: [],
    why: 'provider-local machines are pods of the seed: no GPU',
  },
  // kyma-project/kyma-infrastructure-manager docs/adr/assets/runtime-examples/aws.yaml: a Kyma Runtime whose
  // spec.shoot.provider.workers KIM turns into the Shoot aws-full (worker-0: m6i.large, 3 to 20 over 3 zones).
  {
    id: 'kyma Runtime aws-full: worker-0 machine type m6i.large → g6.12xlarge',
    target: 'gardener/kyma-runtime-aws.yaml',
    edits: [['kyma-runtime-aws.yaml', 'type: m6i.large', 'type: g6.12xlarge']],
    expect: [['gardener-worker', 'aws-full/worker-0', 0, 80]],
    why: 'up to 20 machines of g6.12xlarge with 4 L4 each: 80',
  },
  {
    id: 'kyma Runtime aws-full: additionalWorkers pool of 2 p5.48xlarge added',
    target: 'gardener/kyma-runtime-aws.yaml',
    edits: [
      [
        'kyma-runtime-aws.yaml',
        '      workers:\n',
        '      additionalWorkers:\n        - name: h100\n          machine:\n            type: p5.48xlarge\n          zones: [eu-central-1a]\n          minimum: 0\n          maximum: 2\n      workers:\n',
      ],
    ],
    expect: [['gardener-worker', 'aws-full/h100', 0, 16]],
    why: 'a second pool of up to 2 p5.48xlarge with 8 H100 each: 16',
  },
  {
    id: 'kyma Runtime aws-full: worker-0 maximum 20 → 30 (negative control)',
    target: 'gardener/kyma-runtime-aws.yaml',
    edits: [['kyma-runtime-aws.yaml', 'maximum: 20', 'maximum: 30']],
    expect: [],
    why: 'm6i.large has no GPU',
  },
  // Azure/karpenter-provider-azure examples/v1/general-purpose.yaml: a NodePool of the D family, limits commented out.
  {
    id: 'karpenter-provider-azure general-purpose: sku-family D → "N"',
    target: 'karpenter/karpenter-azure-general-purpose.yaml',
    // Quoted: kubectl, Argo CD and Flux read a bare N as YAML 1.1 false, which the NodePool schema refuses.
    edits: [['karpenter-azure-general-purpose.yaml', 'values: [D]', 'values: ["N"]']],
    expect: 'not-followed',
    why: "the N family is Azure's GPU VMs (NC, ND, NV); with no nvidia.com/gpu limit the pool may grow without bound",
  },
  {
    id: 'karpenter-provider-azure general-purpose: sku-gpu-count Gt 0 added, cpu limit 30',
    target: 'karpenter/karpenter-azure-general-purpose.yaml',
    edits: [
      [
        'karpenter-azure-general-purpose.yaml',
        '      - key: karpenter.azure.com/sku-family\n        operator: In\n        values: [D]',
        '      - key: karpenter.azure.com/sku-gpu-count\n        operator: Gt\n        values: ["0"]',
      ],
      ['karpenter-azure-general-purpose.yaml', '  # limits:\n  #   cpu: "30"', '  limits:\n    cpu: "30"'],
    ],
    expect: 'not-followed',
    why: 'any SKU with a GPU is allowed; a cpu limit of 30 bounds vCPUs, not GPUs (an NC40ads_H100_v5 has 40 vCPUs and 1 H100, an ND96 8 GPUs)',
  },
  {
    id: 'karpenter-provider-azure general-purpose: sku-gpu-name In [A100], nvidia.com/gpu limit 8',
    target: 'karpenter/karpenter-azure-general-purpose.yaml',
    edits: [
      [
        'karpenter-azure-general-purpose.yaml',
        '      - key: karpenter.azure.com/sku-family\n        operator: In\n        values: [D]',
        '      - key: karpenter.azure.com/sku-gpu-name\n        operator: In\n        values: [A100]',
      ],
      ['karpenter-azure-general-purpose.yaml', '  # limits:\n  #   cpu: "30"', '  limits:\n    nvidia.com/gpu: 8'],
    ],
    expect: [['karpenter-nodepool', 'general-purpose', 0, 8]],
    why: 'the pool now launches A100 SKUs up to its nvidia.com/gpu limit of 8',
  },
  {
    id: 'karpenter-provider-azure general-purpose: sku-family D → F (negative control)',
    target: 'karpenter/karpenter-azure-general-purpose.yaml',
    edits: [['karpenter-azure-general-purpose.yaml', 'values: [D]', 'values: [F]']],
    expect: [],
    why: 'the F family is compute-optimised CPU VMs',
  },
  // deckhouse/deckhouse modules/040-node-manager e2e: a CloudEphemeral NodeGroup whose DVPInstanceClass is in another file.
  {
    id: 'deckhouse e2e-worker-100: maxPerZone 3 → 6, class in another file',
    target: 'deckhouse/ca-scale-from-zero-nodegroup-100.yaml',
    edits: [['ca-scale-from-zero-nodegroup-100.yaml', 'maxPerZone: 3', 'maxPerZone: 6']],
    expect: 'not-followed',
    why: 'twice the machines per zone, each of the instance class DVPInstanceClass/worker, which is not in the file: its GPUs cannot be told',
  },
  {
    id: 'deckhouse e2e-worker-100: taint value worker-100 → worker-200 (negative control)',
    target: 'deckhouse/ca-scale-from-zero-nodegroup-100.yaml',
    edits: [['ca-scale-from-zero-nodegroup-100.yaml', 'value: "worker-100"', 'value: "worker-200"']],
    expect: [],
    why: 'a taint of the nodes: neither the bound nor the class changes',
  },
];
