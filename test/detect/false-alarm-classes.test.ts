import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';
import type { Tree } from './listing-tree.js';
import { detectPr } from './real-fixtures.js';
import { detectVariant, plain } from './variants/variant-tree.js';

/** Classes of negative controls that once alarmed: a link read as its target, a rename, a module read through its caller. */

const QUEUE = (cpu: number, gpu: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-a
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu", "nvidia.com/gpu"]
      flavors:
        - name: default
          resources:
            - name: cpu
              nominalQuota: ${cpu}
            - name: nvidia.com/gpu
              nominalQuota: ${gpu}
`;

const states = (r: Awaited<ReturnType<typeof detectChanges>>) =>
  r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => n.reason)]);

describe('a link inside the tree is read as its target', () => {
  const sides = (target: string, extra: Tree = {}) => ({
    base: plain({ 'kueue/cq.yaml': QUEUE(8, 4) }),
    head: { files: { 'moved/cq.yaml.src': target, ...extra }, special: { 'kueue/cq.yaml': { link: '../moved/cq.yaml.src' } } },
  });

  it('a CPU-only edit moved behind a link is no change, on the link and on its target', async () => {
    const r = await detectVariant(sides(QUEUE(16, 4)));
    expect(r.changes).toEqual([]);
    expect(states(r)).toEqual([
      ['kueue/cq.yaml', 'read'],
      ['moved/cq.yaml.src', 'read'],
    ]);
  });

  it('a GPU edit is counted through the link', async () => {
    const r = await detectVariant(sides(QUEUE(8, 8)));
    expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['team-a', 4, 8]]);
  });

  it('a second file no link reads, or one whose text differs from what the link reads, stays not followed', async () => {
    const r = await detectVariant(sides(QUEUE(8, 4), { 'moved/other.yaml.src': QUEUE(8, 64) }));
    expect(states(r)).toContainEqual(['moved/other.yaml.src', 'not-followed', 'unaccounted-signal']);
  });

  it('a script in which the shell reading finds no GPU name (a header flag): the same text behind the link is read too', async () => {
    const script = (count: number) =>
      [
        '#!/bin/bash',
        'az aks nodepool add --cluster-name c --name gpunp --node-vm-size $GPU_SKU --node-count 1 \\',
        '  --aks-custom-headers UseGPUDedicatedVHD=true',
        `az aks nodepool add --cluster-name c --name turn --node-vm-size Standard_F8s_v2 --node-count ${count}`,
        '',
      ].join('\n');
    const r = await detectVariant({
      base: plain({ 'infra/up.sh': script(1) }),
      head: { files: { 'moved/up.sh.src': script(2) }, special: { 'infra/up.sh': { link: '../moved/up.sh.src' } } },
    });
    expect(states(r)).toEqual([
      ['infra/up.sh', 'read'],
      ['moved/up.sh.src', 'read'],
    ]);
  });
});

const COMPUTE_CLASS = (migration: boolean) => `apiVersion: cloud.google.com/v1
kind: ComputeClass
metadata:
  name: gpu-l4
spec:
  nodePoolAutoCreation:
    enabled: true
  activeMigration:
    optimizeRulePriority: ${migration}
  priorities:
    - machineType: g2-standard-24
      gpu:
        type: nvidia-l4
        count: 2
`;

describe('a file renamed by the pull request', () => {
  it('keeps what could not be followed before as it was: a rename within its folder with a CPU-only edit alarms nothing', async () => {
    const r = await detectChanges(listingPr({ 'cc/gpu.yaml': COMPUTE_CLASS(true) }, { 'cc/renamed-gpu.yml': COMPUTE_CLASS(false) }));
    expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
  });

  it('the same object added in another folder, or beside the old file still there, is new: not followed', async () => {
    const elsewhere = await detectChanges(listingPr({ 'cc/gpu.yaml': COMPUTE_CLASS(true) }, { 'other/gpu.yaml': COMPUTE_CLASS(true) }));
    expect(states(elsewhere)).toContainEqual(['other/gpu.yaml', 'not-followed', 'count-unknown']);
    const beside = await detectChanges(
      listingPr({ 'cc/gpu.yaml': COMPUTE_CLASS(true) }, { 'cc/gpu.yaml': COMPUTE_CLASS(true), 'cc/copy.yaml': COMPUTE_CLASS(true) }),
    );
    expect(states(beside)).toContainEqual(['cc/copy.yaml', 'not-followed', 'count-unknown']);
  });
});

const MODULE_POOL = (policy: string, machine: string) => `resource "google_container_node_pool" "gpu" {
  name = "gpu"
  autoscaling {
    total_max_node_count = var.max_nodes
    location_policy      = "${policy}"
  }
  node_config {
    machine_type = "${machine}"
    guest_accelerator {
      type  = "nvidia-l4"
      count = var.gpus
    }
  }
}
`;
const MODULE_VARS = 'variable "max_nodes" {}\nvariable "gpus" {}\n';

describe('a changed module whose variables have no defaults is read through its callers', () => {
  const tree = (policy: string, machine: string, caller = true): Tree => ({
    'infra/modules/gpu/main.tf': MODULE_POOL(policy, machine),
    'infra/modules/gpu/variables.tf': MODULE_VARS,
    ...(caller
      ? { 'infra/envs/prod/main.tf': 'module "gpu" {\n  source    = "../../modules/gpu"\n  max_nodes = 10\n  gpus      = 2\n}\n' }
      : {}),
  });

  it('a CPU-only edit in the module is no change through a caller two folders away', async () => {
    const r = await detectPr(tree('ANY', 'g2-standard-24'), tree('BALANCED', 'g2-standard-24'));
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((c) => [c.file, c.state])).toEqual([['infra/modules/gpu/main.tf', 'read']]);
  });

  it('a GPU edit in the module is counted through the caller', async () => {
    const before = tree('ANY', 'g2-standard-24');
    const path = 'infra/modules/gpu/main.tf';
    const after = { ...before, [path]: (before[path] ?? '').replace('count = var.gpus', 'count = var.gpus * 2') };
    const r = await detectPr(before, after);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[20, 40]]);
  });

  it('with no caller in reach the count stays unknown: not followed, never a guess', async () => {
    const r = await detectPr(tree('ANY', 'g2-standard-24', false), tree('BALANCED', 'g2-standard-24', false));
    expect(states(r)).toEqual([['infra/modules/gpu/main.tf', 'not-followed', 'count-unknown']]);
  });
});
