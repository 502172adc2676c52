import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../test/detect/real-fixtures.js';
import type { Tree } from '../../test/detect/real-fixtures.js';

/**
 * A changed manifest whose GPU count is a Flux post-build variable with a default
 * (`${gpus:=8}`): read as Flux substitutes it where that is certain, else not followed; never a
 * count Flux would not give. Generated over where the Flux Kustomization sits (a folder above the
 * file, or `clusters/<name>/` pointing at it), how the reference is written, and where the value
 * comes from (the default, the Kustomization's own `substitute`, a ConfigMap `substituteFrom` names).
 */
type Place = 'above' | 'clusters';
type Source = 'default' | 'substitute' | 'configmap';
const PLACES: Place[] = ['above', 'clusters'];
const SOURCES: Source[] = ['default', 'substitute', 'configmap'];
const FORMS = [':=', ':-', '=', '-'] as const;

const queue = (ref: string) =>
  `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: team-a\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: a100\n          resources:\n            - name: nvidia.com/gpu\n              nominalQuota: ${ref}\n`;

function flux(path: string, source: Source, value: number): string {
  const post =
    source === 'substitute'
      ? `  postBuild:\n    substitute:\n      team_gpus: "${value}"\n`
      : source === 'configmap'
        ? '  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-vars\n'
        : '  postBuild:\n    substitute:\n      cluster: c1\n';
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: queues\n  namespace: flux-system\nspec:\n  interval: 10m\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  path: ./${path}\n  prune: true\n${post}`;
}

/** The tree with the default `def` in the manifest and, unless the source is the default, `value` given. */
function tree(place: Place, source: Source, form: string, def: number, value: number, extra: Tree = {}): Tree {
  const home = place === 'above' ? 'apps/queues' : 'clusters/c1';
  const k = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n';
  return {
    [`${home}/kustomization.yaml`]: `${k}  - flux.yaml\n${source === 'configmap' ? '  - vars.yaml\n' : ''}`,
    [`${home}/flux.yaml`]: flux('apps/queues/app', source, value),
    ...(source === 'configmap'
      ? {
          [`${home}/vars.yaml`]: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-vars\n  namespace: flux-system\ndata:\n  team_gpus: "${value}"\n`,
        }
      : {}),
    'apps/queues/app/queue.yaml': queue(`\${team_gpus${form}${def}}`),
    ...extra,
  };
}

const notFollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);
const rows = (r: Awaited<ReturnType<typeof detectPr>>) => changeRows(r).map((row) => row.slice(0, 4));

describe('a changed manifest Flux applies with post-build variables', () => {
  for (const place of PLACES)
    for (const source of SOURCES)
      for (const form of FORMS)
        it(`${place}, ${source}, \`\${v${form}d}\`: the count Flux gives`, async () => {
          // The manifest's default changes 8 → 16; the value, where one is given, stays 4.
          const r = await detectPr(tree(place, source, form, 8, 4), tree(place, source, form, 16, 4));
          // `:=`/`:-` take the default for an empty value too; without the colon only for an unset one.
          const want = source === 'default' ? [['kueue-cluster-queue', 'team-a', 8, 16]] : [];
          expect(rows(r)).toEqual(want);
          expect(notFollowed(r)).toEqual([]);
        });

  const cases: [string, Tree][] = [
    [
      'a ConfigMap the tree does not hold',
      { 'clusters/c1/vars.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata: {}\n' },
    ],
    [
      'a second Kustomization applying the file',
      {
        'clusters/c1/kustomization.yaml':
          'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux.yaml\n  - vars.yaml\n  - flux-b.yaml\n',
        'clusters/c1/flux-b.yaml': flux('apps/queues/app', 'substitute', 2).replace('name: queues', 'name: queues-b'),
      },
    ],
    ['no Kustomization applying it', { 'clusters/c1/flux.yaml': flux('apps/other', 'configmap', 4) }],
  ];
  for (const [what, extra] of cases)
    it(`with ${what}: not followed`, async () => {
      const side = (def: number) => {
        const t = tree('clusters', 'configmap', ':=', def, 4, extra);
        // The ConfigMap the Kustomization names is gone where the case replaces it.
        if (what.startsWith('a ConfigMap')) delete t['clusters/c1/vars.yaml'];
        return t;
      };
      const r = await detectPr(side(8), side(16));
      expect(rows(r)).toEqual([]);
      expect(notFollowed(r)).toContain('apps/queues/app/queue.yaml');
    });

  it('an unset variable with no default as the whole count: not followed', async () => {
    const t = (n: number) => ({ ...tree('above', 'default', ':=', 8, 4), 'apps/queues/app/queue.yaml': queue(`\${team_gpus_${n}}`) });
    const r = await detectPr(t(1), t(2));
    expect(notFollowed(r)).toContain('apps/queues/app/queue.yaml');
  });

  it('substitution turned off for the object: not followed', async () => {
    const off = (def: number) => {
      const t = tree('above', 'default', ':=', def, 4);
      t['apps/queues/app/queue.yaml'] = (t['apps/queues/app/queue.yaml'] ?? '').replace(
        '  name: team-a\n',
        '  name: team-a\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\n',
      );
      return t;
    };
    const r = await detectPr(off(8), off(16));
    expect(rows(r)).toEqual([]);
    expect(notFollowed(r)).toContain('apps/queues/app/queue.yaml');
  });
});

describe('a changed variable whose name, not its field, names GPUs', () => {
  // A workload's `replicas` set by `${gpu_workers}`: the field sizes no capacity, whatever the variable is called.
  const job = (ref: string) =>
    `apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: train\nspec:\n  tasks:\n    - replicas: ${ref}\n      name: worker\n      template:\n        spec:\n          containers:\n            - name: w\n              image: trainer:1\n`;
  const t = (n: number): Tree => ({
    'clusters/c1/kustomization.yaml':
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux.yaml\n  - vars.yaml\n',
    'clusters/c1/flux.yaml': flux('apps/train', 'configmap', 0),
    'clusters/c1/vars.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-vars\ndata:\n  gpu_workers: "${n}"\n`,
    'apps/train/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - job.yaml\n',
    'apps/train/job.yaml': job('${gpu_workers}'),
  });
  it('stays no change, nothing not followed', async () => {
    const r = await detectPr(t(3), t(6));
    expect(rows(r)).toEqual([]);
    expect(notFollowed(r)).toEqual([]);
  });
});
