import { LineCounter } from 'yaml';
import { readYaml, toJson, yamlValue } from '../kit/kube-yaml.js';

/**
 * One chart install an Argo CD `Application` or a Flux `HelmRelease` declares: the chart (a folder
 * of this repository, or one elsewhere) and the values it is installed with, in Helm's order.
 */
export interface GitopsInstall {
  /** `Application/<name>#<source>` or `HelmRelease/<name>`: the same install at both sides. */
  key: string;
  chart: { local: string } | { remote: string };
  /** Values files, as repository paths, lowest precedence first (after the chart's values.yaml). */
  valueFiles: string[];
  /** Inline values over the files, lowest precedence first. */
  inline: unknown[];
  /** Values from elsewhere the review cannot read (a Secret, a ConfigMap of the cluster). */
  unread: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** `a/./b/../c` → `a/c`; null when it climbs out of the repository. */
function normal(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

const MARKERS = /argoproj\.io\/|helm\.toolkit\.fluxcd\.io\//;

/** The chart installs a file declares; none when it holds no Application or HelmRelease. */
export function gitopsInstalls(text: string): GitopsInstall[] {
  if (!MARKERS.test(text)) return [];
  const out: GitopsInstall[] = [];
  for (const doc of readYaml(text, new LineCounter())) {
    if (doc.errors.length > 0) continue;
    const obj = toJson(doc.contents);
    if (!isObj(obj) || !isObj(obj.metadata) || !isObj(obj.spec)) continue;
    const name = str(obj.metadata.name) ?? '(unnamed)';
    const api = str(obj.apiVersion) ?? '';
    if (api.startsWith('argoproj.io/') && obj.kind === 'Application') out.push(...argoInstalls(name, obj.spec));
    if (api.startsWith('helm.toolkit.fluxcd.io/') && obj.kind === 'HelmRelease') out.push(...fluxInstalls(name, obj.spec));
  }
  return out;
}

/**
 * Argo CD: a source with `path` is a folder of its Git repository, one with `chart` a chart of a
 * Helm repository. `helm.valueFiles` are relative to the source's path, or `$<ref>/…` from the root
 * of the source with that `ref`; `values` and then `valuesObject` go over them. A Git source is
 * taken to be this repository when the folder holds a chart here.
 */
function argoInstalls(name: string, spec: Obj): GitopsInstall[] {
  const sources: unknown[] = Array.isArray(spec.sources) ? spec.sources : isObj(spec.source) ? [spec.source] : [];
  const refs = new Set(sources.flatMap((s) => (isObj(s) && str(s.ref) !== null ? [str(s.ref) as string] : [])));
  const out: GitopsInstall[] = [];
  sources.forEach((source, i) => {
    if (!isObj(source) || !isObj(source.helm)) return;
    const helm = source.helm;
    const path = str(source.path);
    const chartName = str(source.chart);
    const root = path === null ? null : normal(path);
    const chart =
      root !== null && chartName === null
        ? { local: root }
        : { remote: `${str(source.repoURL) ?? '?'}${chartName === null ? '' : ` ${chartName}`}` };
    const valueFiles: string[] = [];
    const unread: string[] = [];
    for (const f of Array.isArray(helm.valueFiles) ? helm.valueFiles : []) {
      const file = str(f);
      if (file === null) continue;
      const ref = /^\$([A-Za-z0-9_-]+)\/(.*)$/.exec(file);
      const resolved = ref ? (refs.has(ref[1] ?? '') ? normal(ref[2] ?? '') : null) : root === null ? null : normal(`${root}/${file}`);
      if (resolved === null) unread.push(`valueFiles ${file}`);
      else valueFiles.push(resolved);
    }
    const inline: unknown[] = [];
    const values = str(helm.values);
    if (values !== null) inline.push(yamlValue(values) ?? {});
    else if (isObj(helm.values)) inline.push(helm.values);
    if (isObj(helm.valuesObject)) inline.push(helm.valuesObject);
    // `parameters` set single values over everything else, as `--set` does.
    for (const p of Array.isArray(helm.parameters) ? helm.parameters : []) {
      const key = isObj(p) ? str(p.name) : null;
      if (key !== null && isObj(p)) inline.push(setPath(key, p.value));
    }
    out.push({ key: `Application/${name}#${String(i)}`, chart, valueFiles, inline, unread });
  });
  return out;
}

/**
 * Flux: `spec.chart.spec.chart` is a path of a `GitRepository` source (this repository when the
 * folder holds a chart here), or a chart of a `HelmRepository` / `OCIRepository`; `spec.chartRef`
 * names an `OCIRepository` or `HelmChart`. `valuesFrom` (ConfigMaps and Secrets of the cluster)
 * come first, `spec.values` over them.
 */
function fluxInstalls(name: string, spec: Obj): GitopsInstall[] {
  const chartSpec = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec : null;
  const sourceKind = chartSpec !== null && isObj(chartSpec.sourceRef) ? str(chartSpec.sourceRef.kind) : null;
  const chartPath = chartSpec === null ? null : str(chartSpec.chart);
  const root = sourceKind === 'GitRepository' && chartPath !== null ? normal(chartPath) : null;
  const chart =
    root !== null
      ? { local: root }
      : { remote: chartPath ?? (isObj(spec.chartRef) ? `${str(spec.chartRef.kind) ?? '?'}/${str(spec.chartRef.name) ?? '?'}` : '?') };
  const valueFiles: string[] = [];
  for (const f of chartSpec !== null && Array.isArray(chartSpec.valuesFiles) ? chartSpec.valuesFiles : []) {
    const file = str(f);
    const resolved = file === null ? null : normal(file);
    if (resolved !== null) valueFiles.push(resolved);
  }
  const unread = (Array.isArray(spec.valuesFrom) ? spec.valuesFrom : []).map((v) =>
    isObj(v) ? `valuesFrom ${str(v.kind) ?? '?'}/${str(v.name) ?? '?'}` : 'valuesFrom',
  );
  const inline = isObj(spec.values) ? [spec.values] : [];
  return [{ key: `HelmRelease/${name}`, chart, valueFiles, inline, unread }];
}

function setPath(path: string, value: unknown): Obj {
  const steps = path.split('.');
  let out: unknown = value;
  for (let i = steps.length - 1; i >= 0; i--) out = { [steps[i] ?? '']: out };
  return out as Obj;
}
