import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { PARSERS } from '../registry.js';
import { kustomizeParser } from './kustomize-parser.js';
import { RENDER_BUDGET } from './render.js';
import { changeRows, detectPr, edited, lineIn } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

const BASE_QUEUE = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: h100
spec:
  nodeLabels:
    cloud.google.com/gke-accelerator: nvidia-h100-80gb
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: training
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu", "memory", "nvidia.com/gpu"]
      flavors:
        - name: h100
          resources:
            - name: cpu
              nominalQuota: 200
            - name: memory
              nominalQuota: 1600Gi
            - name: nvidia.com/gpu
              nominalQuota: 8
`;

const BASE_POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  limits:
    cpu: 1000
    nvidia.com/gpu: 16
  template:
    spec:
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["p4d.24xlarge"]
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
`;

const INLINE_SMP = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
patches:
  - patch: |-
      apiVersion: kueue.x-k8s.io/v1beta1
      kind: ClusterQueue
      metadata:
        name: training
      spec:
        resourceGroups:
          - coveredResources: ["cpu", "memory", "nvidia.com/gpu"]
            flavors:
              - name: h100
                resources:
                  - name: cpu
                    nominalQuota: 400
                  - name: memory
                    nominalQuota: 3200Gi
                  - name: nvidia.com/gpu
                    nominalQuota: 16
