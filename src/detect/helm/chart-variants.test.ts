import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * The same capacity written every way a chart carries it: plain manifests, a chart template over
 * its values (through helpers, `range`, `with`, `default`), the chart installed by an Argo CD
 * Application's `valuesObject` and by a Flux HelmRelease's `values`. Each must give the same GPU
 * change, or be not followed; never another count.
 */
type Pools = Record<string, number>;

const nodePool = (name: string, gpus: number) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
    spec:
      requirements:
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: ["p5"]
  limits:
    nvidia.com/gpu: ${gpus}
`;

const clusterQueue = (name: string, gpus: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${name}
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: h100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;

const HELPERS = `{{- define "gpu.name" -}}
{{ .root.Release.Name | trunc 20 }}-{{ .name }}
{{- end }}
{{- define "gpu.labels" }}
app.kubernetes.io/name: {{ .Chart.Name }}
{{- end }}
{{- define "gpu.limit" -}}
nvidia.com/gpu: {{ .gpus | default 8 | int }}
{{- end }}
`;

const TEMPLATES = {
  nodepools: `{{- range $name, $pool := .Values.pools }}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: {{ include "gpu.name" (dict "root" $ "name" $name) }}
  labels: {{- include "gpu.labels" $ | nindent 4 }}
spec:
  template:
    spec:
      requirements:
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: {{ toJson (list "p5") }}
  {{- with $pool }}
  limits:
    {{- include "gpu.limit" . | nindent 4 }}
  {{- end }}
{{- end }}
`,
  queues: `{{- range $name, $q := .Values.pools }}
{{- if gt (int $q.gpus) 0 }}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: {{ printf "%s-%s" $.Release.Name $name | quote }}
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: h100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: {{ $q.gpus }}
{{- end }}
{{- end }}
`,
};

type Kind = keyof typeof TEMPLATES;

const valuesYaml = (pools: Pools, indent: string) =>
  Object.entries(pools)
    .map(([name, gpus]) => `${indent}${name}:\n${indent}  gpus: ${gpus}\n`)
    .join('');

function chart(kind: Kind, pools: Pools | null): Tree {
  return {
    'charts/gpu/Chart.yaml': 'apiVersion: v2\nname: gpu\nversion: 0.1.0\n',
    'charts/gpu/values.yaml': pools === null ? 'pools: {}\n' : `pools:\n${valuesYaml(pools, '  ')}`,
    'charts/gpu/templates/_helpers.tpl': HELPERS,
    [`charts/gpu/templates/${kind}.yaml`]: TEMPLATES[kind],
  };
}

const SHAPES: Record<string, (kind: Kind, pools: Pools) => Tree> = {
  plain: (kind, pools) => ({
    'manifests/gpu.yaml': Object.entries(pools)
      .filter(([, gpus]) => kind === 'nodepools' || gpus > 0)
      .map(([name, gpus]) => (kind === 'nodepools' ? nodePool(name, gpus) : clusterQueue(name, gpus)))
      .join('---\n'),
  }),
  'chart values': (kind, pools) => chart(kind, pools),
  'argo valuesObject': (kind, pools) => ({
    ...chart(kind, null),
    'apps/gpu.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: gpu
spec:
  source:
    repoURL: https://github.com/acme/platform.git
    path: charts/gpu
    helm:
      valuesObject:
        pools:
${valuesYaml(pools, '          ')}`,
  }),
  'flux values': (kind, pools) => ({
    ...chart(kind, null),
    'clusters/prod/gpu.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: gpu
spec:
  chart:
    spec:
      chart: ./charts/gpu
      sourceRef: {kind: GitRepository, name: flux-system}
  values:
    pools:
${valuesYaml(pools, '      ')}`,
  }),
};

/** A small deterministic generator: pools added, removed, grown and shrunk. */
function* cases(): Generator<[Pools, Pools]> {
  let seed = 7;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 16) % n;
  };
  for (let i = 0; i < 6; i++) {
    const base: Pools = {};
    const head: Pools = {};
    for (const name of ['alpha', 'beta', 'gamma'].slice(0, 1 + rand(3))) {
      if (rand(4) > 0) base[name] = 8 * (1 + rand(4));
      if (rand(4) > 0) head[name] = 8 * (1 + rand(4));
    }
    yield [base, head];
  }
}

async function delta(base: Tree, head: Tree): Promise<number | 'not followed'> {
  const result = await detectPr(base, head);
  if (result.coverage.some((c) => c.state === 'not-followed')) return 'not followed';
  return result.changes.reduce((s, c) => s + c.gpusAfter - c.gpusBefore, 0);
}

describe.each(['nodepools', 'queues'] as const)('%s written every way', (kind) => {
  it('gives the same GPU change from every shape', async () => {
    const all = [...cases()];
    // The generator makes real changes: pools added, removed and resized.
    expect(all.filter(([b, h]) => JSON.stringify(b) !== JSON.stringify(h)).length).toBeGreaterThan(3);
    for (const [base, head] of all) {
      const expected = Object.values(head).reduce((s, g) => s + g, 0) - Object.values(base).reduce((s, g) => s + g, 0);
      const got: Record<string, number | 'not followed'> = {};
      for (const [name, shape] of Object.entries(SHAPES)) got[name] = await delta(shape(kind, base), shape(kind, head));
      expect({ base, head, got }).toEqual({ base, head, got: Object.fromEntries(Object.keys(SHAPES).map((k) => [k, expected])) });
    }
  }, 120_000);
});
