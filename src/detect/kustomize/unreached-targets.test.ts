import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A patch that selects its objects by kind, label or pattern alone, in a kustomization one of whose
 * resources is out of reach (remote, not in the tree, or past the depth of overlays followed), may
 * set a GPU count on an object the review never saw: the kustomization is not followed, never read
 * as "no change". A patch naming its object keeps its own handling (a warning, the count unknown).
 */

const queue = (gpus: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
  labels:
    team: ml
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;

const k = (body: string) => `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${body}`;

const TARGETS = ['kind: ClusterQueue', 'labelSelector: team=ml', 'group: kueue.x-k8s.io\n      kind: ClusterQueue', 'name: "res.*"'];

const jsonPatch = (target: string, gpus: number) =>
  `patches:\n  - target:\n      ${target}\n    patch: |-\n      - op: replace\n        path: /spec/resourceGroups/0/flavors/0/resources/0/nominalQuota\n        value: ${gpus}\n`;

/** An overlay chain of `depth` kustomizations over a base queue, the top one patching by `target`. */
function chain(depth: number, target: string, gpus: number): Tree {
  const tree: Tree = { 'k/o0/q.yaml': queue(4), 'k/o0/kustomization.yaml': k('resources:\n  - q.yaml\n') };
  for (let i = 1; i < depth; i++)
    tree[`k/o${i}/kustomization.yaml`] = k(`resources:\n  - ../o${i - 1}\n${i === depth - 1 ? jsonPatch(target, gpus) : ''}`);
  return tree;
}

/** An overlay over a base that is not in the tree (a remote one, or a folder the PR does not hold). */
function unreached(base: string, target: string, gpus: number): Tree {
  return { 'k/prod/kustomization.yaml': k(`resources:\n  - ${base}\n${jsonPatch(target, gpus)}`) };
}

describe('a patch selecting by kind or label alone over a resource out of reach', () => {
  it.each(TARGETS.flatMap((t) => [5, 13, 14, 30].map((d) => [t, d] as const)))(
    '%s, %i overlays deep: counted or not followed',
    async (target, depth) => {
      const r = await detectPr(chain(depth, target, 4), chain(depth, target, 8));
      const top = `k/o${depth - 1}/kustomization.yaml`;
      const rows = changeRows(r);
      if (rows.length > 0) expect(rows.map((row) => [row[2], row[3]])).toEqual([[4, 8]]);
      else expect(r.diagnostics.some((d) => d.file === top && d.severity === 'error' && /not followed/.test(d.message))).toBe(true);
    },
  );

  it.each(
    TARGETS.flatMap((t) =>
      ['github.com/org/infra//kueue/base?ref=v1.2.0', '../../not-in-tree', 'https://example.com/queue.yaml'].map((b) => [t, b] as const),
    ),
  )('%s over %s: not followed', async (target, base) => {
    const r = await detectPr(unreached(base, target, 4), unreached(base, target, 8));
    expect(changeRows(r)).toEqual([]);
    expect(
      r.diagnostics.some((d) => d.file === 'k/prod/kustomization.yaml' && d.severity === 'error' && /not followed/.test(d.message)),
    ).toBe(true);
  });

  it('a selector patch of what holds no GPU count (a label, a Deployment) over a remote base keeps the file followed', async () => {
    const labels = (v: string) =>
      k(
        `resources:\n  - github.com/org/infra//apps?ref=v1\npatches:\n  - target:\n      kind: Deployment\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: ${v}\n  - target:\n      kind: ClusterQueue\n    patch: |-\n      - op: add\n        path: /metadata/labels/tier\n        value: "${v}"\n`,
      );
    const r = await detectPr({ 'k/prod/kustomization.yaml': labels('2') }, { 'k/prod/kustomization.yaml': labels('3') });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
