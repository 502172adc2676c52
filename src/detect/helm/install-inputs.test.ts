import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';
import { setPath } from './gitops-installs.js';

/**
 * What a GitOps install hands a chart besides values files: `--set` keys with escaped dots (the
 * usual way to write `nvidia.com/gpu`), inputs the review cannot read, and a chart whose values
 * leave a pool unbounded. Each shape must read the same count, or be named not followed.
 */

/** A chart of this repository with one Karpenter pool whose limits come whole from values. */
const POOL_CHART: Tree = {
  'charts/gpu-pool/Chart.yaml': 'apiVersion: v2\nname: gpu-pool\nversion: 0.1.0\n',
  'charts/gpu-pool/values.yaml': 'name: gpu-workloads\nlimits: {}\nfamilies: [g5, p5]\n',
  'charts/gpu-pool/templates/nodepool.yaml': [
    'apiVersion: karpenter.sh/v1',
    'kind: NodePool',
    'metadata:',
    '  name: {{ .Values.name }}',
    'spec:',
    '  {{- with .Values.limits }}',
    '  limits:',
    '    {{- toYaml . | nindent 4 }}',
    '  {{- end }}',
    '  template:',
    '    spec:',
    '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
    '      requirements:',
    '        - key: karpenter.k8s.aws/instance-family',
    '          operator: In',
    '          values:',
    '            {{- toYaml .Values.families | nindent 12 }}',
    '',
  ].join('\n'),
};

const argo = (chart: string, helm: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: gpu
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: karpenter
  source:
    repoURL: https://github.com/acme/platform.git
    targetRevision: main
    path: ${chart}
    helm:
${helm}`;

const APP = 'clusters/prod/apps/gpu.yaml';
const PAIRS: [number, number][] = [
  [8, 16],
  [1, 2],
  [0, 24],
  [64, 128],
];

describe('--set keys as Helm reads them', () => {
  it('a backslash takes the next character into the key', () => {
    expect(setPath('limits.nvidia\\.com/gpu', '8')).toEqual({ limits: { 'nvidia.com/gpu': '8' } });
    expect(setPath('a\\.b\\.c.d', 1)).toEqual({ 'a.b.c': { d: 1 } });
    expect(setPath('a\\\\b', 1)).toEqual({ 'a\\b': 1 });
    for (const unread of ['a[0].b', 'a,b', 'a=b', 'a.', '.a', 'a..b', 'a\\']) expect(setPath(unread, 1)).toBeNull();
  });

  // Every way an install sets the pool's GPU limit through an escaped key.
  const SHAPES: Record<string, { file: string; text: (gpus: number) => string }> = {
    'Argo CD parameters': {
      file: APP,
      text: (n) => argo('charts/gpu-pool', `      parameters:\n        - name: limits.nvidia\\.com/gpu\n          value: "${n}"\n`),
    },
    'Argo CD parameters, forceString': {
      file: APP,
      text: (n) =>
        argo(
          'charts/gpu-pool',
          `      parameters:\n        - name: limits.nvidia\\.com/gpu\n          value: "${n}"\n          forceString: true\n`,
        ),
    },
    'Argo CD parameters over valuesObject': {
      file: APP,
      text: (n) =>
        argo(
          'charts/gpu-pool',
          `      valuesObject:\n        limits: {cpu: "100", nvidia.com/gpu: "1"}\n      parameters:\n        - name: "limits.nvidia\\\\.com/gpu"\n          value: "${n}"\n`,
        ),
    },
    'helmfile set': {
      file: 'helmfile.yaml',
      text: (n) =>
        `releases:\n  - name: gpu\n    chart: ./charts/gpu-pool\n    set:\n      - name: limits.nvidia\\.com/gpu\n        value: ${n}\n`,
    },
    'helmfile setString': {
      file: 'helmfile.yaml',
      text: (n) =>
        `releases:\n  - name: gpu\n    chart: ./charts/gpu-pool\n    setString:\n      - name: limits.nvidia\\.com/gpu\n        value: "${n}"\n`,
    },
  };
  for (const [shape, { file, text }] of Object.entries(SHAPES)) {
    it(`${shape}: the limit is counted`, async () => {
      for (const [from, to] of PAIRS) {
        const result = await detectPr({ ...POOL_CHART, [file]: text(from) }, { ...POOL_CHART, [file]: text(to) });
        expect(changeRows(result).map((r) => [r[0], r[1], r[2], r[3], r[5]])).toEqual([
          ['karpenter-nodepool', 'gpu-workloads', from, to, file],
        ]);
      }
    });
  }
});

describe('inputs an install hands the chart that the review cannot read', () => {
  // Each gives the chart one GPU number the review cannot read (`N`): when that number changes, the
  // install is not followed; when only what the chart is not given changes (a label), it stays read.
  const label = (text: string, indent: string, after: string) => text.replace(after, `${after}${indent}labels: {tier: gold}\n`);
  const SHAPES: Record<string, { file: string; text: (n: number) => string; beside: (text: string) => string }> = {
    'Argo CD parameter with a list index': {
      file: APP,
      text: (n) => argo('charts/queues', `      parameters:\n        - name: queue.flavors[0].gpus\n          value: "${n}"\n`),
      beside: (t) => label(t, '  ', 'metadata:\n'),
    },
    'Argo CD fileParameters': {
      file: APP,
      text: (n) => argo('charts/queues', `      fileParameters:\n        - name: queue.gpus\n          path: files/gpus-${n}.txt\n`),
      beside: (t) => label(t, '  ', 'metadata:\n'),
    },
    'Flux valuesFrom': {
      file: APP,
      text: (n) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: queues
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/queues
      sourceRef: {kind: GitRepository, name: platform}
  valuesFrom:
    - kind: ConfigMap
      name: queue-sizes
      valuesKey: gpus-${n}.yaml
`,
      beside: (t) => label(t, '  ', 'metadata:\n'),
    },
    'helmfile set with a list index': {
      file: 'helmfile.yaml',
      text: (n) => `releases:\n  - name: queues\n    chart: ./charts/queues\n    set:\n      - name: queue.sizes[0]\n        value: ${n}\n`,
      beside: (t) => label(t, '    ', '  - name: queues\n'),
    },
  };
  for (const [shape, { file, text, beside }] of Object.entries(SHAPES)) {
    it(`${shape}: a change to it is not followed, a change beside it is read`, async () => {
      for (const [from, to] of PAIRS) {
        const changed = await detectPr({ ...QUEUE_CHART, [file]: text(from) }, { ...QUEUE_CHART, [file]: text(to) });
        expect(changed.coverage).toEqual([expect.objectContaining({ file, state: 'not-followed' })]);
        const same = await detectPr({ ...QUEUE_CHART, [file]: text(from) }, { ...QUEUE_CHART, [file]: beside(text(from)) });
        expect(same.coverage).toEqual([expect.objectContaining({ file, state: 'read' })]);
      }
    });
  }
});

