import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';

const CHART = QUEUE_CHART;

const OWN = 'https://github.com/acme/platform.git';
const PROD = 'clusters/prod/values.yaml';
const values = (gpus: number) => `queue:\n  gpus: ${gpus}\n`;
/** Two clusters, each with its values and a config file a Git file generator reads. */
const CLUSTERS: Tree = {
  [PROD]: values(6),
  'clusters/eu/values.yaml': values(2),
  'clusters/prod/config.yaml': 'cluster:\n  name: prod\n',
  'clusters/eu/config.yaml': 'cluster:\n  name: eu\n',
};

/** An ApplicationSet whose Applications install the chart once per cluster, `x` naming the cluster. */
const appSet = (generators: string, x: string, goTemplate = false) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: queues
  namespace: argocd
spec:
${goTemplate ? '  goTemplate: true\n' : ''}  generators:
${generators}
  template:
    metadata:
      name: 'queues-${x}'
    spec:
      project: default
      destination:
        server: https://kubernetes.default.svc
        namespace: 'gpu-${x}'
      source:
        repoURL: ${OWN}
        targetRevision: HEAD
        path: charts/queues
        helm:
          valueFiles:
            - '../../clusters/${x}/values.yaml'
`;

const LIST = '    - list:\n        elements:\n          - cluster: prod\n          - cluster: eu\n';
const DIRS = `    - git:\n        repoURL: ${OWN}\n        revision: HEAD\n        directories:\n          - path: clusters/*\n`;
const FILES = `    - git:\n        repoURL: ${OWN}\n        revision: HEAD\n        files:\n          - path: 'clusters/**/config.yaml'\n`;

/** Every way of writing the same two Applications; each must count the same. */
const SHAPES: Record<string, { set: string; extra?: Tree }> = {
  list: { set: appSet(LIST, '{{cluster}}') },
  'list, spaces in the tag': { set: appSet(LIST, '{{ cluster }}') },
  'list, goTemplate': { set: appSet(LIST, '{{.cluster}}', true) },
  'list, goTemplate with Sprig': {
    set: appSet(LIST.replace('prod', 'PROD').replace('eu', 'EU'), '{{ .cluster | lower }}', true),
  },
  'list, values elements': {
    set: appSet('    - list:\n        elements:\n          - {values: {c: prod}}\n          - {values: {c: eu}}\n', '{{values.c}}'),
  },
  'git directories': { set: appSet(DIRS, '{{path.basename}}') },
  'git directories, goTemplate': { set: appSet(DIRS, '{{.path.basename}}', true) },
  'git directories, goTemplate segments': { set: appSet(DIRS, '{{ index .path.segments 1 }}', true) },
  'git directories, an excluded one': {
    set: appSet(`${DIRS}          - path: clusters/old\n            exclude: true\n`, '{{path[1]}}'),
    extra: { 'clusters/old/values.yaml': values(64) },
  },
  'git directories, hidden folders left out': {
    set: appSet(DIRS, '{{path.basename}}'),
    extra: { 'clusters/.archive/values.yaml': values(64) },
  },
  'git files': { set: appSet(FILES, '{{cluster.name}}') },
  'git files, goTemplate': { set: appSet(FILES, '{{.cluster.name}}', true) },
  'matrix of directories and a list': {
    set: appSet(
      `    - matrix:\n        generators:\n${DIRS.replace(/^ {4}/gm, '          ')}          - list:\n              elements: [{team: ml}]\n`,
      '{{path.basename}}',
    ),
  },
  'merge of two lists': {
    set: appSet(
      '    - merge:\n        mergeKeys: [key]\n        generators:\n          - list:\n              elements: [{key: a, cluster: prod}, {key: b, cluster: staging}]\n          - list:\n              elements: [{key: b, cluster: eu}]\n',
      '{{cluster}}',
    ),
  },
};

