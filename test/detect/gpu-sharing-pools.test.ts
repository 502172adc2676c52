import { describe, expect, it } from 'vitest';
import { changeSharing } from '../../src/domain/index.js';
import { detectPr, edited, lineIn, loadReal } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

const DIR = 'gpu-sharing';
const NODECLASS = `${DIR}/karpenter-blueprints-gpu-nodeclass.yaml`;
const NODEPOOL = `${DIR}/karpenter-blueprints-gpu-nodepool.yaml`;
const OVERLAYS = `${DIR}/karpenter-blueprints-node-overlay-gpu-slices.yaml`;

function blueprint(): Tree {
  return { ...loadReal(NODECLASS), ...loadReal(NODEPOOL), ...loadReal(OVERLAYS) };
}

describe('Karpenter pools on time-sliced GPUs (aws-samples/karpenter-blueprints)', () => {
  it('a limit of 40 advertised GPUs on 4-way Bottlerocket time-slicing is 10 physical GPUs', async () => {
    const base = blueprint();
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 80']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.delta])).toEqual([
      ['karpenter-nodepool', 'gpu-slices', 10, 20, 10],
    ]);
    const [c] = r.changes;
    const text = base[NODECLASS] ?? '';
    const source = { file: NODECLASS, line: lineIn(text, 'replicas = 4'), name: 'EC2NodeClass/gpu-bottlerocket' };
    expect(c?.before?.sharing).toEqual({ state: 'shared', factor: 4, mode: 'bottlerocket-time-slicing', source, schedulable: 40 });
    expect(c?.after?.sharing).toEqual({ state: 'shared', factor: 4, mode: 'bottlerocket-time-slicing', source, schedulable: 80 });
    expect(r.diagnostics.map((d) => d.message)).toContain(
      `NodePool gpu-slices: each GPU is advertised as 4 (Bottlerocket time-slicing in EC2NodeClass/gpu-bottlerocket (${NODECLASS}:${source.line})), so its 80 schedulable GPUs are 20 physical GPUs`,
    );
  });

  it('with only the NodeOverlays in view, their capacity over the instance GPU count gives the same factor', async () => {
    const base = { ...loadReal(NODEPOOL), ...loadReal(OVERLAYS) };
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 48']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[10, 12]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'shared', factor: 4, mode: 'node-overlay', schedulable: 48 });
  });

  it('a NodeOverlay whose GPUs per node are unknown leaves the physical count unknown, and says so', async () => {
    const overlays = (loadReal(OVERLAYS)[OVERLAYS] ?? '').replace(
      /- key: karpenter.k8s.aws\/instance-gpu-count\n\s+operator: In\n\s+values: \["1"\]\n\s+/,
      '',
    );
    const base = { ...loadReal(NODEPOOL), [OVERLAYS]: overlays };
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 48']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[40, 48]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'unknown', code: 'sharing-unreadable' });
    expect(r.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message)).toEqual([
      expect.stringContaining('NodePool gpu-slices: cannot tell its physical GPUs (sharing-unreadable)'),
    ]);
  });

  it('replicas 4 → 2 in the node class is a sharing change, and the pool beside it is not touched', async () => {
    const base = blueprint();
    const head = edited(base, [[NODECLASS, 'replicas = 4', 'replicas = 2']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([
      ['gpu-sharing', 'EC2NodeClass/gpu-bottlerocket', 4, 2],
    ]);
  });

  it('without any sharing config in view the limit stays as written', async () => {
    const base = loadReal(NODEPOOL);
    const head = edited(base, [[NODEPOOL, 'nvidia.com/gpu: 40', 'nvidia.com/gpu: 80']]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[40, 80]]);
    expect(r.changes[0]?.after?.sharing).toBeUndefined();
  });
});

const CONFIGMAP = `${DIR}/hpcgame-gpu-time-slicing-config.yaml`;

function nodePool(label: string | null, limit: number): string {
  return [
    'apiVersion: karpenter.sh/v1',
    'kind: NodePool',
    'metadata:',
    '  name: shared-a100',
    'spec:',
    '  limits:',
    `    nvidia.com/gpu: ${limit}`,
    '  template:',
    ...(label === null ? [] : ['    metadata:', '      labels:', `        nvidia.com/device-plugin.config: ${label}`]),
    '    spec:',
    '      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }',
    '      requirements:',
    '        - { key: node.kubernetes.io/instance-type, operator: In, values: [p4de.24xlarge] }',
    '',
  ].join('\n');
}

