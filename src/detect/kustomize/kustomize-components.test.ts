import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from '../detect-changes.js';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A patch in a kustomize Component is built only through a kustomization that lists the Component
 * in `components`: a change to it is read through that kustomization wherever the layout puts it
 * (the folder above, a few folders above, an overlay folder), so a CPU-only edit is no change, a
 * GPU quota edit is counted, and a Component that nothing found includes stays not followed.
 */

function queue(name: string, cpu: number, gpus: number): string {
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${name}
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: [cpu, nvidia.com/gpu]
      flavors:
        - name: gpu-flavor
          resources:
            - name: cpu
              nominalQuota: ${cpu}
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;
}

const COMPONENT = 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n';
const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

/** Where the Component sits, where the kustomization that includes it sits, and the path from one to the other. */
interface Layout {
  component: string;
  includer: string;
  resources: string;
}

const LAYOUTS: Layout[] = [
  { component: 'team/gpu', includer: 'team', resources: '' },
  { component: 'team/components/gpu', includer: 'team', resources: '' },
  { component: 'infra/base/components/kueue/gpu', includer: 'infra/base', resources: '' },
  { component: 'components/gpu', includer: 'overlays/prod', resources: '../../base' },
  { component: 'kueue/components/gpu', includer: 'kueue/overlays/us-east-1', resources: '../../base' },
];

type PatchField = 'patches' | 'patchesStrategicMerge';

const rel = (from: string, to: string): string => {
  const a = from === '' ? [] : from.split('/');
  const b = to.split('/');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
};

/** The repository: the queue in a base (the includer's folder, or `base/` beside the overlays), patched by the Component. */
function repo(layout: Layout, field: PatchField, prefix: string, patch: string, included = true): Tree {
  const baseDir = layout.resources === '' ? layout.includer : 'base';
  const root = layout.includer.split('/').slice(0, -2).join('/');
  const base = layout.resources === '' ? baseDir : root === '' ? baseDir : `${root}/${baseDir}`;
  const patchEntry = field === 'patches' ? '  - path: quota.yaml\n' : '  - quota.yaml\n';
  const tree: Tree = {
    [`${base}/queue.yaml`]: queue('team-a', 24, 4),
    [`${layout.component}/kustomization.yaml`]: `${COMPONENT}${field}:\n${patchEntry}`,
    [`${layout.component}/quota.yaml`]: patch,
  };
  const components = included ? `components:\n  - ${rel(layout.includer, layout.component)}\n` : '';
  const namePrefix = prefix === '' ? '' : `namePrefix: ${prefix}\n`;
  if (layout.resources === '') {
    tree[`${layout.includer}/kustomization.yaml`] = `${KUSTOMIZATION}${namePrefix}resources:\n  - queue.yaml\n${components}`;
  } else {
    tree[`${base}/kustomization.yaml`] = `${KUSTOMIZATION}resources:\n  - queue.yaml\n`;
    tree[`${layout.includer}/kustomization.yaml`] = `${KUSTOMIZATION}${namePrefix}resources:\n  - ${layout.resources}\n${components}`;
  }
  return tree;
}

const flagged = (r: DetectedChanges) =>
  r.coverage.some((c) => c.state === 'not-followed') || r.diagnostics.some((d) => d.severity === 'error');
const totals = (r: DetectedChanges) => r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]);

const shapes = LAYOUTS.flatMap((layout) =>
  (['patches', 'patchesStrategicMerge'] as const).flatMap((field) =>
    ['', 'prod-'].flatMap((prefix) => [true, false].map((listsDirs) => ({ layout, field, prefix, listsDirs }))),
  ),
);

describe('a changed patch in a kustomize Component', () => {
  it.each(shapes)(
    '$layout.component in $layout.includer ($field, prefix "$prefix", lists dirs $listsDirs): a CPU quota is no change',
    async (s) => {
      // Without a directory listing, only folders above and the usual overlay names are tried.
      if (!s.listsDirs && s.layout.includer.endsWith('us-east-1')) return;
      const base = repo(s.layout, s.field, s.prefix, queue('team-a', 24, 4));
      const head = repo(s.layout, s.field, s.prefix, queue('team-a', 32, 4));
      const r = await detectPr(base, head, s.listsDirs);
      expect(totals(r)).toEqual([]);
      expect(flagged(r), JSON.stringify(r.coverage)).toBe(false);
    },
  );

  it.each(shapes)(
    '$layout.component in $layout.includer ($field, prefix "$prefix", lists dirs $listsDirs): a GPU quota is counted',
    async (s) => {
      const base = repo(s.layout, s.field, s.prefix, queue('team-a', 24, 4));
      const head = repo(s.layout, s.field, s.prefix, queue('team-a', 24, 8));
      const r = await detectPr(base, head, s.listsDirs);
      if (!s.listsDirs && s.layout.includer.endsWith('us-east-1')) {
        // The includer is not found: never a silent pass.
        expect(flagged(r) || r.changes.length > 0).toBe(true);
        return;
      }
      expect(totals(r)).toEqual([[`${s.prefix}team-a`, 4, 8]]);
    },
  );

  it.each(LAYOUTS)('$component that no kustomization includes is not followed, whatever it changes', async (layout) => {
    for (const [cpu, gpus] of [
      [32, 4],
      [24, 8],
    ] as const) {
      const base = repo(layout, 'patches', '', queue('team-a', 24, 4), false);
      const head = repo(layout, 'patches', '', queue('team-a', cpu, gpus), false);
      const r = await detectPr(base, head);
      expect(flagged(r), `${cpu} cpu, ${gpus} GPUs`).toBe(true);
      expect(totals(r).filter(([, b, a]) => b !== a && !(b === 4 && a === 8))).toEqual([]);
    }
  });
});

describe("a changed kustomize Component's own kustomization", () => {
  it.each(LAYOUTS)('$component: a patch added there is read through the kustomization that includes it', async (layout) => {
    const base = repo(layout, 'patches', '', queue('team-a', 24, 4));
    const head = {
      ...base,
      [`${layout.component}/kustomization.yaml`]: `${COMPONENT}patches:\n  - path: quota.yaml\n  - path: more.yaml\n`,
      [`${layout.component}/more.yaml`]: queue('team-a', 24, 16),
    };
    expect(totals(await detectPr(base, head))).toEqual([['team-a', 4, 16]]);
    const cpuOnly = { ...head, [`${layout.component}/more.yaml`]: queue('team-a', 48, 4) };
    const r = await detectPr(base, cpuOnly);
    expect(totals(r)).toEqual([]);
    expect(flagged(r)).toBe(false);
  });
});
