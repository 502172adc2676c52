import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

const QUEUE = [
  'apiVersion: kueue.x-k8s.io/v1beta1',
  'kind: ClusterQueue',
  'metadata:',
  '  name: team',
  'spec:',
  '  namespaceSelector: {}',
  '  resourceGroups:',
  '    - coveredResources: ["nvidia.com/gpu"]',
  '      flavors:',
  '        - name: a100',
  '          resources:',
  '            - name: nvidia.com/gpu',
  '              nominalQuota: {{ .Values.gpus }}',
  '',
].join('\n');

/** A parent chart (no templates of its own) whose values set a subchart's GPU quota under `key`; `deps` is its Chart.yaml's dependencies. */
function umbrella(parentValues: string, deps = '', sub = 'queues'): Tree {
  return {
    'charts/platform/Chart.yaml': `apiVersion: v2\nname: platform\nversion: 0.1.0\n${deps}`,
    'charts/platform/values.yaml': parentValues,
    [`charts/platform/charts/${sub}/Chart.yaml`]: 'apiVersion: v2\nname: queues\nversion: 0.1.0\n',
    [`charts/platform/charts/${sub}/values.yaml`]: 'gpus: 0\n',
    [`charts/platform/charts/${sub}/templates/queue.yaml`]: QUEUE,
  };
}

const counts = (r: Awaited<ReturnType<typeof detectPr>>) => r.changes.map((c) => [c.kind, c.gpusBefore, c.gpusAfter]);
const flagged = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.some((c) => c.state === 'not-followed');

describe("a parent chart's values read through its subcharts, as Helm renders them", () => {
  it("sets the subchart's values under its name, its alias, or the globals", async () => {
    const cases: [string, (n: number) => string, string][] = [
      ['by name', (n) => `queues:\n  gpus: ${n}\n`, ''],
      ['by alias', (n) => `gpuq:\n  gpus: ${n}\n`, 'dependencies:\n  - name: queues\n    alias: gpuq\n    version: 0.1.0\n'],
    ];
    for (const [what, values, deps] of cases) {
      const result = await detectPr(umbrella(values(8), deps), umbrella(values(16), deps));
      expect(counts(result), what).toEqual([['kueue-cluster-queue', 8, 16]]);
      expect(flagged(result), what).toBe(false);
    }
  });

  it("reads a changed subchart template with the parent's values, not the subchart's defaults", async () => {
    const base = umbrella('queues:\n  gpus: 8\n');
    const head = {
      ...base,
      'charts/platform/charts/queues/templates/queue.yaml': QUEUE.replace('{{ .Values.gpus }}', '{{ mul .Values.gpus 2 }}'),
    };
    expect(counts(await detectPr(base, head))).toEqual([['kueue-cluster-queue', 8, 16]]);
  });

  it('renders nothing of a subchart its condition turns off', async () => {
    const deps = 'dependencies:\n  - name: queues\n    version: 0.1.0\n    condition: queues.enabled\n';
    const result = await detectPr(
      umbrella('queues:\n  enabled: true\n  gpus: 8\n', deps),
      umbrella('queues:\n  enabled: false\n  gpus: 8\n', deps),
    );
    expect(counts(result)).toEqual([['kueue-cluster-queue', 8, 0]]);
  });

  it('is not followed when a change sizes the values of a dependency not in the tree', async () => {
    const deps = 'dependencies:\n  - name: gpu-pools\n    version: 1.2.0\n    repository: https://charts.example.com\n';
    const tree = (n: number, team = 'ml'): Tree => ({
      'charts/platform/Chart.yaml': `apiVersion: v2\nname: platform\nversion: 0.1.0\n${deps}`,
      'charts/platform/values.yaml': `gpu-pools:\n  replicas: ${n}\n  labels:\n    team: ${team}\n`,
    });
    const result = await detectPr(tree(2), tree(4));
    expect(result.coverage).toEqual([expect.objectContaining({ file: 'charts/platform/values.yaml', state: 'not-followed' })]);
    // A label changed under it sizes nothing, whatever the dependency is called.
    expect(flagged(await detectPr(tree(2), tree(2, 'research')))).toBe(false);
  });

  it('reads an Argo CD Application installing the parent chart through its subcharts', async () => {
    const app = (n: number) =>
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata:',
        '  name: platform',
        'spec:',
        '  source:',
        '    repoURL: https://github.com/acme/platform.git',
        '    path: charts/platform',
        '    helm:',
        '      valuesObject:',
        '        queues:',
        `          gpus: ${n}`,
        '',
      ].join('\n');
    const base = { ...umbrella('queues: {}\n'), 'apps/platform.yaml': app(8) };
    const result = await detectPr(base, { ...base, 'apps/platform.yaml': app(16) });
    expect(counts(result)).toEqual([['kueue-cluster-queue', 8, 16]]);
    expect(flagged(result)).toBe(false);
  });
});
