import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { MAX_CANDIDATES, MAX_OVERLAYS, overlayCandidates } from './overlay-discovery.js';
import { changeRows, detectPr, edited, lineIn } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A Kustomize base edited in a pull request is what its overlays render, and a ResourceFlavor in
 * its own file still gives the queue its GPU model.
 */

const flavor = (name: string, product: string) =>
  `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: ${name}\nspec:\n  nodeLabels:\n    nvidia.com/gpu.product: ${product}\n`;

const FLAVORS = `${flavor('nvidia-h100-80gb', 'NVIDIA-H100-80GB-HBM3')}---\n${flavor('nvidia-a100-80gb', 'NVIDIA-A100-SXM4-80GB')}`;

function queue(name: string, quotas: Record<string, number>): string {
  const flavors = Object.entries(quotas)
    .map(
      ([f, gpus]) => `        - name: ${f}
          resources:
            - name: cpu
              nominalQuota: '16'
            - name: nvidia.com/gpu
              nominalQuota: '${gpus}'
`,
    )
    .join('');
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${name}
spec:
  cohort: organization
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: [cpu, nvidia.com/gpu]
      flavors:
${flavors}`;
}

const TEAM1 = 'kueue/base/team1-cq.yaml';
const PROD = 'kueue/overlays/prod/kustomization.yaml';
const STAGING = 'kueue/overlays/staging/kustomization.yaml';
const PROD_PATCH = 'kueue/overlays/prod/team1-quota.yaml';

/** A base with the flavors in their own file, and prod/staging overlays; prod sets team1's quotas itself. */
const REPO: Tree = {
  'kueue/base/kustomization.yaml': 'resources:\n  - flavors.yaml\n  - team1-cq.yaml\n  - team2-cq.yaml\n',
  'kueue/base/flavors.yaml': FLAVORS,
  [TEAM1]: queue('team1', { 'nvidia-h100-80gb': 2, 'nvidia-a100-80gb': 8 }),
  'kueue/base/team2-cq.yaml': queue('team2', { 'nvidia-h100-80gb': 6 }),
  [PROD]: 'namePrefix: prod-\nresources:\n  - ../../base\npatches:\n  - path: team1-quota.yaml\n',
  [PROD_PATCH]: queue('team1', { 'nvidia-h100-80gb': 4, 'nvidia-a100-80gb': 8 }),
  [STAGING]: 'namePrefix: staging-\nresources:\n  - ../../base\n',
};

const RAISE_BASE_A100 = edited(REPO, [[TEAM1, "nominalQuota: '8'", "nominalQuota: '12'"]]);

describe('a change in a Kustomize base', () => {
  it('is reported per overlay: staging renders it, prod overrides the value and shows no change, the base name not at all', async () => {
    const result = await detectPr(REPO, RAISE_BASE_A100);
    expect(changeRows(result)).toEqual([
      ['kueue-cluster-queue', 'staging-team1', 10, 14, null, STAGING, lineIn(REPO[STAGING], '../../base')],
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it('that every overlay takes as it is reaches each of them; the model comes from the rendered flavors', async () => {
    const head = edited(REPO, [['kueue/base/team2-cq.yaml', "nominalQuota: '6'", "nominalQuota: '8'"]]);
    // namePrefix renames the flavors but not the queue's references to them: no model, as rendered.
    expect(changeRows(await detectPr(REPO, head))).toEqual([
      ['kueue-cluster-queue', 'prod-team2', 6, 8, null, PROD, lineIn(REPO[PROD], '../../base')],
      ['kueue-cluster-queue', 'staging-team2', 6, 8, null, STAGING, lineIn(REPO[STAGING], '../../base')],
    ]);
    const unprefixed = { ...REPO, [STAGING]: 'resources:\n  - ../../base\n' };
    const rows = changeRows(
      await detectPr(unprefixed, edited(unprefixed, [['kueue/base/team2-cq.yaml', "nominalQuota: '6'", "nominalQuota: '8'"]])),
    );
    expect(rows.map((r) => r.slice(1, 6))).toEqual([
      ['prod-team2', 6, 8, null, PROD],
      ['team2', 6, 8, 'H100', STAGING],
    ]);
  });

  it('is counted once when the PR also edits an overlay patch of the same queue', async () => {
    const head = edited(RAISE_BASE_A100, [[PROD_PATCH, "nominalQuota: '4'", "nominalQuota: '6'"]]);
    const rows = changeRows(await detectPr(REPO, head)).map((r) => r.slice(1, 4));
    expect(rows).toEqual([
      ['prod-team1', 12, 14],
      ['staging-team1', 10, 14],
    ]);
  });

  it('keeps the base name when no overlay includes the base', async () => {
    const alone = Object.fromEntries(Object.entries(REPO).filter(([p]) => !p.includes('/overlays/')));
    const head = edited(alone, [[TEAM1, "nominalQuota: '8'", "nominalQuota: '12'"]]);
    expect(changeRows(await detectPr(alone, head)).map((r) => r.slice(1, 6))).toEqual([['team1', 10, 14, null, TEAM1]]);
  });

  it('ignores overlays that do not include the changed file', async () => {
    const other: Tree = {
      ...REPO,
      'kueue/overlays/dev/kustomization.yaml': 'namePrefix: dev-\nresources:\n  - ../../other\n',
      'kueue/other/kustomization.yaml': 'resources:\n  - q.yaml\n',
      'kueue/other/q.yaml': queue('team1', { 'nvidia-h100-80gb': 1 }),
    };
    const head = edited(other, [[TEAM1, "nominalQuota: '8'", "nominalQuota: '12'"]]);
    expect(changeRows(await detectPr(other, head)).map((r) => r[1])).toEqual(['staging-team1']);
  });

  it(`renders through at most ${MAX_OVERLAYS} overlays, and says so when more include the base`, async () => {
    const dirs = overlayCandidates(TEAM1)
      .filter((d) => d.startsWith('kueue/'))
      .slice(0, MAX_OVERLAYS + 2);
    const many: Tree = { ...REPO };
    delete many[PROD];
    delete many[PROD_PATCH];
    delete many[STAGING];
    dirs.forEach((d, i) => {
      const up = d
        .split('/')
        .slice(1)
        .map(() => '..')
        .join('/');
      many[`${d}/kustomization.yaml`] = `namePrefix: e${i}-\nresources:\n  - ${up}/base\n`;
    });
    const head = edited(many, [[TEAM1, "nominalQuota: '8'", "nominalQuota: '12'"]]);
    const result = await detectPr(many, head);
    expect(result.changes).toHaveLength(MAX_OVERLAYS);
    expect(result.changes.every((c) => /^e\d+-team1$/.test(c.name))).toBe(true);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        file: TEAM1,
        severity: 'info',
        message: match.stringContaining(`more than ${MAX_OVERLAYS} overlays include this file`),
      }),
    ]);
  });
});

describe('overlays in folders of any name', () => {
  const REGIONAL: Tree = {
    ...Object.fromEntries(Object.entries(REPO).filter(([p]) => !p.includes('/overlays/'))),
    'kueue/overlays/us-east-1/kustomization.yaml': 'namePrefix: use1-\nresources:\n  - ../../base\n',
    // One level deeper: clusters/<cluster>/<environment>.
    'kueue/clusters/gke-eu/prod/kustomization.yaml': 'namePrefix: eu-prod-\nresources:\n  - ../../../base\n',
  };
  const head = edited(REGIONAL, [[TEAM1, "nominalQuota: '8'", "nominalQuota: '12'"]]);

  it('are found where the reader lists directories, as the CLI and the App do', async () => {
    expect(changeRows(await detectPr(REGIONAL, head)).map((r) => r.slice(1, 6))).toEqual([
      ['eu-prod-team1', 10, 14, null, 'kueue/clusters/gke-eu/prod/kustomization.yaml'],
      ['use1-team1', 10, 14, null, 'kueue/overlays/us-east-1/kustomization.yaml'],
    ]);
  });

  it('are not found by a reader that cannot list directories: the change keeps the base name', async () => {
    expect(changeRows(await detectPr(REGIONAL, head, false)).map((r) => r.slice(1, 6))).toEqual([['team1', 10, 14, null, TEAM1]]);
  });

  it(`are looked into up to ${MAX_CANDIDATES}, and the rest are named as not looked into`, async () => {
    const crowded: Tree = { ...REGIONAL };
    for (let i = 0; i < MAX_CANDIDATES + 3; i++)
      crowded[`kueue/overlays/cell-${String(i).padStart(2, '0')}/kustomization.yaml`] = 'resources:\n  - ../../other\n';
    const result = await detectPr(crowded, edited(crowded, [[TEAM1, "nominalQuota: '8'", "nominalQuota: '12'"]]));
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        file: TEAM1,
        severity: 'info',
        message: match.stringContaining('5 more overlay kustomizations near this file were not looked into'),
      }),
    ]);
  });
});

describe('a ResourceFlavor in another file', () => {
  const plain: Tree = {
    'kueue/flavors.yaml': FLAVORS,
    'kueue/team1-cq.yaml': queue('team1', { 'nvidia-a100-80gb': 8 }),
    'kueue/mixed-cq.yaml': queue('mixed', { 'nvidia-h100-80gb': 2, 'nvidia-a100-80gb': 8 }),
  };

  it('gives the queue its GPU model and a cost', async () => {
    const head = edited(plain, [['kueue/team1-cq.yaml', "nominalQuota: '8'", "nominalQuota: '12'"]]);
    const { changes } = await detectPr(plain, head);
    expect(changes.map((c) => [c.name, c.gpuModel, c.after?.gpuModel, c.before?.gpuModel])).toEqual([['team1', 'A100', 'A100', 'A100']]);
    expect(changes[0]?.usdPerMonthDelta).toBeGreaterThan(0);
  });

  it('still gives no model when the queue mixes flavors of different models', async () => {
    const head = edited(plain, [['kueue/mixed-cq.yaml', "nominalQuota: '8'", "nominalQuota: '12'"]]);
    expect((await detectPr(plain, head)).changes.map((c) => [c.name, c.gpuModel])).toEqual([['mixed', null]]);
  });

  it("in the queue's own file wins over a same-named one beside it", async () => {
    const own: Tree = {
      ...plain,
      'kueue/team1-cq.yaml': `${flavor('nvidia-a100-80gb', 'NVIDIA-L4')}---\n${plain['kueue/team1-cq.yaml'] ?? ''}`,
    };
    const head = edited(own, [['kueue/team1-cq.yaml', "nominalQuota: '8'", "nominalQuota: '12'"]]);
    expect((await detectPr(own, head)).changes.map((c) => c.gpuModel)).toEqual(['L4']);
  });
});
