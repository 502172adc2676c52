import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { REAL_ROOT } from './real-fixtures.js';
import { listingPr, type Tree } from './listing-tree.js';

function load(dir: string): Tree {
  const out: Tree = {};
  for (const name of readdirSync(path.join(REAL_ROOT, dir)).sort())
    out[`${dir}/${name}`] = readFileSync(path.join(REAL_ROOT, dir, name), 'utf8');
  return out;
}

function edit(tree: Tree, file: string, from: string, to: string): Tree {
  const text = tree[file];
  if (text === undefined || !text.includes(from)) throw new Error(`${file} has no ${from}`);
  return { ...tree, [file]: text.replace(from, to) };
}

const rows = async (base: Tree, head: Tree) => {
  const got = await detectChanges(listingPr(base, head));
  return {
    changes: got.changes.map((c) => [c.file, c.kind, c.name, c.gpuModel, c.gpusBefore, c.gpusAfter]),
    coverage: got.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => [n.reason, ...(n.inputs ?? [])])]),
  };
};

/** Deployment files as users fill them in: the blueprint beside them is unchanged. */
describe('Cluster Toolkit deployment files, read with their blueprint', () => {
  const cases = [
    // a4-highgpu-8g: 8 × B200 per node.
    { dir: 'cluster-toolkit/gke-a4', example: 'gke-a4', pool: 'a4-pool', model: 'B200', unset: '  static_node_count:' },
    // a3-megagpu-8g: 8 × H100 per node.
    {
      dir: 'cluster-toolkit/gke-a3-megagpu',
      example: 'gke-a3-megagpu',
      pool: 'a3_megagpu_pool',
      model: 'H100',
      unset: '  static_node_count:',
    },
    // a3-ultragpu-8g: 8 × H200 per node; its deployment file holds a placeholder to replace.
    {
      dir: 'cluster-toolkit/gke-a3-ultragpu',
      example: 'gke-a3-ultragpu',
      pool: 'a3-ultragpu-pool',
      model: 'H200',
      unset: '  static_node_count: NODE_COUNT',
    },
  ];

  it("gke-a3-highgpu: a deployment's node count over the blueprint's 2 is read: 2 → 4 nodes of a3-highgpu-8g is +16 H100", async () => {
    const dir = 'cluster-toolkit/gke-a3-highgpu';
    const file = `${dir}/gke-a3-highgpu-deployment.yaml`;
    const got = await rows(load(dir), edit(load(dir), file, '  static_node_count:', '  static_node_count: 4'));
    expect(got.changes).toEqual([[file, 'gke-node-pool', 'a3_highgpu_pool', 'H100', 16, 32]]);
    expect(got.coverage).toEqual([[file, 'read']]);
  });

  it('gke-a4x: 2 → 4 nodes of a4x-highgpu-4g is +8 GB200 GPUs', async () => {
    const dir = 'cluster-toolkit/gke-a4x';
    const file = `${dir}/gke-a4x-deployment.yaml`;
    const base = edit(load(dir), file, '  static_node_count:', '  static_node_count: 2');
    const got = await rows(base, edit(base, file, 'static_node_count: 2', 'static_node_count: 4'));
    expect(got.changes).toEqual([[file, 'gke-node-pool', 'a4x-pool', 'GB200', 8, 16]]);
  });

  it('gke-g4: filling machine type, GPUs per node and node count is a new pool of 16 RTX PRO 6000', async () => {
    const dir = 'cluster-toolkit/gke-g4';
    const file = `${dir}/gke-g4-deployment.yaml`;
    let head = edit(load(dir), file, '  machine_type:', '  machine_type: g4-standard-384');
    head = edit(head, file, '  num_gpus:', '  num_gpus: 8');
    head = edit(head, file, '  static_node_count:', '  static_node_count: 2');
    const got = await rows(load(dir), head);
    // With no GPUs per node before, the blueprint declared no pool: 0 → 2 nodes × 8.
    expect(got.changes).toEqual([[file, 'gke-node-pool', 'g4-pool', expect.any(String), 0, 16]]);
    expect(got.coverage).toEqual([[file, 'read']]);
  });

  for (const { dir, example, pool, model, unset } of cases) {
    const file = `${dir}/${example}-deployment.yaml`;
    const tree = load(dir);

    it(`${example}: a node count set where there was none is not followed, never a pass`, async () => {
      const got = await rows(tree, edit(tree, file, unset, '  static_node_count: 2'));
      expect(got.changes).toEqual([]);
      // 2 nodes × 8 GPUs now; the count before was empty, so the size of the change is unknown.
      expect(got.coverage).toEqual([[file, 'not-followed', ['count-unknown-before', '16']]]);
    });

    it(`${example}: 2 → 4 nodes in the deployment vars is +16 ${model} GPUs`, async () => {
      const base = edit(tree, file, unset, '  static_node_count: 2');
      const got = await rows(base, edit(base, file, 'static_node_count: 2', 'static_node_count: 4'));
      expect(got.changes).toEqual([[file, 'gke-node-pool', pool, model, 16, 32]]);
      expect(got.coverage).toEqual([[file, 'read']]);
    });
  }
});
