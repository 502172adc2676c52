import type { Rewrite } from '../../rewrite.js';
import { baseName, dirOf, join } from '../../shapes/kube-files.js';
import { mapPlainIntegers } from '../../yaml-text.js';
import { replaceEach, stem, zeroedChart } from '../helm-values.js';

const chartYaml = (name: string) => `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`;

/** The file's numbers outside `metadata` spelt by `ref` (the value's name and the number) as a chart template, with the numbers by name. */
function template(text: string, ref: (name: string, v: number) => string): { text: string; values: [string, number][] } {
  const values: [string, number][] = [];
  const out = mapPlainIntegers(text, (v, keys) => {
    if (keys[0] === 'metadata') return null;
    values.push([`gj${values.length + 1}`, v]);
    return ref(`gj${values.length}`, v);
  });
  return { text: out, values };
}

/** The changed file a chart (`gj-chart-<file>/`) made by `make` from its template and values. */
const chartOf =
  (
    make: (t: { text: string; values: [string, number][] }) => { values: string; template: string },
    ref: (n: string, v: number) => string,
  ) =>
  (path: string, text: string) => {
    const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
    const t = template(text, ref);
    const out = make(t);
    return {
      [`${chart}/Chart.yaml`]: chartYaml(`gj-${stem(path)}`),
      [`${chart}/values.yaml`]: out.values || '{}\n',
      [`${chart}/templates/${baseName(path)}`]: out.template,
    };
  };

/**
 * Each number a value that is itself a template, rendered by `tpl`: values.yaml holds
 * `gjN: 8` and `gjTplN: "{{ .Values.gjN }}"`, the template `{{ tpl .Values.gjTplN . }}`.
 */
export const helmTplValues: Rewrite = {
  id: 'helm-tpl-values',
  what: 'the changed file a Helm template, each number a value rendered through `tpl` from another value',
  apply: (sides) =>
    replaceEach(
      sides,
      chartOf(
        (t) => ({
          values: t.values.map(([k, v]) => `${k}: ${v}\n${k}Tpl: "{{ .Values.${k} }}"\n`).join(''),
          template: t.text,
        }),
        (n) => `{{ tpl .Values.${n}Tpl . }}`,
      ),
    ),
};

/** Each number the `default` of a value values.yaml does not set: `{{ .Values.gjN | default 8 }}`. */
export const helmTemplateDefaults: Rewrite = {
  id: 'helm-template-defaults',
  what: 'the changed file a Helm template, each number the `default` of a value left unset',
  apply: (sides) =>
    replaceEach(
      sides,
      chartOf(
        (t) => ({ values: '', template: t.text }),
        (n, v) => `{{ .Values.${n} | default ${v} }}`,
      ),
    ),
};

/** Each number a value under a key with a dash, read with `index`: `{{ index .Values "gpu-pool" "gj-1" }}`. */
export const helmIndexedValues: Rewrite = {
  id: 'helm-indexed-values',
  what: 'the changed file a Helm template, each number a dashed key read with `index .Values "gj-pool" "gj-1"`',
  apply: (sides) =>
    replaceEach(
      sides,
      chartOf(
        (t) => ({
          values: t.values.length === 0 ? '' : `gj-pool:\n${t.values.map(([k, v]) => `  ${k.replace('gj', 'gj-')}: ${v}\n`).join('')}`,
          template: t.text,
        }),
        (n) => `{{ index .Values "gj-pool" "${n.replace('gj', 'gj-')}" }}`,
      ),
    ),
};

/**
 * The numbers a Flux HelmRelease takes by `valuesFrom` from a ConfigMap of the same folder (which
 * the Flux Kustomization applying the folder creates), the chart's own values all 0.
 */
export const fluxValuesFrom: Rewrite = {
  id: 'flux-values-from',
  what: "the changed file a chart, its numbers in a ConfigMap a Flux HelmRelease's `valuesFrom` names",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const t = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      return {
        ...t.files,
        [join(dirOf(path), `gj-release-${stem(path)}.yaml`)]: [
          'apiVersion: v1',
          'kind: ConfigMap',
          'metadata:',
          `  name: gj-values-${stem(path)}`,
          '  namespace: flux-system',
          'data:',
          '  values.yaml: |',
          ...(t.values.length === 0 ? ['    {}'] : t.values.map(([k, v]) => `    ${k}: ${v}`)),
          '---',
          'apiVersion: helm.toolkit.fluxcd.io/v2',
          'kind: HelmRelease',
          'metadata:',
          `  name: gj-${stem(path)}`,
          '  namespace: flux-system',
          'spec:',
          '  interval: 10m',
          '  chart:',
          '    spec:',
          `      chart: ./${chart}`,
          '      sourceRef:',
          '        kind: GitRepository',
          '        name: flux-system',
          '  valuesFrom:',
          '    - kind: ConfigMap',
          `      name: gj-values-${stem(path)}`,
          '      valuesKey: values.yaml',
          '',
        ].join('\n'),
      };
    }),
};