/** The real ConfigMap in the GPU Operator's folder, the pool in Karpenter's, both under `infra/`. */
function cluster(label: string | null, limit: number, extra: Tree = {}): Tree {
  return {
    'infra/gpu-operator/time-slicing.yaml': loadReal(CONFIGMAP)[CONFIGMAP] ?? '',
    'infra/karpenter/nodepool.yaml': nodePool(label, limit),
    ...extra,
  };
}

describe('Karpenter pools on device-plugin time-slicing (NVIDIA device plugin / GPU Operator ConfigMap)', () => {
  it('the node label picks the config: a100-80gb-shared time-slices 4 ways, so 64 → 96 is 16 → 24 physical', async () => {
    const r = await detectPr(cluster('a100-80gb-shared', 64), cluster('a100-80gb-shared', 96));
    expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['shared-a100', 16, 24]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({
      state: 'shared',
      factor: 4,
      mode: 'time-slicing',
      schedulable: 96,
      source: { file: 'infra/gpu-operator/time-slicing.yaml', name: 'gpu-time-slicing-config/a100-80gb-shared' },
    });
  });

  it('a label naming a config that is not there: cannot tell, with a warning', async () => {
    const r = await detectPr(cluster('h100-shared', 64), cluster('h100-shared', 96));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[64, 96]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'unknown', code: 'sharing-unlinked' });
    expect(r.diagnostics.find((d) => d.severity === 'warning')?.message).toContain('device-plugin config h100-shared is not among');
  });

  it('no label and several configs with no default: cannot tell', async () => {
    const r = await detectPr(cluster(null, 64), cluster(null, 96));
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'unknown', code: 'sharing-ambiguous' });
  });

  it("no label: the ClusterPolicy's devicePlugin default decides", async () => {
    const policy = {
      'infra/gpu-operator/cluster-policy.yaml': [
        'apiVersion: nvidia.com/v1',
        'kind: ClusterPolicy',
        'metadata:',
        '  name: cluster-policy',
        'spec:',
        '  devicePlugin:',
        '    config:',
        '      name: gpu-time-slicing-config',
        '      default: v100-16gb-shared',
        '',
      ].join('\n'),
    };
    const r = await detectPr(cluster(null, 64, policy), cluster(null, 96, policy));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[8, 12]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'shared', factor: 8 });
  });

  it('a static pool counts physical GPUs from its nodes: 2 × 8 A100 advertise 64 at 4-way sharing', async () => {
    const pool = (n: number) => nodePool('a100-80gb-shared', 1000).replace('spec:\n  limits:', `spec:\n  replicas: ${n}\n  limits:`);
    const r = await detectPr(
      cluster(null, 0, { 'infra/karpenter/nodepool.yaml': pool(2) }),
      cluster(null, 0, { 'infra/karpenter/nodepool.yaml': pool(3) }),
    );
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[16, 24]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'shared', factor: 4, schedulable: 96 });
  });
});

