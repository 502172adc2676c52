import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { movable } from '../rewrites-render.js';
import { baseName, dirOf, join } from '../shapes/kube-files.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { mapPlainIntegers } from '../yaml-text.js';

export const stem = (p: string) =>
  baseName(p)
    .replace(/\.ya?ml$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');

/** The file's numbers outside `metadata` as template references made by `ref` (the value's name), and the values by name. */
function template(text: string, ref: (name: string) => string): { text: string; values: [string, number][] } {
  const values: [string, number][] = [];
  const out = mapPlainIntegers(text, (v, keys) => {
    if (keys[0] === 'metadata') return null;
    values.push([`gj${values.length + 1}`, v]);
    return `{{ ${ref(`gj${values.length}`)} }}`;
  });
  return { text: out, values };
}

const chartYaml = (name: string, extra = '') => `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n${extra}`;

/**
 * The changed file at `path` as the template of chart `name` at `chart`, whose values.yaml sets
 * every number 0: the chart's files, and the numbers by name for what installs it to give.
 */
export function zeroedChart(path: string, text: string, chart: string, name: string): { files: Tree; values: [string, number][] } {
  const t = template(text, (n) => `.Values.${n}`);
  return {
    files: {
      [`${chart}/Chart.yaml`]: chartYaml(name),
      [`${chart}/values.yaml`]: t.values.map(([k]) => `${k}: 0\n`).join('') || '{}\n',
      [`${chart}/templates/${baseName(path)}`]: t.text,
    },
    values: t.values,
  };
}

/** Each changed file of objects replaced by the files `make` writes from its path and text; null when none applies. */
export function replaceEach(sides: Sides, make: (path: string, text: string) => Tree): Sides | null {
  const paths = movable(sides);
  if (paths.length === 0) return null;
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = { ...tree.files };
    for (const path of paths) {
      const text = files[path];
      delete files[path];
      if (text !== undefined) Object.assign(files, make(path, text));
    }
    return { files, special: { ...tree.special } };
  };
  return { base: side(sides.base), head: side(sides.head) };
}

/** The changed file a chart's template whose numbers are `global:` values of its values.yaml. */
export const helmGlobalValues: Rewrite = {
  id: 'helm-global-values',
  what: 'the changed file a Helm template, its numbers `global:` values',
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const t = template(text, (n) => `.Values.global.${n}`);
      return {
        [`${chart}/Chart.yaml`]: chartYaml(`gj-${stem(path)}`),
        [`${chart}/values.yaml`]: `global:\n${t.values.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`,
        [`${chart}/templates/${baseName(path)}`]: t.text,
      };
    }),
};

/**
 * The changed file the template of a subchart (`charts/gjsub/`, its own values 0), whose numbers the
 * parent chart's values.yaml sets under the subchart's key: Helm renders the subchart with them.
 */
export const helmSubchartValues: Rewrite = {
  id: 'helm-subchart-values',
  what: "the changed file a subchart's template, its numbers set under its key in the parent's values",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const t = template(text, (n) => `.Values.${n}`);
      return {
        [`${chart}/Chart.yaml`]: chartYaml(`gj-${stem(path)}`, 'dependencies:\n  - name: gjsub\n    version: 0.1.0\n'),
        [`${chart}/values.yaml`]: `gjsub:\n${t.values.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`,
        [`${chart}/charts/gjsub/Chart.yaml`]: chartYaml('gjsub'),
        [`${chart}/charts/gjsub/values.yaml`]: t.values.map(([k]) => `${k}: 0\n`).join(''),
        [`${chart}/charts/gjsub/templates/${baseName(path)}`]: t.text,
      };
    }),
};

/** A Flux Kustomization applying `./<root>/app` from the cluster's own repository, its `postBuild:` block the lines given. */
export function fluxKustomization(name: string, root: string, postBuild: readonly string[]): string {
  return [
    'apiVersion: kustomize.toolkit.fluxcd.io/v1',
    'kind: Kustomization',
    'metadata:',
    `  name: gj-${name}`,
    '  namespace: flux-system',
    'spec:',
    '  interval: 10m',
    `  path: ./${root}/app`,
    '  prune: true',
    '  sourceRef:',
    '    kind: GitRepository',
    '    name: flux-system',
    '  postBuild:',
    ...postBuild,
    '',
  ].join('\n');
}

/** An Argo CD Application installing the chart at `chart` from this repository, its `helm:` block the lines given. */
export function application(name: string, chart: string, helm: readonly string[]): string {
  return [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata:',
    `  name: ${name}`,
    '  namespace: argocd',
    'spec:',
    '  project: default',
    '  destination:',
    '    server: https://kubernetes.default.svc',
    '  source:',
    '    repoURL: https://git.example.com/platform/gpu-clusters.git',
    '    targetRevision: main',
    `    path: ${chart}`,
    '    helm:',
    ...helm.map((l) => `      ${l}`),
    '',
  ].join('\n');
}

/**
 * The changed file a chart's template whose values.yaml sets every number 0, and an Argo CD
 * Application beside that installs it with the numbers in its `helm:` block, written by `helm`
 * (the values by name): what the pull request changes is the Application.
 */
const argoValues = (id: string, what: string, helm: (values: [string, number][]) => string[]): Rewrite => ({
  id,
  what,
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const z = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      return { ...z.files, [join(dirOf(path), `gj-app-${stem(path)}.yaml`)]: application(`gj-${stem(path)}`, chart, helm(z.values)) };
    }),
});

export const ARGO_HELM: readonly Rewrite[] = [
  argoValues('argocd-helm-parameters', "the numbers an Argo CD Application's `helm.parameters` (`--set`)", (values) =>
    values.length === 0 ? ['parameters: []'] : ['parameters:', ...values.flatMap(([k, v]) => [`  - name: ${k}`, `    value: "${v}"`])],
  ),
  argoValues('argocd-values-object', "the numbers an Argo CD Application's `helm.valuesObject`", (values) =>
    values.length === 0 ? ['valuesObject: {}'] : ['valuesObject:', ...values.map(([k, v]) => `  ${k}: ${v}`)],
  ),
  argoValues('argocd-values-string', "the numbers an Argo CD Application's `helm.values` string", (values) =>
    values.length === 0 ? ['values: "{}"'] : ['values: |', ...values.map(([k, v]) => `  ${k}: ${v}`)],
  ),
];

/**
 * The changed file the template of a subchart (its own values 0) of an umbrella chart with no
 * templates of its own, which an Argo CD Application installs with the numbers under the
 * subchart's key of its `helm.valuesObject`: Helm renders the subchart with them.
 */
export const argoSubchartValues: Rewrite = {
  id: 'argocd-subchart-values',
  what: "the changed file a subchart's template, its numbers under its key in an Application's `valuesObject`",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const sub = zeroedChart(path, text, `${chart}/charts/gjsub`, 'gjsub');
      return {
        [`${chart}/Chart.yaml`]: chartYaml(`gj-${stem(path)}`),
        [`${chart}/values.yaml`]: 'gjsub: {}\n',
        ...sub.files,
        [join(dirOf(path), `gj-app-${stem(path)}.yaml`)]: application(
          `gj-${stem(path)}`,
          chart,
          sub.values.length === 0 ? ['valuesObject: {}'] : ['valuesObject:', '  gjsub:', ...sub.values.map(([k, v]) => `    ${k}: ${v}`)],
        ),
      };
    }),
};
