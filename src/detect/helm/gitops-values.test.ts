import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';

const CHART = QUEUE_CHART;

const OWN = 'https://github.com/acme/platform.git';
const VALUES = 'envs/prod/queues-values.yaml';
const values = (gpus: number) => `queue:\n  gpus: ${gpus}\n`;

/** Every way an install of the tree names the values file; each must read the same. */
const INSTALLS: Record<string, string> = {
  'argo multi-source $ref': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: queues-prod
spec:
  sources:
    - repoURL: ${OWN}
      path: charts/queues
      helm:
        valueFiles: [$values/${VALUES}]
    - repoURL: ${OWN}
      ref: values
`,
  'argo relative to the chart': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: queues-prod
spec:
  source:
    repoURL: ${OWN}
    path: charts/queues
    helm:
      valueFiles:
        - ../../${VALUES}
`,
  'flux valuesFiles': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: queues
spec:
  chart:
    spec:
      chart: ./charts/queues
      sourceRef: {kind: GitRepository, name: flux-system}
      valuesFiles:
        - ./${VALUES}
`,
  'flux valuesFile': `apiVersion: helm.toolkit.fluxcd.io/v2beta1
kind: HelmRelease
metadata:
  name: queues
spec:
  chart:
    spec:
      chart: charts/queues
      sourceRef: {kind: GitRepository, name: flux-system}
      valuesFile: ${VALUES}
`,
};

const APP = 'clusters/prod/apps/queues.yaml';

describe('a values file changed alone', () => {
  for (const [shape, app] of Object.entries(INSTALLS)) {
    for (const [repos, label] of [[undefined, 'repository unknown'] as const, [['github.com/acme/platform'], 'this repository'] as const]) {
      it(`is followed to the install that names it (${shape}, ${label})`, async () => {
        const tree = { ...CHART, [APP]: app };
        const result = await detectPr({ ...tree, [VALUES]: values(6) }, { ...tree, [VALUES]: values(10) }, true, repos);
        expect(changeRows(result).map((r) => r.slice(0, 6))).toEqual([['kueue-cluster-queue', 'research', 6, 10, null, VALUES]]);
        expect(result.coverage).toEqual([expect.objectContaining({ file: VALUES, state: 'read' })]);
      });
    }
  }

  it('named by two installs that render capacity is not followed: their copies are not counted apart', async () => {
    const tree = {
      ...CHART,
      [APP]: INSTALLS['argo multi-source $ref'] ?? '',
      'clusters/eu/queues.yaml': INSTALLS['flux valuesFiles'] ?? '',
    };
    const result = await detectPr({ ...tree, [VALUES]: values(6) }, { ...tree, [VALUES]: values(10) });
    expect(result.coverage).toEqual([
      expect.objectContaining({
        file: VALUES,
        state: 'not-followed',
        notFollowed: [
          expect.objectContaining({
            reason: 'gitops-install',
            inputs: ['Application/queues-prod#0 in clusters/prod/apps/queues.yaml', 'HelmRelease/queues in clusters/eu/queues.yaml'],
          }),
        ],
      }),
    ]);
  });

  it('a change that sizes nothing in the chart is read with no change', async () => {
    const tree = { ...CHART, [APP]: INSTALLS['argo relative to the chart'] ?? '' };
    const result = await detectPr({ ...tree, [VALUES]: `${values(6)}team: a\n` }, { ...tree, [VALUES]: `${values(6)}team: b\n` });
    expect(result.changes).toEqual([]);
    expect(result.coverage).toEqual([expect.objectContaining({ file: VALUES, state: 'read' })]);
  });

  it('fed to a chart of another repository, or of a Helm repository, is not followed when it names GPUs', async () => {
    const other = (INSTALLS['argo relative to the chart'] ?? '').replace(OWN, 'https://github.com/elsewhere/charts.git');
    const helmRepo = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: pools}
spec:
  sources:
    - repoURL: https://charts.example.com
      chart: gpu-pools
      helm:
        valueFiles: [$values/${VALUES}]
    - {repoURL: ${OWN}, ref: values}
`;
    const gpu = (n: number) => `pool:\n  instanceType: p5.48xlarge\n  maxSize: ${n}\n`;
    for (const app of [other, helmRepo]) {
      const tree = { ...CHART, [APP]: app };
      const result = await detectPr({ ...tree, [VALUES]: gpu(2) }, { ...tree, [VALUES]: gpu(8) }, true, ['github.com/acme/platform']);
      expect(result.changes).toEqual([]);
      expect(result.coverage).toEqual([
        expect.objectContaining({
          file: VALUES,
          state: 'not-followed',
          notFollowed: [expect.objectContaining({ reason: 'gitops-install', inputs: ['the chart is not in this repository'] })],
        }),
      ]);
    }
  });

  it('from a `$ref` source of another repository is not read from this tree', async () => {
    const app = (INSTALLS['argo multi-source $ref'] ?? '').replace(
      `- repoURL: ${OWN}\n      ref`,
      '- repoURL: https://github.com/elsewhere/values.git\n      ref',
    );
    const tree = { ...CHART, [APP]: app, [VALUES]: values(6) };
    const changedApp = await detectPr(tree, { ...tree, [APP]: app.replace('queues-prod', 'queues-prod2') }, true, [
      'github.com/acme/platform',
    ]);
    expect(changedApp.coverage).toEqual([
      expect.objectContaining({
        state: 'not-followed',
        notFollowed: [
          expect.objectContaining({
            reason: 'gitops-install',
            inputs: [`valueFiles ${VALUES} (from https://github.com/elsewhere/values.git, not this repository)`],
          }),
        ],
      }),
    ]);
  });

  it('of an ApplicationSet is counted once per Application it makes', async () => {
    const set = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: queues}
spec:
  generators:
    - list:
        elements: [{cluster: prod}, {cluster: eu}]
  template:
    metadata: {name: 'queues-{{cluster}}'}
    spec:
      source:
        repoURL: ${OWN}
        path: charts/queues
        helm:
          valueFiles: [../../${VALUES}]
`;
    const tree = { ...CHART, [APP]: set };
    const result = await detectPr({ ...tree, [VALUES]: values(6) }, { ...tree, [VALUES]: values(10) });
    expect(changeRows(result).map((r) => r.slice(0, 4))).toEqual([
      ['kueue-cluster-queue', 'research [queues-eu]', 6, 10],
      ['kueue-cluster-queue', 'research [queues-prod]', 6, 10],
    ]);
    expect(result.coverage).toEqual([expect.objectContaining({ file: VALUES, state: 'read' })]);
  });

  it('named by nothing in a tree that could not be searched is not followed when it changes a number', async () => {
    const tree = { ...CHART };
    const result = await detectPr({ ...tree, [VALUES]: values(6) }, { ...tree, [VALUES]: values(10) }, false);
    expect(result.coverage).toEqual([
      expect.objectContaining({ file: VALUES, state: 'not-followed', notFollowed: [expect.objectContaining({ reason: 'helm-values' })] }),
    ]);
    // Searched to the end, a values file nothing names keeps the key-by-key check of values with no chart.
    const searched = await detectPr({ ...tree, [VALUES]: values(6) }, { ...tree, [VALUES]: values(10) });
    expect(searched.coverage).toEqual([
      expect.objectContaining({ file: VALUES, state: 'not-followed', notFollowed: [expect.objectContaining({ inputs: ['queue.gpus'] })] }),
    ]);
    const replicas = await detectPr({ ...tree, [VALUES]: 'replicas: 2\n' }, { ...tree, [VALUES]: 'replicas: 3\n' }, false);
    expect(replicas.coverage).toEqual([
      expect.objectContaining({
        file: VALUES,
        state: 'not-followed',
        notFollowed: [expect.objectContaining({ needs: 'the Application or HelmRelease that installs a chart with it' })],
      }),
    ]);
    const replicasSearched = await detectPr({ ...tree, [VALUES]: 'replicas: 2\n' }, { ...tree, [VALUES]: 'replicas: 3\n' });
    expect(replicasSearched.coverage).toEqual([expect.objectContaining({ file: VALUES, state: 'not-capacity' })]);
  });
});

describe('an Application giving values every way at once', () => {
  const app = (gpus: { file: number; object: number; param: string; values?: number }) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: queues-prod}
spec:
  source:
    repoURL: ${OWN}
    path: charts/queues
    helm:
      valueFiles: [values-prod.yaml]
${gpus.values === undefined ? '' : `      values: |\n        queue: {gpus: ${gpus.values}}\n`}      valuesObject:
        queue: {gpus: ${gpus.object}}
      parameters:
        - {name: queue.flavor, value: h100}
${gpus.param === '' ? '' : `        - {name: queue.gpus, value: "${gpus.param}"}\n`}`;
  const tree = (file: number) => ({ ...CHART, 'charts/queues/values-prod.yaml': `queue:\n  gpus: ${file}\n` });

  it('counts the highest precedence once: parameters over valuesObject over values files', async () => {
    const r = await detectPr(
      { ...tree(2), [APP]: app({ file: 2, object: 8, param: '12' }) },
      { ...tree(2), [APP]: app({ file: 2, object: 8, param: '24' }) },
    );
    expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 12, 24]]);
    const o = await detectPr(
      { ...tree(2), [APP]: app({ file: 2, object: 8, param: '' }) },
      { ...tree(2), [APP]: app({ file: 2, object: 16, param: '' }) },
    );
    expect(changeRows(o).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research', 8, 16]]);
    // The file is under valuesObject: raising it changes nothing the cluster gets.
    const f = await detectPr(
      { ...tree(2), [APP]: app({ file: 2, object: 8, param: '' }) },
      { ...tree(30), [APP]: app({ file: 2, object: 8, param: '' }) },
    );
    expect(f.changes).toEqual([]);
  });

  it('ignores `values` when `valuesObject` is set, as Argo CD does', async () => {
    const r = await detectPr(
      { ...tree(2), [APP]: app({ file: 2, object: 8, param: '', values: 1 }) },
      { ...tree(2), [APP]: app({ file: 2, object: 8, param: '', values: 100 }) },
    );
    expect(r.changes).toEqual([]);
  });
});
