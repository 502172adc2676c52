import type { Rewrite } from '../rewrite.js';
import { baseName, dirOf, join } from '../shapes/kube-files.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { application, fluxKustomization, replaceEach, stem, zeroedChart } from './helm-values.js';
import { overBase, patchFiles } from './kustomize.js';

/**
 * Values given twice, where the applier's order of precedence picks one: the later of Argo CD's
 * `helm.valueFiles`, `valuesObject` over value files, `parameters` over `valuesObject`, the later
 * of a helmfile release's `values`, a Flux variable's value over its `${VAR:=default}`, the later
 * of two kustomize Components. The losing place holds decoys (each number 2n+1), so a review that
 * reads the wrong one reports a count no reading of the case gives.
 */

const decoy = (v: number) => 2 * v + 1;
const valuesYaml = (values: readonly [string, number][], f: (v: number) => number = (v) => v) =>
  values.map(([k, v]) => `${k}: ${f(v)}\n`).join('') || '{}\n';

/**
 * The chart layout of `argocd-helm-parameters` (helm-values.ts) with the numbers in two value
 * files of the chart, decoys first: Helm merges `valueFiles` in order, the last file winning.
 */
const argoValueFilesOrder: Rewrite = {
  id: 'argocd-value-files-order',
  what: "the numbers the last of an Argo CD Application's `helm.valueFiles`, decoys in the first",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const z = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      return {
        ...z.files,
        [`${chart}/values-decoy.yaml`]: valuesYaml(z.values, decoy),
        [`${chart}/values-gj.yaml`]: valuesYaml(z.values),
        [join(dirOf(path), `gj-app-${stem(path)}.yaml`)]: application(`gj-${stem(path)}`, chart, [
          'valueFiles:',
          '  - values-decoy.yaml',
          '  - values-gj.yaml',
        ]),
      };
    }),
};

/** Decoys in a value file, the numbers in `valuesObject`: Argo CD gives `valuesObject` precedence over value files. */
const argoValuesObjectOverFiles: Rewrite = {
  id: 'argocd-values-object-over-files',
  what: "the numbers an Argo CD Application's `helm.valuesObject`, decoys in its `valueFiles`",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const z = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      return {
        ...z.files,
        [`${chart}/values-decoy.yaml`]: valuesYaml(z.values, decoy),
        [join(dirOf(path), `gj-app-${stem(path)}.yaml`)]: application(`gj-${stem(path)}`, chart, [
          'valueFiles:',
          '  - values-decoy.yaml',
          ...(z.values.length === 0 ? ['valuesObject: {}'] : ['valuesObject:', ...z.values.map(([k, v]) => `  ${k}: ${v}`)]),
        ]),
      };
    }),
};

/** Decoys in `valuesObject`, the numbers in `parameters` (Helm's `--set`), which Argo CD applies last. */
const argoParametersOverValuesObject: Rewrite = {
  id: 'argocd-parameters-over-values-object',
  what: "the numbers an Argo CD Application's `helm.parameters`, decoys in its `valuesObject`",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const z = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      const helm =
        z.values.length === 0
          ? ['valuesObject: {}', 'parameters: []']
          : [
              'valuesObject:',
              ...z.values.map(([k, v]) => `  ${k}: ${decoy(v)}`),
              'parameters:',
              ...z.values.flatMap(([k, v]) => [`  - name: ${k}`, `    value: "${v}"`]),
            ];
      return { ...z.files, [join(dirOf(path), `gj-app-${stem(path)}.yaml`)]: application(`gj-${stem(path)}`, chart, helm) };
    }),
};

/** A helmfile beside the chart installing it with two value files, decoys first: helmfile passes them to Helm in order. */
const helmfileValuesOrder: Rewrite = {
  id: 'helmfile-values-order',
  what: "the numbers the last of a helmfile release's `values` files, decoys in the first",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const dir = dirOf(path);
      const chart = `gj-chart-${stem(path)}`;
      const z = zeroedChart(path, text, join(dir, chart), `gj-${stem(path)}`);
      return {
        ...z.files,
        [join(dir, `gj-values-decoy-${stem(path)}.yaml`)]: valuesYaml(z.values, decoy),
        [join(dir, `gj-values-${stem(path)}.yaml`)]: valuesYaml(z.values),
        [join(dir, `gj-helmfile-${stem(path)}/helmfile.yaml`)]: [
          'releases:',
          `  - name: gj-${stem(path)}`,
          '    namespace: default',
          `    chart: ../${chart}`,
          '    values:',
          `      - ../gj-values-decoy-${stem(path)}.yaml`,
          `      - ../gj-values-${stem(path)}.yaml`,
          '',
        ].join('\n'),
      };
    }),
};

/**
 * A helmfile whose release takes a `.gotmpl` values file reading the numbers from the default
 * environment's values (`{{ .Values.gjN }}`): helmfile renders the file with the environment
 * before Helm sees it, so the chart gets the numbers.
 */
