import { describe, expect, it } from 'vitest';
import type { RealCase } from '../real-cases.js';
import type { Tree } from '../real-fixtures.js';
import type { Rewrite } from './rewrite.js';
import { REWRITES } from './rewrites.js';
import { replaceEach, stem, zeroedChart } from './families/helm-values.js';
import { dirOf, join } from './shapes/kube-files.js';
import { detectVariant, plain } from './variant-tree.js';

/*
 * Capacity carried in chart values: a Kubermatic MachineDeployment, a Karpenter NodePool and a
 * Kueue ClusterQueue, each made a chart's template whose numbers its values.yaml sets to 0, and
 * installed with the numbers by every spelling of chart values (value files, Argo CD parameters,
 * `values` string, `valuesObject`, subchart values, Flux `values` and `valuesFrom`, kustomize
 * `helmCharts`). Whether the pull request changes a string of the template (the machine type, the
 * GPU resource) or a number of the install, the review counts what the install renders, or names
 * what it cannot read; a change no install turns into GPUs stays "no change".
 */

const MACHINES = (type: string, replicas: number) => `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineDeployment
metadata:
  name: gpu-workers
  namespace: kube-system
spec:
  replicas: ${String(replicas)}
  selector:
    matchLabels:
      name: gpu-workers
  template:
    metadata:
      labels:
        name: gpu-workers
    spec:
      providerSpec:
        value:
          cloudProvider: "aws"
          cloudProviderSpec:
            region: "eu-central-1"
            instanceType: "${type}"
            diskSize: 50
          operatingSystem: "ubuntu"
      versions:
        kubelet: 1.33.4
`;

const NODE_POOL = (resource: string, gpus: number, cpu = 1000) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: inference
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["g5.xlarge"]
  limits:
    cpu: ${String(cpu)}
    ${resource}: ${String(gpus)}
`;

const QUEUE = (resource: string, quota: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu", "${resource}"]
      flavors:
        - name: a100
          resources:
            - name: cpu
              nominalQuota: 64
            - name: ${resource}
              nominalQuota: ${String(quota)}
`;

interface CarriedCase {
  what: string;
  file: string;
  before: string;
  after: string;
  /** [kind, GPUs before, GPUs after]; empty for no change. */
  expect: [string, number, number][];
}

const CASES: CarriedCase[] = [
  {
    what: 'MachineDeployment type t3.large → p3.8xlarge',
    file: 'machines/workers.yaml',
    before: MACHINES('t3.large', 2),
    after: MACHINES('p3.8xlarge', 2),
    expect: [['capi-machinedeployment', 0, 8]],
  },
  {
    what: 'MachineDeployment replicas 2 → 3 on p3.8xlarge',
    file: 'machines/workers.yaml',
    before: MACHINES('p3.8xlarge', 2),
    after: MACHINES('p3.8xlarge', 3),
    expect: [['capi-machinedeployment', 8, 12]],
  },
  {
    what: 'MachineDeployment replicas 2 → 3 on t3.large (negative control)',
    file: 'machines/workers.yaml',
    before: MACHINES('t3.large', 2),
    after: MACHINES('t3.large', 3),
    expect: [],
  },
  {
    // A quoted quantity stays in the template: the pull request changes the template.
    what: 'NodePool nvidia.com/gpu limit "8" → "16", quoted',
    file: 'karpenter/inference.yaml',
    before: NODE_POOL('nvidia.com/gpu', 8).replace('gpu: 8', 'gpu: "8"'),
    after: NODE_POOL('nvidia.com/gpu', 16).replace('gpu: 16', 'gpu: "16"'),
    expect: [['karpenter-nodepool', 8, 16]],
  },
  {
    what: 'NodePool nvidia.com/gpu limit 8 → 16',
    file: 'karpenter/inference.yaml',
    before: NODE_POOL('nvidia.com/gpu', 8),
    after: NODE_POOL('nvidia.com/gpu', 16),
    expect: [['karpenter-nodepool', 8, 16]],
  },
  {
    what: 'NodePool cpu limit 1000 → 2000 beside its GPU limit (negative control)',
    file: 'karpenter/inference.yaml',
    before: NODE_POOL('nvidia.com/gpu', 8),
    after: NODE_POOL('nvidia.com/gpu', 8, 2000),
    expect: [],
  },
  {
    what: 'ClusterQueue resource example.com/fpga → nvidia.com/gpu',
    file: 'queues/research.yaml',
    before: QUEUE('example.com/fpga', 8),
    after: QUEUE('nvidia.com/gpu', 8),
    expect: [['kueue-cluster-queue', 0, 8]],
  },
  {
    what: 'ClusterQueue nvidia.com/gpu quota 8 → 16',
    file: 'queues/research.yaml',
    before: QUEUE('nvidia.com/gpu', 8),
    after: QUEUE('nvidia.com/gpu', 16),
    expect: [['kueue-cluster-queue', 8, 16]],
  },
  {
    what: 'ClusterQueue example.com/fpga quota 8 → 16 (negative control)',
    file: 'queues/research.yaml',
    before: QUEUE('example.com/fpga', 8),
    after: QUEUE('example.com/fpga', 16),
    expect: [],
  },
];