describe("a chart's values that leave a pool with no GPU limit", () => {
  const VALUES = 'charts/gpu-pool/values.yaml';
  const bounded = (n: number) => `name: gpu-workloads\nlimits:\n  nvidia.com/gpu: "${n}"\nfamilies: [g5, p5]\n`;
  // Every way the values can drop the limit the pool had.
  const UNBOUNDED: Record<string, string> = {
    'limits removed': 'name: gpu-workloads\nfamilies: [g5, p5]\n',
    'limits emptied': 'name: gpu-workloads\nlimits: {}\nfamilies: [g5, p5]\n',
    'only a CPU limit': 'name: gpu-workloads\nlimits:\n  cpu: "1000"\nfamilies: [g5, p5]\n',
    'another resource': 'name: gpu-workloads\nlimits:\n  amd.com/gpu: "8"\nfamilies: [g5, p5]\n',
    'limit set to null': 'name: gpu-workloads\nlimits:\n  nvidia.com/gpu: null\nfamilies: [g5, p5]\n',
  };
  for (const [shape, text] of Object.entries(UNBOUNDED)) {
    it(`${shape}: the values file is not followed`, async () => {
      for (const [from] of PAIRS) {
        const r = await detectPr({ ...POOL_CHART, [VALUES]: bounded(from) }, { ...POOL_CHART, [VALUES]: text });
        expect(r.changes).toEqual([]);
        expect(r.coverage).toEqual([expect.objectContaining({ file: VALUES, state: 'not-followed' })]);
      }
    });
  }

  it('unbounded at both sides, a change beside the limit is no change', async () => {
    const r = await detectPr(POOL_CHART, { ...POOL_CHART, [VALUES]: 'name: gpu-workloads\nlimits: {}\nfamilies: [g5, p5, g6]\n' });
    expect(r.changes).toEqual([]);
    expect(r.coverage).toEqual([expect.objectContaining({ file: VALUES, state: 'read' })]);
  });
});
