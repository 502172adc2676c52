import { isKustomizationPath } from '../kustomize/kustomization.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { isObj, normal, str } from './gitops-installs.js';
import type { GitopsInstall } from './gitops-installs.js';

const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));
const at = (dir: string, rel: string) => normal(dir === '' ? rel : `${dir}/${rel}`);

// Fields of a kustomization that change the objects its charts render.
const TRANSFORMS = [
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'replicas',
  'replacements',
  'transformers',
  'components',
  'namePrefix',
  'nameSuffix',
  'namespace',
] as const;

/**
 * A kustomization's `helmCharts` (kustomize's Helm inflator), as installs: with no `repo`, the chart
 * is the folder `<chartHome>/<name>` beside the kustomization (`chartHome` from `helmGlobals`,
 * `charts` by default); with one, a chart elsewhere. `valuesFile` and `additionalValuesFiles`
 * (relative to the kustomization) then `valuesInline`. `valuesMerge: replace`, and patches or other
 * transformers of the kustomization over what the chart renders, are not worked out: a chart that
 * renders capacity is then not followed.
 */
export function kustomizeChartInstalls(path: string, text: string): GitopsInstall[] {
  if (!isKustomizationPath(path) || !text.includes('helmCharts')) return [];
  const k = yamlValue(text);
  if (!isObj(k) || !Array.isArray(k.helmCharts)) return [];
  const dir = dirOf(path);
  const home = (isObj(k.helmGlobals) ? str(k.helmGlobals.chartHome) : null) ?? 'charts';
  // What the kustomization does to the chart's objects after rendering is not applied to them here.
  const after = TRANSFORMS.filter((t) => k[t] !== undefined && k[t] !== null);
  return k.helmCharts.flatMap((c, i): GitopsInstall[] => {
    if (!isObj(c)) return [];
    const name = str(c.name) ?? '?';
    const repo = str(c.repo);
    const local = repo === null ? at(dir, `${home}/${name}`) : null;
    const valueFiles: string[] = [];
    const unread: string[] = [];
    for (const f of [c.valuesFile, ...(Array.isArray(c.additionalValuesFiles) ? c.additionalValuesFiles : [])]) {
      const file = str(f);
      if (file === null) continue;
      const resolved = /^[a-z]+:\/\//i.test(file) ? null : at(dir, file);
      if (resolved === null) unread.push(`valuesFile ${file}`);
      else valueFiles.push(resolved);
    }
    if (str(c.valuesMerge) === 'replace') unread.push('valuesMerge replace');
    for (const t of after) unread.push(`${t} over the chart's objects`);
    return [
      {
        key: `helmCharts/${name}#${String(i)}`,
        chart: local === null ? { remote: `${repo ?? '?'} ${name}` } : { local, repo: null, url: path },
        valueFiles,
        inline: isObj(c.valuesInline) ? [c.valuesInline] : [],
        unread,
        // The transforms' own text: a patch over the chart's objects that changes changes them.
        ...(after.length > 0 ? { unreadWritten: after.map((t) => ({ [t]: k[t] })) } : {}),
        // kustomize's inflator renders as `release-name` unless told otherwise.
        release: { name: str(c.releaseName) ?? 'release-name', namespace: str(c.namespace) ?? 'default' },
      },
    ];
  });
}