describe('GPU sharing set on the pool itself', () => {
  it('GKE Terraform gpu_sharing_config TIME_SHARING × 2: node counts stay physical, the factor is shown', async () => {
    const dir = `${DIR}/sd-gcp-gke`;
    const base = loadReal(dir);
    const head = edited(base, [
      [
        `${dir}/main.tf`,
        'max_node_count = 10\n  }\n  node_count = var.gke_num_nodes',
        'max_node_count = 20\n  }\n  node_count = var.gke_num_nodes',
      ],
    ]);
    const r = await detectPr(base, head);
    const pool = r.changes.find((c) => c.kind === 'gke-node-pool');
    expect([pool?.gpusBefore, pool?.gpusAfter]).toEqual([10, 20]);
    const text = base[`${dir}/main.tf`] ?? '';
    expect(pool?.after?.sharing).toEqual({
      state: 'shared',
      factor: 2,
      mode: 'gke-time-sharing',
      schedulable: 40,
      source: {
        file: `${dir}/main.tf`,
        line: lineIn(text, 'max_shared_clients_per_gpu = 2'),
        name: 'nvidia-tesla-t4-nodepool gpu_sharing_config',
      },
    });
  });

  it('eksctl Bottlerocket settings time-slice the group: 2 → 4 nodes of g5.xlarge is +2 physical, ×4 shown', async () => {
    const group = (n: number) =>
      [
        'apiVersion: eksctl.io/v1alpha5',
        'kind: ClusterConfig',
        'metadata: { name: c, region: us-west-2 }',
        'nodeGroups:',
        '  - name: shared-g5',
        '    instanceType: g5.xlarge',
        '    amiFamily: Bottlerocket',
        `    maxSize: ${n}`,
        '    bottlerocket:',
        '      settings:',
        '        kubelet-device-plugins:',
        '          nvidia:',
        '            device-sharing-strategy: time-slicing',
        '            time-slicing:',
        '              replicas: 4',
        '',
      ].join('\n');
    const r = await detectPr({ 'cluster.yaml': group(2) }, { 'cluster.yaml': group(4) });
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[2, 4]]);
    expect(r.changes[0]?.after?.sharing).toEqual({
      state: 'shared',
      factor: 4,
      mode: 'bottlerocket-time-slicing',
      schedulable: 16,
      source: { file: 'cluster.yaml', line: 15, name: 'shared-g5 bottlerocket.settings' },
    });
  });

  it('Config Connector gpuSharingConfig MPS with an unreadable client count: unknown', async () => {
    const pool = (n: number, clients: string) =>
      [
        'apiVersion: container.cnrm.cloud.google.com/v1beta1',
        'kind: ContainerNodePool',
        'metadata: { name: l4-mps }',
        'spec:',
        '  location: us-central1-a',
        `  nodeCount: ${n}`,
        '  nodeConfig:',
        '    machineType: g2-standard-8',
        '    guestAccelerator:',
        '      - type: nvidia-l4',
        '        count: 1',
        '        gpuSharingConfig:',
        '          gpuSharingStrategy: MPS',
        `          maxSharedClientsPerGpu: ${clients}`,
        '',
      ].join('\n');
    const known = await detectPr({ 'pool.yaml': pool(2, '3') }, { 'pool.yaml': pool(3, '3') });
    expect(known.changes[0]?.after?.sharing).toMatchObject({ state: 'shared', factor: 3, mode: 'gke-mps', schedulable: 9 });
    const unknown = await detectPr({ 'pool.yaml': pool(2, '"${CLIENTS}"') }, { 'pool.yaml': pool(3, '"${CLIENTS}"') });
    expect(unknown.changes[0]?.after?.sharing).toMatchObject({ state: 'unknown', code: 'sharing-unreadable' });
  });
});

describe("the NVIDIA device plugin chart's values (config.map, config.default)", () => {
  const values = (replicas: number) =>
    [
      'config:',
      '  default: shared',
      '  map:',
      '    exclusive: |-',
      '      version: v1',
      '    shared: |-',
      '      version: v1',
      '      sharing:',
      '        timeSlicing:',
      '          resources:',
      '          - name: nvidia.com/gpu',
      `            replicas: ${replicas}`,
      '',
    ].join('\n');

  it('the default config time-slices an unlabelled pool; the factor is read at its line', async () => {
    const tree = (limit: number) => ({
      'infra/device-plugin/values.yaml': values(2),
      'infra/karpenter/nodepool.yaml': nodePool(null, limit),
    });
    const r = await detectPr(tree(64), tree(96));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[32, 48]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({
      state: 'shared',
      factor: 2,
      source: { file: 'infra/device-plugin/values.yaml', line: 12, name: 'config.map/shared' },
    });
  });

  it('replicas 2 → 4 in the values is a sharing change of config.map/shared', async () => {
    const r = await detectPr({ 'values.yaml': values(2) }, { 'values.yaml': values(4) });
    expect(r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.line])).toEqual([
      ['gpu-sharing', 'config.map/shared', 2, 4, 12],
    ]);
  });
});