const helmfileEnvironmentValues: Rewrite = {
  id: 'helmfile-environment-values',
  what: "the numbers helmfile environment values a release's `.gotmpl` values file reads",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      // A folder of its own per file: two changed files in one folder would want one helmfile.yaml.
      const dir = join(dirOf(path), `gj-helmfile-env-${stem(path)}`);
      const z = zeroedChart(path, text, join(dir, 'chart'), `gj-${stem(path)}`);
      return {
        ...z.files,
        [join(dir, 'env.yaml')]: valuesYaml(z.values),
        [join(dir, 'values.yaml.gotmpl')]: z.values.map(([k]) => `${k}: {{ .Values.${k} }}\n`).join('') || '{}\n',
        [join(dir, 'helmfile.yaml')]: [
          'environments:',
          '  default:',
          '    values:',
          '      - env.yaml',
          '---',
          'releases:',
          `  - name: gj-${stem(path)}`,
          '    namespace: default',
          '    chart: ./chart',
          '    values:',
          '      - values.yaml.gotmpl',
          '',
        ].join('\n'),
      };
    }),
};

/**
 * The changed file applied by a Flux Kustomization (`gj-flux-<file>/`) whose numbers are post-build
 * variables that no value sets, each written with its default (`${v:=8}` or `${v:-8}`, which
 * Flux's envsubst replaces by the default when the variable is unset); `overridden` gives every
 * variable its value in a ConfigMap `substituteFrom` names and the defaults decoys instead.
 */
const fluxDefaults = (id: string, what: string, overridden: boolean): Rewrite => ({
  id,
  what,
  apply: (sides, _c, random) =>
    replaceEach(sides, (path, text) => {
      const root = join(dirOf(path), `gj-flux-${stem(path)}`);
      const prefix = `gj_${stem(path).replace(/-/g, '_')}`;
      const values: [string, number][] = [];
      const app = mapPlainIntegers(text, (v, keys) => {
        if (keys[0] === 'metadata') return null;
        const name = `${prefix}_${values.length + 1}`;
        values.push([name, v]);
        return `\${${name}${random() < 0.5 ? ':=' : ':-'}${overridden ? decoy(v) : v}}`;
      });
      const flux = fluxKustomization(
        stem(path),
        root,
        overridden
          ? ['    substituteFrom:', '      - kind: ConfigMap', `        name: gj-vars-${stem(path)}`]
          : ['    substitute:', '      gj_cluster: gpu-a'],
      );
      const data = values.length === 0 ? 'data: {}\n' : `data:\n${values.map(([k, v]) => `  ${k}: "${v}"\n`).join('')}`;
      const vars = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gj-vars-${stem(path)}\n  namespace: flux-system\n${data}`;
      return {
        [join(root, `app/${baseName(path)}`)]: app,
        [join(root, 'flux.yaml')]: flux,
        ...(overridden ? { [join(root, 'vars.yaml')]: vars } : {}),
        [join(root, 'kustomization.yaml')]:
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux.yaml\n${overridden ? '  - vars.yaml\n' : ''}`,
      };
    }),
});

const fluxSubstituteDefaults = fluxDefaults(
  'flux-substitute-defaults',
  'the numbers defaults of Flux post-build variables no value sets, `${v:=8}` / `${v:-8}`',
  false,
);

const fluxSubstituteDefaultOverridden = fluxDefaults(
  'flux-substitute-default-overridden',
  'the numbers Flux post-build variables from a ConfigMap, their `${v:=…}` defaults decoys',
  true,
);

// Integers that key a strategic-merge list (ports): a decoy there would add an item, not be overridden.
const MERGE_KEYS = new Set(['containerPort', 'port', 'hostPort']);

/**
 * The changed objects kept as the base has them, and two Components the kustomization includes in
 * order: the first patches every object with decoys, the second with the head's objects whole.
 * Kustomize applies components in the order listed, so the second's values are what is built.
 */
const kustomizeComponentsOrder: Rewrite = {
  id: 'kustomize-components-order',
  what: 'the changed objects whole in the second of two kustomize Components, decoys in the first',
  apply: (sides) =>
    overBase(sides, (_dir, names, heads) => {
      const patches = patchFiles(names, heads);
      const component = (files: readonly [string, string][]) =>
        `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n${files.map(([p]) => `  - path: ${p}\n`).join('')}`;
      const decoys = patches.map(([p, t]): [string, string] => [
        p,
        mapPlainIntegers(t, (v, keys) => (keys[0] === 'metadata' || MERGE_KEYS.has(keys.at(-1) ?? '') ? null : String(decoy(v)))),
      ]);
      return {
        ...Object.fromEntries(decoys.map(([p, t]) => [`gj-component-decoys/${p}`, t])),
        'gj-component-decoys/kustomization.yaml': component(decoys),
        ...Object.fromEntries(patches.map(([p, t]) => [`gj-component-head/${p}`, t])),
        'gj-component-head/kustomization.yaml': component(patches),
        'kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${names
          .map((n) => `  - ${n}\n`)
          .join('')}components:\n  - gj-component-decoys\n  - gj-component-head\n`,
      };
    }),
};

export const GITOPS_OVERRIDES: readonly Rewrite[] = [
  argoValueFilesOrder,
  argoValuesObjectOverFiles,
  argoParametersOverValuesObject,
  helmfileValuesOrder,
  helmfileEnvironmentValues,
  fluxSubstituteDefaults,
  fluxSubstituteDefaultOverridden,
  kustomizeComponentsOrder,
];
