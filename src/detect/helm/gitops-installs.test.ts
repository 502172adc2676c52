import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';
import { gitopsInstalls } from './gitops-installs.js';

/** The queue chart, with a production values file beside its defaults. */
const CHART: Tree = { ...QUEUE_CHART, 'charts/queues/values-prod.yaml': 'queue:\n  gpus: 8\n' };

const argo = (helm: string, source = '    repoURL: https://github.com/acme/platform.git\n    path: charts/queues\n') =>
  `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: queues-prod
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
  source:
${source}    helm:
${helm}`;

const multi = (valuesFile: string, maxSize: number) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: queues-prod
spec:
  sources:
    - repoURL: https://github.com/acme/platform.git
      path: charts/queues
      helm:
        valueFiles:
          - $values/${valuesFile}
        parameters:
          - name: queue.flavor
            value: h100
    - repoURL: https://github.com/acme/platform.git
      targetRevision: main
      ref: values
  syncPolicy:
    retry:
      limit: ${maxSize}
`;

const flux = (values: string, source = 'GitRepository', valuesFrom = '') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: queues
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/queues
      sourceRef:
        kind: ${source}
        name: platform
${valuesFrom}  values:
${values}`;

const APP = 'clusters/prod/apps/queues.yaml';

describe('GitOps installs of a chart', () => {
  it('are read from Applications (one source or several) and HelmReleases, in Helm order', () => {
    expect(
      gitopsInstalls(argo('      valueFiles:\n        - values-prod.yaml\n      valuesObject:\n        queue:\n          gpus: 12\n')),
    ).toEqual([
      {
        key: 'Application/queues-prod#0',
        chart: { local: 'charts/queues', repo: 'github.com/acme/platform', url: 'https://github.com/acme/platform.git' },
        valueFiles: ['charts/queues/values-prod.yaml'],
        inline: [{ queue: { gpus: 12 } }],
        unread: [],
        release: { name: 'queues-prod', namespace: 'default' },
      },
    ]);
    expect(gitopsInstalls(multi('envs/prod/queues.yaml', 1))[0]).toEqual(
      expect.objectContaining({ valueFiles: ['envs/prod/queues.yaml'], inline: [{ queue: { flavor: 'h100' } }] }),
    );
    expect(
      gitopsInstalls(flux('    queue:\n      gpus: 2\n', 'GitRepository', '  valuesFrom:\n    - kind: Secret\n      name: queue-values\n')),
    ).toEqual([
      {
        key: 'HelmRelease/queues',
        chart: { local: 'charts/queues', repo: null, url: 'GitRepository/platform' },
        valueFiles: [],
        inline: [{ queue: { gpus: 2 } }],
        unread: [],
        unreadWritten: [{ kind: 'Secret', name: 'queue-values' }],
        valuesFrom: {
          refs: [{ kind: 'Secret', name: 'queue-values', valuesKey: 'values.yaml', targetPath: null, optional: false }],
          namespace: null,
        },
        release: { name: 'queues', namespace: 'default' },
      },
    ]);
    expect(gitopsInstalls(flux('    a: 1\n', 'HelmRepository'))[0]?.chart).toEqual({ remote: './charts/queues' });
  });

  it('an Application raising the GPUs in its values is counted through the chart, whichever way it gives them', async () => {
    for (const [from, to] of [
      ['      valuesObject:\n        queue:\n          gpus: 4\n', '      valuesObject:\n        queue:\n          gpus: 16\n'],
      ['      values: |\n        queue:\n          gpus: 4\n', '      values: |\n        queue:\n          gpus: 16\n'],
      [
        '      parameters:\n        - name: queue.gpus\n          value: "4"\n',
        '      parameters:\n        - name: queue.gpus\n          value: "16"\n',
      ],
      [
        '      valueFiles:\n        - values.yaml\n',
        '      valueFiles:\n        - values.yaml\n      valuesObject:\n        queue: {gpus: 16}\n',
      ],
    ]) {
      const result = await detectPr({ ...CHART, [APP]: argo(from ?? '') }, { ...CHART, [APP]: argo(to ?? '') });
      expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'research', 4, 16, null, APP, 1]]);
      expect(result.coverage).toEqual([expect.objectContaining({ file: APP, state: 'read' })]);
    }
  });

  it('a values file named by an Application is layered over the chart values', async () => {
    const base = { ...CHART, [APP]: argo('      valueFiles:\n        - values-prod.yaml\n') };
    const head = {
      ...base,
      [APP]: argo('      valueFiles:\n        - values-prod.yaml\n      valuesObject:\n        queue:\n          name: research-prod\n'),
    };
    expect(changeRows(await detectPr(base, head)).map((r) => r.slice(0, 4))).toEqual([
      ['kueue-cluster-queue', 'research', 8, 0],
      ['kueue-cluster-queue', 'research-prod', 0, 8],
    ]);
  });

  it('a multi-source Application reads `$values/` files from the repository root', async () => {
    const tree = { ...CHART, 'envs/prod/queues.yaml': 'queue:\n  gpus: 6\n', 'envs/prod/bigger.yaml': 'queue:\n  gpus: 10\n' };
    const result = await detectPr(
      { ...tree, [APP]: multi('envs/prod/queues.yaml', 5) },
      { ...tree, [APP]: multi('envs/prod/bigger.yaml', 5) },
    );
    expect(changeRows(result).map((r) => r.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 6, 10]]);
    const same = await detectPr(
      { ...tree, [APP]: multi('envs/prod/queues.yaml', 5) },
      { ...tree, [APP]: multi('envs/prod/queues.yaml', 9) },
    );
    expect(same.changes).toEqual([]);
    expect(same.coverage).toEqual([expect.objectContaining({ file: APP, state: 'read' })]);
  });

  it('a Flux HelmRelease of a GitRepository chart is counted; values from a Secret are not followed', async () => {
    const base = { ...CHART, [APP]: flux('    queue:\n      gpus: 4\n') };
    const head = { ...CHART, [APP]: flux('    queue:\n      gpus: 20\n') };
    expect(changeRows(await detectPr(base, head)).map((r) => r.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 4, 20]]);
    const secret = '  valuesFrom:\n    - kind: Secret\n      name: queue-values\n';
    const withSecret = await detectPr(
      { ...CHART, [APP]: flux('    queue:\n      gpus: 4\n', 'GitRepository', secret) },
      { ...CHART, [APP]: flux('    queue:\n      gpus: 20\n', 'GitRepository', secret) },
    );
    expect(withSecret.coverage).toEqual([
      expect.objectContaining({
        file: APP,
        state: 'not-followed',
        notFollowed: [
          expect.objectContaining({
            reason: 'gitops-install',
            inputs: ['valuesFrom Secret/queue-values (not in the tree beside the release)'],
          }),
        ],
      }),
    ]);
  });

  it('a chart elsewhere is not followed on the changed values when they name GPUs, and passes when they do not', async () => {
    const remote = '    repoURL: https://charts.example.com\n    chart: gpu-pools\n    targetRevision: 1.2.0\n';
    const gpu = await detectPr(
      { [APP]: argo('      valuesObject:\n        pool:\n          instanceType: p5.48xlarge\n          maxSize: 2\n', remote) },
      { [APP]: argo('      valuesObject:\n        pool:\n          instanceType: p5.48xlarge\n          maxSize: 8\n', remote) },
    );
    expect(gpu.coverage).toEqual([
      expect.objectContaining({
        file: APP,
        state: 'not-followed',
        notFollowed: [expect.objectContaining({ reason: 'gitops-install', needs: 'https://charts.example.com gpu-pools' })],
      }),
    ]);
    const cpu = await detectPr(
      { [APP]: argo('      valuesObject:\n        replicaCount: 2\n', remote) },
      { [APP]: argo('      valuesObject:\n        replicaCount: 3\n', remote) },
    );
    expect(cpu.changes).toEqual([]);
    expect(cpu.coverage.map((c) => c.state)).not.toContain('not-followed');
  });
});