describe('Bottlerocket settings of terraform-aws-modules/eks managed node groups', () => {
  const main = (max: number) =>
    [
      'module "eks" {',
      '  source  = "terraform-aws-modules/eks/aws"',
      '  version = "~> 20.0"',
      '  eks_managed_node_groups = {',
      '    shared = {',
      '      ami_type       = "BOTTLEROCKET_x86_64_NVIDIA"',
      '      instance_types = ["g5.2xlarge"]',
      `      max_size       = ${max}`,
      '      bootstrap_extra_args = <<-EOT',
      '        [settings.kubelet-device-plugins.nvidia]',
      '        device-sharing-strategy = "time-slicing"',
      '        [settings.kubelet-device-plugins.nvidia.time-slicing]',
      '        replicas = 3',
      '      EOT',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');

  it('a group of g5.2xlarge time-sliced 3 ways: 4 → 6 nodes is 4 → 6 physical GPUs, 12 → 18 schedulable', async () => {
    const r = await detectPr({ 'eks/main.tf': main(4) }, { 'eks/main.tf': main(6) });
    expect(r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([['eks-node-group', 'shared', 4, 6]]);
    expect(r.changes[0]?.after?.sharing).toEqual({
      state: 'shared',
      factor: 3,
      mode: 'bottlerocket-time-slicing',
      schedulable: 18,
      source: { file: 'eks/main.tf', line: 9, name: 'shared bootstrap_extra_args' },
    });
  });
});

describe('GPU Operator kustomize components (redhat-cop/gitops-catalog)', () => {
  const GC = `${DIR}/gitops-catalog`;
  const file = (name: string) => loadReal(`${GC}/${name}`)[`${GC}/${name}`] ?? '';
  const operator = (patches: string[]) =>
    Object.fromEntries([
      ['gitops/gpu-operator/cluster-policy.yaml', file('time-sliced-patch-gpu-cluster-policy.yaml')],
      ...patches.map((n) => [`gitops/gpu-operator/time-sliced-${n}.yaml`, file(`time-sliced-${n}-patch-device-plugin-config.yaml`)]),
    ]) as Tree;

  it("the ClusterPolicy's default, time-sliced, at 4 replicas: an unlabelled pool's 64 → 96 is 16 → 24 physical", async () => {
    const tree = (limit: number) => ({ ...operator(['4']), 'gitops/karpenter/nodepool.yaml': nodePool(null, limit) });
    const r = await detectPr(tree(64), tree(96));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[16, 24]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({
      state: 'shared',
      factor: 4,
      source: { name: 'device-plugin-config/time-sliced' },
    });
  });

  it('both alternative components in view: time-sliced is 2 in one and 4 in the other, so cannot tell', async () => {
    const tree = (limit: number) => ({ ...operator(['2', '4']), 'gitops/karpenter/nodepool.yaml': nodePool(null, limit) });
    const r = await detectPr(tree(64), tree(96));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[64, 96]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'unknown', code: 'sharing-ambiguous' });
    expect(r.diagnostics.find((d) => d.severity === 'warning')?.message).toContain('configs named time-sliced disagree');
  });
});

describe('a sharing factor changed on the pool itself', () => {
  it('GKE max_shared_clients_per_gpu 2 → 4: a change of 0 physical GPUs, 20 → 40 schedulable', async () => {
    const dir = `${DIR}/sd-gcp-gke`;
    const base = loadReal(dir);
    const head = edited(base, [[`${dir}/main.tf`, 'max_shared_clients_per_gpu = 2', 'max_shared_clients_per_gpu = 4']]);
    const r = await detectPr(base, head);
    const pool = r.changes.find((c) => c.kind === 'gke-node-pool');
    expect([pool?.gpusBefore, pool?.gpusAfter, pool?.delta]).toEqual([10, 10, 0]);
    expect([pool?.before?.sharing, pool?.after?.sharing]).toMatchObject([
      { state: 'shared', factor: 2, schedulable: 20 },
      { state: 'shared', factor: 4, schedulable: 40 },
    ]);
  });

  it('Cluster Toolkit: time-sharing added to an 8-GPU a3-highgpu pool is a change of 0 physical GPUs', async () => {
    const dir = 'cluster-toolkit/gke-a3-highgpu';
    const base = loadReal(dir);
    const head = edited(base, [
      [
        `${dir}/gke-a3-highgpu.yaml`,
        '        count: 8\n',
        '        count: 8\n        gpu_sharing_config:\n          gpu_sharing_strategy: TIME_SHARING\n          max_shared_clients_per_gpu: 2\n',
      ],
    ]);
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.kind, c.gpusBefore, c.gpusAfter])).toEqual([['gke-node-pool', 16, 16]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({ state: 'shared', factor: 2, mode: 'gke-time-sharing', schedulable: 32 });
    expect(r.changes[0]?.before?.sharing).toBeUndefined();
  });
});

describe('device-plugin configs that share nothing', () => {
  it('a label picking the exclusive a100-80gb config: one GPU per GPU, the limit is physical', async () => {
    const r = await detectPr(cluster('a100-80gb', 64), cluster('a100-80gb', 96));
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[64, 96]]);
    expect(r.changes[0]?.after?.sharing).toMatchObject({
      state: 'shared',
      factor: 1,
      source: { name: 'gpu-time-slicing-config/a100-80gb' },
    });
    expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    // Nothing shared at either side: the change carries no sharing to report.
    expect(r.changes[0] && changeSharing(r.changes[0])).toBeNull();
  });
});