describe('an ApplicationSet', () => {
  for (const [shape, { set, extra }] of Object.entries(SHAPES)) {
    const tree = { ...CHART, ...CLUSTERS, ...extra, 'argocd/queues.yaml': set };

    it(`is expanded into its Applications: a values file it names is counted per Application (${shape})`, async () => {
      for (const repos of [undefined, ['github.com/acme/platform']]) {
        const r = await detectPr(tree, { ...tree, [PROD]: values(10) }, true, repos);
        expect(changeRows(r).map((x) => x.slice(0, 6))).toEqual([['kueue-cluster-queue', 'research [queues-prod]', 6, 10, null, PROD]]);
        expect(r.coverage).toEqual([expect.objectContaining({ file: PROD, state: 'read' })]);
      }
    });

    it(`changed itself, counts the Applications it makes at each side (${shape})`, async () => {
      // The eu cluster's values are dropped from the template: its Application gets the chart's own 4.
      const head = { ...tree, 'argocd/queues.yaml': set.replace(/valueFiles:\n.*\n/, 'valueFiles: []\n') };
      const r = await detectPr(tree, head);
      expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([
        ['kueue-cluster-queue', 'research [queues-eu]', 2, 4],
        ['kueue-cluster-queue', 'research [queues-prod]', 6, 4],
      ]);
    });
  }

  it('adding a cluster folder adds its Application', async () => {
    const tree = { ...CHART, ...CLUSTERS, 'argocd/queues.yaml': SHAPES['git directories']?.set ?? '' };
    const r = await detectPr(tree, { ...tree, 'clusters/us/values.yaml': values(16) });
    expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research [queues-us]', 0, 16]]);
  });

  const OUTSIDE: Record<string, string> = {
    clusters: '    - clusters: {}\n',
    'clusters with a selector': '    - clusters:\n        selector:\n          matchLabels: {gpu: "true"}\n',
    pullRequest: '    - pullRequest:\n        github: {owner: acme, repo: platform}\n',
    scmProvider: '    - scmProvider:\n        github: {organization: acme}\n',
    plugin: '    - plugin:\n        configMapRef: {name: gen}\n',
    clusterDecisionResource: '    - clusterDecisionResource:\n        configMapRef: placements\n',
    'matrix with clusters': `    - matrix:\n        generators:\n          - clusters: {}\n${LIST.replace(/^ {4}/gm, '          ')}`,
    'git of another repository': DIRS.replace(OWN, 'https://github.com/elsewhere/clusters.git'),
    'list with its own template': '    - list:\n        elements: [{cluster: prod}]\n        template: {metadata: {}}\n',
  };
  for (const [shape, gens] of Object.entries(OUTSIDE)) {
    it(`with generators the repository cannot answer leaves a values file it names not followed (${shape})`, async () => {
      const tree = { ...CHART, ...CLUSTERS, 'argocd/queues.yaml': appSet(gens, '{{name}}') };
      const r = await detectPr(tree, { ...tree, [PROD]: values(10) }, true, ['github.com/acme/platform']);
      expect(r.changes).toEqual([]);
      expect(r.coverage).toEqual([
        expect.objectContaining({
          file: PROD,
          state: 'not-followed',
          notFollowed: [expect.objectContaining({ reason: 'gitops-install' })],
        }),
      ]);
    });
  }
});

describe('the release a chart is rendered as', () => {
  const chart: Tree = {
    ...CHART,
    'charts/queues/templates/cluster-queue.yaml': (CHART['charts/queues/templates/cluster-queue.yaml'] ?? '').replace(
      'name: {{ .Values.queue.name }}',
      'name: {{ .Release.Name }}-{{ .Release.Namespace }}',
    ),
  };
  const INSTALLS: Record<string, [file: string, text: string]> = {
    'Application helm.releaseName': [
      'apps/q.yaml',
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: app}\nspec:\n  destination: {namespace: ml}\n  source:\n    repoURL: ${OWN}\n    path: charts/queues\n    helm: {releaseName: q, valueFiles: [values.yaml]}\n`,
    ],
    'Application name': [
      'apps/q.yaml',
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: q}\nspec:\n  destination: {namespace: ml}\n  source:\n    repoURL: ${OWN}\n    path: charts/queues\n    helm: {valueFiles: [values.yaml]}\n`,
    ],
    'HelmRelease releaseName and targetNamespace': [
      'apps/q.yaml',
      'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: other}\nspec:\n  releaseName: q\n  targetNamespace: ml\n  chart:\n    spec: {chart: ./charts/queues, sourceRef: {kind: GitRepository, name: flux-system}}\n  values: {}\n',
    ],
    'helmfile name and namespace': [
      'helmfile.yaml',
      'releases:\n  - name: q\n    namespace: ml\n    chart: ./charts/queues\n    values: [{queue: {flavor: a100}}]\n',
    ],
    'kustomize helmCharts releaseName and namespace': [
      'kustomization.yaml',
      'helmCharts:\n  - name: queues\n    releaseName: q\n    namespace: ml\n    valuesInline: {queue: {flavor: a100}}\n',
    ],
  };
  for (const [shape, [file, text]] of Object.entries(INSTALLS)) {
    it(`comes from the install (${shape})`, async () => {
      const base = { ...chart, [file]: text.replace('queues-ml', 'x') };
      const head = { ...base, 'charts/queues/values.yaml': 'queue:\n  gpus: 8\n  flavor: a100\n' };
      const r = await detectPr(base, { ...head, [file]: text.replace(/\n$/, '\n# raised\n') });
      expect(changeRows(r).map((x) => x.slice(1, 4))).toContainEqual(['q-ml', 4, 8]);
    });
  }
});

describe('an ApplicationSet whose Git generator element the pull request removes', () => {
  const GIT_SHAPES = Object.entries(SHAPES).filter(([shape]) => shape.startsWith('git') || shape.startsWith('matrix'));
  for (const [shape, { set, extra }] of GIT_SHAPES) {
    const tree = { ...CHART, ...CLUSTERS, ...extra, 'argocd/queues.yaml': set };
    const without = (drop: readonly string[]) => Object.fromEntries(Object.entries(tree).filter(([p]) => !drop.includes(p)));

    it(`loses the Application it made, and its capacity (${shape})`, async () => {
      for (const drop of [[PROD, 'clusters/prod/config.yaml'], [PROD]]) {
        // The values file alone removed leaves the folder, and its Application, with the chart's own 4.
        const r = await detectPr(tree, without(drop));
        const after = drop.length === 1 ? 4 : 0;
        expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([['kueue-cluster-queue', 'research [queues-prod]', 6, after]]);
      }
    });
  }
});
