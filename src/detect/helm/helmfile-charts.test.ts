import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';

const CHART = QUEUE_CHART;
const values = (gpus: number) => `queue:\n  gpus: ${gpus}\n`;

/**
 * Every way a helmfile or a kustomization installs the chart with one values file (`V`), and where
 * its inline values (`I`) go: each must read the same.
 */
const SHAPES: Record<string, { file: string; values: string; text: (inline: number) => string }> = {
  'helmfile.yaml': {
    file: 'helmfile.yaml',
    values: 'envs/prod/queues.yaml',
    text: (i) =>
      `releases:\n  - name: queues\n    chart: ./charts/queues\n    values:\n      - envs/prod/queues.yaml\n      - queue: {flavor: a100}\n    set:\n      - name: queue.gpus\n        value: ${i}\n`,
  },
  'helmfile.yml, several documents': {
    file: 'deploy/helmfile.yml',
    values: 'deploy/prod.yaml',
    text: (i) =>
      `repositories: []\n---\nhelmDefaults: {wait: true}\nreleases:\n  - name: queues\n    namespace: ml\n    chart: ../charts/queues\n    values: [prod.yaml, {queue: {gpus: ${i}}}]\n`,
  },
  'helmfile.d': {
    file: 'helmfile.d/10-queues.yaml',
    values: 'helmfile.d/values/queues.yaml',
    text: (i) =>
      `releases:\n- name: queues\n  chart: ../charts/queues\n  values:\n  - ./values/queues.yaml\n  setString: []\n  set: [{name: queue.gpus, value: "${i}"}]\n`,
  },
  'kustomize helmCharts': {
    file: 'kustomization.yaml',
    values: 'prod-values.yaml',
    text: (i) => `helmCharts:\n  - name: queues\n    valuesFile: prod-values.yaml\n    valuesInline:\n      queue: {gpus: ${i}}\n`,
  },
  'kustomize helmCharts, chartHome': {
    file: 'overlays/prod/kustomization.yaml',
    values: 'overlays/prod/values.yaml',
    text: (i) =>
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nhelmGlobals:\n  chartHome: ../../charts\nhelmCharts:\n  - name: queues\n    releaseName: queues\n    additionalValuesFiles: [values.yaml]\n    valuesInline: {queue: {gpus: ${i}}}\n`,
  },
};

describe('a chart installed by helmfile or kustomize', () => {
  for (const [shape, s] of Object.entries(SHAPES)) {
    const tree = { ...CHART, [s.file]: s.text(12), [s.values]: values(6) };

    it(`is rendered with the install's inline values over its values files (${shape})`, async () => {
      const r = await detectPr(tree, { ...tree, [s.file]: s.text(24) });
      expect(changeRows(r).map((x) => x.slice(0, 6))).toEqual([['kueue-cluster-queue', 'research', 12, 24, null, s.file]]);
      // Under the inline values, the values file sizes nothing.
      const under = await detectPr(tree, { ...tree, [s.values]: values(30) });
      expect(under.changes).toEqual([]);
    });

    it(`follows a values file it names into the chart (${shape})`, async () => {
      const fixed = { ...tree, [s.file]: dropInline(s.text(12)) };
      const r = await detectPr(fixed, { ...fixed, [s.values]: values(10) });
      expect(changeRows(r).map((x) => x.slice(0, 6))).toEqual([['kueue-cluster-queue', 'research', 6, 10, null, s.values]]);
    });
  }

  it('of a chart elsewhere, or from a templated helmfile, leaves a values file naming GPUs not followed', async () => {
    const gpu = (n: number) => `queue:\n  gpus: ${n}\n  flavor: h100\n  instanceType: p5.48xlarge\n`;
    const installs: Tree = {
      'helmfile.yaml': 'releases:\n  - name: pools\n    chart: acme/gpu-pools\n    values: [envs/prod/pools.yaml]\n',
      'k/kustomization.yaml':
        'helmCharts:\n  - name: gpu-pools\n    repo: https://charts.example.com\n    valuesFile: ../envs/prod/pools.yaml\n',
      'helmfile.yaml.gotmpl':
        'releases:\n  - name: pools\n    chart: ./charts/queues\n    values:\n      - envs/{{ .Environment.Name }}/x.yaml\n      - envs/prod/pools.yaml\n',
    };
    for (const [file, text] of Object.entries(installs)) {
      const tree = { ...CHART, [file]: text };
      const r = await detectPr({ ...tree, 'envs/prod/pools.yaml': gpu(2) }, { ...tree, 'envs/prod/pools.yaml': gpu(8) });
      expect(r.changes).toEqual([]);
      expect(r.coverage).toEqual([
        expect.objectContaining({
          file: 'envs/prod/pools.yaml',
          state: 'not-followed',
          notFollowed: [expect.objectContaining({ reason: 'gitops-install' })],
        }),
      ]);
    }
  });
});

/** The install with no inline GPUs: the values file is then what sizes the queue. */
function dropInline(text: string): string {
  return text
    .replace(/\n {4}set:\n.*\n.*\n$/, '\n')
    .replace(', {queue: {gpus: 12}}', '')
    .replace(/\n {2}set: \[.*\]\n$/, '\n')
    .replace(/\n {4}valuesInline:\n {6}queue: \{gpus: 12\}\n$/, '\n')
    .replace(/\n {4}valuesInline: \{queue: \{gpus: 12\}\}\n$/, '\n');
}

describe('a kustomization that changes what its chart renders', () => {
  for (const transform of ['namePrefix: gpu-', 'patches:\n  - path: quota.yaml', 'namespace: ml', 'replicas: []']) {
    it(`leaves the render not followed (${transform.split(':')[0] ?? ''})`, async () => {
      const k = (n: number) => `${transform}\nhelmCharts:\n  - name: queues\n    valuesInline: {queue: {gpus: ${n}}}\n`;
      const r = await detectPr({ ...CHART, 'kustomization.yaml': k(2) }, { ...CHART, 'kustomization.yaml': k(8) });
      expect(r.coverage).toEqual([
        expect.objectContaining({
          file: 'kustomization.yaml',
          state: 'not-followed',
          notFollowed: expect.arrayContaining([expect.objectContaining({ reason: 'gitops-install' })]) as unknown,
        }),
      ]);
    });
  }
});