`;

function repo(overlay: Record<string, string>, base: Record<string, string> = { 'queues.yaml': BASE_QUEUE }): Tree {
  const tree: Tree = {
    'base/kustomization.yaml': `resources:\n${Object.keys(base)
      .map((f) => `  - ${f}`)
      .join('\n')}\n`,
  };
  for (const [f, text] of Object.entries(base)) tree[`base/${f}`] = text;
  for (const [f, text] of Object.entries(overlay)) tree[`overlays/prod/${f}`] = text;
  return tree;
}

const K = 'overlays/prod/kustomization.yaml';

describe('Kustomize patches on ClusterQueues', () => {
  it('an inline strategic-merge patch raising the GPU quota 16 → 24: rendered over the base, at the patch line', async () => {
    const base = repo({ 'kustomization.yaml': INLINE_SMP });
    const head = edited(base, [[K, 'nominalQuota: 16', 'nominalQuota: 24']]);
    const result = await detectPr(base, head);
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'training', 16, 24, 'H100', K, lineIn(head[K], 'nominalQuota: 24')]]);
    expect(result.diagnostics).toEqual([]);
  });

  it('adding a patch file compares with what the overlay rendered before: the base quota, not 0', async () => {
    const before = repo({ 'kustomization.yaml': 'resources:\n  - ../../base\n' });
    const patch = `- op: replace\n  path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota\n  value: 32\n`;
    const head: Tree = {
      ...before,
      [K]: 'resources:\n  - ../../base\npatches:\n  - path: gpu-quota.yaml\n    target:\n      kind: ClusterQueue\n      name: training\n',
      'overlays/prod/gpu-quota.yaml': patch,
    };
    const result = await detectPr(before, head);
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'training', 8, 32, 'H100', 'overlays/prod/gpu-quota.yaml', 3]]);
  });

  it('legacy patchesStrategicMerge and patchesJson6902 fields, and namePrefix', async () => {
    const smpFile = INLINE_SMP.split('\n')
      .slice(6)
      .map((l) => l.slice(6))
      .join('\n');
    const base = repo({
      'kustomization.yaml': 'namePrefix: prod-\nresources:\n  - ../../base\npatchesStrategicMerge:\n  - queue-patch.yaml\n',
      'queue-patch.yaml': smpFile,
    });
    const head = edited(base, [['queue-patch.yaml', 'nominalQuota: 16', 'nominalQuota: 20']]);
    const smp = await detectPr(base, head);
    // namePrefix renames the ResourceFlavor too, but kustomize does not know the queue refers to
    // it: the rendered queue names a flavor `h100` that no longer exists, so no model.
    expect(changeRows(smp)).toEqual([
      [
        'kueue-cluster-queue',
        'prod-training',
        16,
        20,
        null,
        'overlays/prod/queue-patch.yaml',
        lineIn(head['overlays/prod/queue-patch.yaml'], 'nominalQuota: 20'),
      ],
    ]);

    const json = repo({
      'kustomization.yaml':
        'resources:\n  - ../../base\npatchesJson6902:\n  - target:\n      group: kueue.x-k8s.io\n      version: v1beta1\n      kind: ClusterQueue\n      name: training\n    patch: |-\n      - op: replace\n        path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota\n        value: 12\n',
    });
    const jsonHead = edited(json, [[K, 'value: 12', 'value: 10']]);
    expect(changeRows(await detectPr(json, jsonHead))).toEqual([
      ['kueue-cluster-queue', 'training', 12, 10, 'H100', K, lineIn(jsonHead[K], 'value: 10')],
    ]);
  });

  it('a base change is reported as the overlay including the base renders it, at its resources entry, counted once', async () => {
    const base = repo({ 'kustomization.yaml': 'resources:\n  - ../../base\n' });
    const head = edited(base, [['base/queues.yaml', 'nominalQuota: 8', 'nominalQuota: 10']]);
    expect(changeRows(await detectPr(base, head))).toEqual([
      ['kueue-cluster-queue', 'training', 8, 10, 'H100', K, lineIn(head[K], '../../base')],
    ]);
  });

  it('a JSON patch on a remote base cannot be computed: a warning at its line, no number', async () => {
    const k =
      'resources:\n  - https://github.com/example/platform//kueue/base?ref=v1.2.0\npatches:\n  - target:\n      kind: ClusterQueue\n      name: training\n    patch: |-\n      - op: replace\n        path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota\n        value: 16\n';
    const base: Tree = { [K]: k };
    const head = edited(base, [[K, 'value: 16', 'value: 32']]);
    const result = await detectPr(base, head);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file: K,
        line: lineIn(head[K], 'value: 32'),
        severity: 'warning',
        message:
          'ClusterQueue training: this patch changes its GPU quota, but its base (https://github.com/example/platform//kueue/base?ref=v1.2.0 (remote)) could not be read, so the GPU count after the patch is unknown',
      },
    ]);
  });

  it('a strategic-merge patch replaces resourceGroups whole, so it is counted without its remote base, and says so', async () => {
    const k = INLINE_SMP.replace('  - ../../base', '  - https://github.com/example/platform//kueue/base?ref=v1.2.0');
    const base: Tree = { [K]: k };
    const head = edited(base, [[K, 'nominalQuota: 16', 'nominalQuota: 24']]);
    const result = await detectPr(base, head);
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'training', 16, 24, null, K, lineIn(head[K], 'nominalQuota: 24')]]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'info',
        line: lineIn(head[K], 'nominalQuota: 24'),
        message: match.stringContaining('counted from the patch alone'),
      }),
    ]);
  });

  it('openapi merge keys make list merging unknowable: warned, not computed', async () => {
    const base = repo({ 'kustomization.yaml': `openapi:\n  path: schema.json\n${INLINE_SMP}` });
    const head = edited(base, [[K, 'nominalQuota: 16', 'nominalQuota: 24']]);
    const result = await detectPr(base, head);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics.map((d) => [d.line, d.severity, d.message])).toEqual([
      [lineIn(head[K], 'nominalQuota: 24'), 'warning', expect.stringContaining('openapi or mergeKeys')],
    ]);
  });

  it('a JSON patch that does not apply to the base is a warning at the patch, never a number', async () => {
    const k = (index: number) =>
      `resources:\n  - ../../base\npatches:\n  - target:\n      kind: Cluster.*\n      name: train.*\n    patch: |-\n      - op: replace\n        path: /spec/resourceGroups/0/flavors/0/resources/${index}/nominalQuota\n        value: 16\n`;
    const base = repo({ 'kustomization.yaml': k(2) });
    const ok = edited(base, [[K, 'value: 16', 'value: 20']]);
    expect(changeRows(await detectPr(base, ok)).map((r) => r.slice(1, 4))).toEqual([['training', 16, 20]]);
    const broken = edited(base, [[K, 'resources/2/nominalQuota', 'resources/5/nominalQuota']]);
    const result = await detectPr(base, broken);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file: K,
        line: lineIn(broken[K], 'value: 16'),
        severity: 'warning',
        message:
          'ClusterQueue training: the JSON patch does not apply (operation 1 (replace /spec/resourceGroups/0/flavors/0/resources/5/nominalQuota): the parent does not exist); the GPU count after the patch is unknown',
      },
      {
        file: K,
        line: lineIn(broken[K], 'value: 16'),
        severity: 'error',
        message:
          'training: the GPU count after this change could not be read (it was 16 GPUs at overlays/prod/kustomization.yaml:10), so the change is unknown',
      },
    ]);
  });

  it('a Kueue install overlay patching only RBAC and config is not capacity', async () => {
    const k =
      'namespace: kueue-system\nresources:\n- "https://github.com/kubernetes-sigs/kueue/config/default?ref=v0.8.1"\npatches:\n- target:\n    kind: ClusterRole\n    name: manager-role\n  patch: |\n    - op: add\n      path: /rules/-\n      value:\n        apiGroups: [workload.codeflare.dev]\n        resources: [appwrappers]\n        verbs: [get, list, watch]\n';
    const head = edited({ 'kueue/kustomization.yaml': k }, [['kueue/kustomization.yaml', 'v0.8.1', 'v0.9.0']]);
    expect(await detectPr({ 'kueue/kustomization.yaml': k }, head)).toMatchObject({ changes: [], diagnostics: [] });
  });
});

describe('Kustomize patches on Karpenter NodePools', () => {
  it('a patch file raising the GPU limit, base in the repository', async () => {
    const patch = 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: gpu\nspec:\n  limits:\n    nvidia.com/gpu: 32\n';
    const base = repo(
      { 'kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - path: limits.yaml\n', 'limits.yaml': patch },
      { 'pool.yaml': BASE_POOL },
    );
    const head = edited(base, [['limits.yaml', 'nvidia.com/gpu: 32', 'nvidia.com/gpu: 48']]);
    const result = await detectPr(base, head);
    expect(changeRows(result)).toEqual([['karpenter-nodepool', 'gpu', 32, 48, 'A100', 'overlays/prod/limits.yaml', 7]]);
  });

  it('a JSON patch adding a GPU limit to an unbounded pool says it was unbounded', async () => {
    const pool = BASE_POOL.replace('    nvidia.com/gpu: 16\n', '');
    const before = repo({ 'kustomization.yaml': 'resources:\n  - ../../base\n' }, { 'pool.yaml': pool });
    const head = edited(before, [
      [
        K,
        'resources:\n  - ../../base\n',
        'resources:\n  - ../../base\npatches:\n  - target: {kind: NodePool, name: gpu}\n    patch: |-\n      - op: add\n        path: /spec/limits/nvidia.com~1gpu\n        value: 24\n',
      ],
    ]);
    const result = await detectPr(before, head);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file: K,
        line: lineIn(head[K], 'value: 24'),
        severity: 'warning',
        message: `gpu: the pool was unbounded before this change (no nvidia.com/gpu limit at ${K}:2); it is now limited to 24 GPUs`,
      },
    ]);
  });
});

describe('kustomizeParser', () => {
  it('names the files a kustomization reads: bases, resource files, patch files; not remote ones', () => {
    const text =
      'resources:\n  - ../../base\n  - extra.yaml\n  - https://github.com/x/y//z?ref=v1\npatches:\n  - path: p.yaml\npatchesStrategicMerge:\n  - q.yaml\n  - |-\n    kind: ClusterQueue\n';
    expect(kustomizeParser([]).references?.({ path: K, text })).toEqual([
      'base/kustomization.yaml',
      'base/kustomization.yml',
      'base/Kustomization',
      'overlays/prod/extra.yaml',
      'overlays/prod/p.yaml',
      'overlays/prod/q.yaml',
    ]);
  });

  it('an unreadable kustomization is one error at its line', () => {
    const r = kustomizeParser([]).parse(K, 'resources: ../../base\n');
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        file: K,
        line: 1,
        severity: 'error',
        message: match.stringContaining('kustomization could not be read: resources'),
      }),
    ]);
  });
});

describe('a kustomization that would hold the parser', () => {
  const parser = PARSERS.find((p) => p.id === 'kustomize');
  const queues = (n: number) =>
    Array.from({ length: n }, (_, i) => BASE_QUEUE.split('---\n')[1]?.replace('name: training', `name: team-${i}`) ?? '').join('---\n');
  const errors = (files: Record<string, string>) =>
    (parser?.parseSet?.(Object.entries(files).map(([path, text]) => ({ path, text }))).diagnostics ?? []).filter(
      (d) => d.severity === 'error',
    );

  it(`goes past its budget (${RENDER_BUDGET.steps.toLocaleString('en-US')} steps) and is not followed, naming the budget`, () => {
    // Each patch selects every queue by a pattern: patches × queues × patch size.
    const patch = `  - target: {kind: ClusterQueue, name: "team-.*"}\n    patch: '[{op: replace, path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota, value: 9}]'\n`;
    const found = errors({
      'base/kustomization.yaml': 'resources:\n  - queues.yaml\n',
      'base/queues.yaml': queues(500),
      [K]: `resources:\n  - ../../base\npatches:\n${patch.repeat(400)}`,
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: K,
          message: match.stringContaining(
            `is not followed: its patches take more than ${RENDER_BUDGET.steps.toLocaleString('en-US')} steps`,
          ),
        }),
      ]),
    );
  });

  // A backtracking engine would not return from this test: vitest's timeout fails it then.
  it('selects with a pattern Go runs in linear time, where a backtracking engine would not return', () => {
    const found = errors({
      'base/kustomization.yaml': 'resources:\n  - queues.yaml\n',
      'base/queues.yaml': queues(50).replace(/team-(\d+)/g, `team-${'a'.repeat(40)}$1`),
      [K]: `resources:\n  - ../../base\npatches:\n  - target: {kind: ClusterQueue, name: "(a+)+b"}\n    patch: '[{op: replace, path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota, value: 9}]'\n`,
    });
    expect(found).toEqual([]);
  });

  it('with a target pattern kustomize rejects, or one not run here, is not followed', () => {
    for (const name of ['team-(', '(?i)TEAM-0']) {
      const found = errors({
        'base/kustomization.yaml': 'resources:\n  - queues.yaml\n',
        'base/queues.yaml': queues(2),
        [K]: `resources:\n  - ../../base\npatches:\n  - target: {kind: ClusterQueue, name: "${name}"}\n    patch: '[{op: replace, path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota, value: 9}]'\n`,
      });
      expect(found, name).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: K, line: 5, message: match.stringContaining(`the patch target's name ${JSON.stringify(name)}`) }),
        ]),
      );
    }
  });
});