const release = (name: string, chart: string, tail: readonly string[]) =>
  [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    `  name: ${name}`,
    '  namespace: flux-system',
    'spec:',
    '  interval: 10m',
    '  chart:',
    '    spec:',
    `      chart: ./${chart}`,
    '      sourceRef:',
    '        kind: GitRepository',
    '        name: flux-system',
    ...tail,
    '',
  ].join('\n');

/** Flux `valuesFrom` a ConfigMap in a file of its own beside the release (the PR changes only it). */
const fluxValuesFromFile: Rewrite = {
  id: 'flux-values-from-own-file',
  what: 'the numbers in a ConfigMap of its own file, read by a HelmRelease beside it',
  apply: (sides) =>
    replaceEach(sides, (path, text): Tree => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const t = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      return {
        ...t.files,
        [join(dirOf(path), `gj-values-${stem(path)}.yaml`)]: [
          'apiVersion: v1',
          'kind: ConfigMap',
          'metadata:',
          `  name: gj-values-${stem(path)}`,
          '  namespace: flux-system',
          'data:',
          '  sizes: |',
          ...(t.values.length === 0 ? ['    {}'] : t.values.map(([k, v]) => `    ${k}: ${String(v)}`)),
          '',
        ].join('\n'),
        [join(dirOf(path), `gj-release-${stem(path)}.yaml`)]: release(`gj-${stem(path)}`, chart, [
          '  valuesFrom:',
          '    - kind: ConfigMap',
          `      name: gj-values-${stem(path)}`,
          '      valuesKey: sizes',
        ]),
      };
    }),
};

/** kustomize `helmCharts` with the numbers in a `valuesFile` beside the kustomization. */
const kustomizeValuesFile: Rewrite = {
  id: 'kustomize-helm-values-file',
  what: "the numbers in a kustomization's `helmCharts` `valuesFile`",
  apply: (sides) =>
    replaceEach(sides, (path, text): Tree => {
      const name = `gj-${stem(path)}`;
      const dir = join(dirOf(path), `gj-inflate-${stem(path)}`);
      const t = zeroedChart(path, text, join(dir, `charts/${name}`), name);
      return {
        ...t.files,
        [join(dir, 'sizes.yaml')]: t.values.map(([k, v]) => `${k}: ${String(v)}\n`).join('') || '{}\n',
        [join(dir, 'kustomization.yaml')]: [
          'apiVersion: kustomize.config.k8s.io/v1beta1',
          'kind: Kustomization',
          'helmCharts:',
          `  - name: ${name}`,
          `    releaseName: ${name}`,
          '    valuesFile: sizes.yaml',
          '',
        ].join('\n'),
      };
    }),
};

const SPELLINGS: readonly Rewrite[] = [
  ...[
    'helm-two-value-files',
    'argocd-helm-parameters',
    'argocd-values-object',
    'argocd-values-string',
    'argocd-subchart-values',
    'flux-helmrelease-values',
    'flux-values-from',
    'kustomize-helm-charts',
  ].map((id) => {
    const found = REWRITES.find((r) => r.id === id);
    if (found === undefined) throw new Error(`no rewrite ${id}`);
    return found;
  }),
  fluxValuesFromFile,
  kustomizeValuesFile,
];

async function review(c: CarriedCase, spelling: Rewrite) {
  const sides = { base: plain({ [c.file]: c.before }), head: plain({ [c.file]: c.after }) };
  const variant = await spelling.apply(sides, { id: c.what } as RealCase, () => 0.5);
  if (variant === null) throw new Error(`${spelling.id} does not apply to ${c.what}`);
  const r = await detectVariant(variant);
  const totals = new Map<string, [number, number]>();
  for (const x of r.changes) {
    const [b, a] = totals.get(x.kind) ?? [0, 0];
    totals.set(x.kind, [b + x.gpusBefore, a + x.gpusAfter]);
  }
  const rows = [...totals].filter(([, [b, a]]) => b !== a).map(([k, [b, a]]) => [k, b, a]);
  const flagged = r.coverage.some((f) => f.state === 'not-followed') || r.diagnostics.some((d) => d.severity === 'error');
  return { rows, flagged };
}

describe('capacity carried in chart values, in every spelling', () => {
  const pairs = CASES.flatMap((c) => SPELLINGS.map((s) => [c, s] as const));
  it.each(pairs.map(([c, s]) => [`${c.what} / ${s.id}`, c, s] as const))('%s', async (_, c, spelling) => {
    const { rows, flagged } = await review(c, spelling);
    // Counted as the install renders it, and nothing left unread.
    expect({ rows, flagged }).toEqual({ rows: c.expect, flagged: false });
  });
});
