import type { Rewrite } from '../rewrite.js';
import { dirOf, join } from '../shapes/kube-files.js';
import { replaceEach, stem, zeroedChart } from './helm-values.js';

/*
 * The changed file a chart's template whose values.yaml sets every number 0, installed with the
 * numbers by the other tools that install a chart of the repository: a Flux HelmRelease from the
 * repository's GitRepository, kustomize's Helm inflator (`helmCharts`).
 */

/** The numbers of a Flux HelmRelease's inline `values`, the chart a path of the GitRepository `flux-system`. */
export const fluxHelmReleaseValues: Rewrite = {
  id: 'flux-helmrelease-values',
  what: "the changed file a chart, its numbers a Flux HelmRelease's `values`",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
      const t = zeroedChart(path, text, chart, `gj-${stem(path)}`);
      return {
        ...t.files,
        [join(dirOf(path), `gj-release-${stem(path)}.yaml`)]: [
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
          t.values.length === 0 ? '  values: {}' : '  values:',
          ...t.values.map(([k, v]) => `    ${k}: ${v}`),
          '',
        ].join('\n'),
      };
    }),
};

/** The numbers a kustomization's `helmCharts` entry gives in `valuesInline`, the chart in its `charts/` folder. */
export const kustomizeHelmCharts: Rewrite = {
  id: 'kustomize-helm-charts',
  what: "the changed file a chart under `charts/`, its numbers a kustomization's `helmCharts` `valuesInline`",
  apply: (sides) =>
    replaceEach(sides, (path, text) => {
      const name = `gj-${stem(path)}`;
      const dir = join(dirOf(path), `gj-inflate-${stem(path)}`);
      const chart = join(dir, `charts/${name}`);
      const t = zeroedChart(path, text, chart, name);
      return {
        ...t.files,
        [join(dir, 'kustomization.yaml')]: [
          'apiVersion: kustomize.config.k8s.io/v1beta1',
          'kind: Kustomization',
          'helmCharts:',
          `  - name: ${name}`,
          `    releaseName: ${name}`,
          t.values.length === 0 ? '    valuesInline: {}' : '    valuesInline:',
          ...t.values.map(([k, v]) => `      ${k}: ${v}`),
          '',
        ].join('\n'),
      };
    }),
};
