import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on Rancher's node-driver clusters: Rancher's cluster template chart
 * (rancher/cluster-template-examples) renders a `provisioning.cattle.io` Cluster whose
 * `machinePools` name machine configs (`rke-machine-config.cattle.io` Amazonec2Config,
 * DigitaloceanConfig, AzureConfig …) that other templates of the chart render from the same
 * `nodepools` values. Each provider's values file holds one pool of one machine.
 */
const TARGET = 'rancher/cluster-template-chart';
const AWS = 'values-aws.yaml';
const SEPARATE_TEMPLATES =
  'the chart renders the Cluster and its machine configs from templates of their own, read one at a time: a pool whose count changes cannot be tied to its machine type';

export const RANCHER_MACHINE_POOL_CASES: readonly RealCase[] = [
  {
    id: 'rancher cluster template, AWS values: pool ec2-nodepool-1 t3a.medium → g5.12xlarge',
    target: TARGET,
    edits: [[AWS, 'instanceType: t3a.medium', 'instanceType: g5.12xlarge']],
    expect: 'not-followed',
    why: '1 machine × 4 A10G would be 4 GPUs, but the Amazonec2Config and the pool are rendered by different templates',
  },
  {
    id: 'rancher cluster template, AWS values: p4d.24xlarge and quantity 1 → 2',
    target: TARGET,
    edits: [
      [AWS, 'instanceType: t3a.medium', 'instanceType: p4d.24xlarge'],
      [AWS, 'quantity: 1', 'quantity: 2'],
    ],
    expect: 'not-followed',
    why: '2 machines × 8 A100, the pool and its config rendered apart',
  },
  {
    id: 'rancher cluster template, DigitalOcean values: size s-4vcpu-8gb → gpu-h100x1-80gb',
    target: TARGET,
    edits: [['values-do.yaml', 'size: s-4vcpu-8gb', 'size: gpu-h100x1-80gb']],
    expect: 'not-followed',
    why: 'a DigitalOcean GPU Droplet of one H100 for the one machine of the pool',
  },
  {
    id: 'rancher cluster template, Azure values: size Standard_NC24ads_A100_v4 set',
    target: TARGET,
    edits: [['values-azure.yaml', '# size: Standard_D2_v2', 'size: Standard_NC24ads_A100_v4']],
    expect: 'not-followed',
    why: 'one machine of one A100, the pool and its AzureConfig rendered apart',
  },
  {
    id: 'rancher cluster template, AWS values: t3a.medium → m5.xlarge (negative control)',
    target: TARGET,
    edits: [[AWS, 'instanceType: t3a.medium', 'instanceType: m5.xlarge']],
    expect: [],
    why: 'a larger CPU machine: the config names no GPU, and the pool keeps its count',
  },
  {
    id: 'rancher cluster template, AWS values: quantity 1 → 3 on t3a.medium (negative control)',
    target: TARGET,
    edits: [[AWS, 'quantity: 1', 'quantity: 3']],
    expect: [],
    today: { outcome: 'not-followed', reason: SEPARATE_TEMPLATES },
    why: 'three CPU machines',
  },
];