describe('replacements writing GPU fields (variants: replacements.test.ts)', () => {
  const values = (gpus: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sizes\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  gpus: "${gpus}"\n  cpus: "200"\n`;
  const kustomization = `resources:\n  - queue.yaml\n  - sizes.yaml\nreplacements:\n  - source: {kind: ConfigMap, name: sizes, fieldPath: data.gpus}\n    targets:\n      - select: {kind: ClusterQueue, name: training}\n        fieldPaths: [spec.resourceGroups.0.flavors.0.resources.2.nominalQuota]\n`;
  const tree = (queue: string, gpus: string): Tree => ({
    'q/kustomization.yaml': kustomization,
    'q/queue.yaml': queue,
    'q/sizes.yaml': values(gpus),
  });
  const notFollowed = (r: Awaited<ReturnType<typeof detectPr>>) =>
    r.coverage.filter((c) => c.state === 'not-followed').map((c) => [c.file, c.notFollowed?.map((n) => n.reason)]);

  it('a changed quota they overwrite is no change: the object renders with the copied value', async () => {
    const base = tree(BASE_QUEUE, '8');
    const head = edited(base, [['q/queue.yaml', 'nominalQuota: 8', 'nominalQuota: 16']]);
    const result = await detectPr(base, head);
    expect(changeRows(result)).toEqual([]);
    expect(notFollowed(result)).toEqual([]);
  });

  it("a changed value they copy is the object's change, at the replacement", async () => {
    const result = await detectPr(tree(BASE_QUEUE, '8'), tree(BASE_QUEUE, '24'));
    expect(changeRows(result).map((r) => [r[1], r[2], r[3], r[5], r[6]])).toEqual([['training', 8, 24, 'q/kustomization.yaml', 5]]);
    expect(notFollowed(result)).toEqual([]);
  });

  it('a file the object is not in that is no input of them, changed, is left alone', async () => {
    const base = { ...tree(BASE_QUEUE, '8'), 'q/notes.yaml': 'a: 1\n' };
    const result = await detectPr(base, { ...base, 'q/notes.yaml': 'a: 2\n' });
    expect(notFollowed(result)).toEqual([]);
  });
});
