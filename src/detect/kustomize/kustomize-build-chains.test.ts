import { describe, expect, it } from 'vitest';
import { changeRows, detectPr, edited } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * How often a change is counted where kustomizations build on one another: each build once, at the
 * kustomization no other one builds on (a base read for an overlay is rendered through it), and
 * never as written where the build that would apply it fails.
 */

const pool = (name: string, gpus: number) =>
  `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${name}\nspec:\n  limits:\n    nvidia.com/gpu: ${gpus}\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n      requirements:\n        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g5]}\n`;
const limitPatch = (gpus: number) =>
  `patches:\n  - target: {kind: NodePool, name: gpu}\n    patch: |-\n      - op: replace\n        path: /spec/limits/nvidia.com~1gpu\n        value: ${gpus}\n`;

const BASE = 'pools/base/kustomization.yaml';
const GPUS = 'pools/overlays/gpus/kustomization.yaml';
const LABELLED = 'pools/overlays/gpus-labelled/kustomization.yaml';
const REPO: Tree = {
  [BASE]: 'resources:\n  - gpu.yaml\n',
  'pools/base/gpu.yaml': pool('gpu', 1),
  [GPUS]: `resources:\n  - ../../base\n${limitPatch(8)}`,
  [LABELLED]: 'resources:\n  - ../gpus\nlabels:\n  - pairs: {team: ml}\n',
};

describe('an overlay another overlay builds on', () => {
  it('changed, is counted once, through the overlay built on it', async () => {
    const head = edited(REPO, [[GPUS, 'value: 8', 'value: 16']]);
    expect(changeRows(await detectPr(REPO, head)).map((r) => [r[1], r[2], r[3], r[5]])).toEqual([['gpu', 8, 16, LABELLED]]);
  });

  it('changed with the overlay built on it, is still counted once', async () => {
    const head = edited(REPO, [
      [GPUS, 'value: 8', 'value: 16'],
      [LABELLED, 'team: ml', 'team: research'],
    ]);
    expect(changeRows(await detectPr(REPO, head)).map((r) => [r[1], r[2], r[3]])).toEqual([['gpu', 8, 16]]);
  });
});

describe('a file renamed away from the entry its kustomization names', () => {
  const renamed = (tree: Tree, gpus: number): Tree => {
    const out: Tree = { ...tree, 'pools/base/gpu-pool.yaml': pool('gpu', gpus) };
    delete out['pools/base/gpu.yaml'];
    return out;
  };

  it.each([
    ['renamed by the pull request', REPO],
    ['renamed before it', renamed(REPO, 1)],
  ])('%s: the build fails, so its count is not followed, never counted as written or removed', async (_, base) => {
    const r = await detectPr(base, renamed(REPO, 4));
    expect(r.changes).toEqual([]);
    const file = r.coverage.find((c) => c.file === 'pools/base/gpu-pool.yaml');
    expect(file?.state).toBe('not-followed');
    expect(
      r.diagnostics.some(
        (d) => d.file === 'pools/base/gpu-pool.yaml' && /names pools\/base\/gpu\.yaml, which does not exist/.test(d.message),
      ),
    ).toBe(true);
  });

  it('a file its kustomization names is read as before: the overlay sets the limit itself, so no change', async () => {
    const head = edited(REPO, [['pools/base/gpu.yaml', 'nvidia.com/gpu: 1', 'nvidia.com/gpu: 2']]);
    const r = await detectPr(REPO, head);
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((c) => c.state)).toEqual(['read']);
  });
});
