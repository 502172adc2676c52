import { LineCounter } from 'yaml';
import { repositoryName } from '../../domain/index.js';
import { readYaml, toJson, yamlValue } from '../kit/kube-yaml.js';

/**
 * One chart install an Argo CD `Application` or a Flux `HelmRelease` declares: the chart (a folder
 * of this repository, or one elsewhere) and the values it is installed with, in Helm's order.
 */
export interface GitopsInstall {
  /** `Application/<name>#<source>` or `HelmRelease/<name>`: the same install at both sides. */
  key: string;
  /**
   * A folder of a Git repository (`repo`: its `host/owner/name`, null when the source does not say
   * which, as a Flux `GitRepository` named elsewhere), or a chart of a Helm or OCI repository.
   */
  chart: { local: string; repo: string | null; url: string } | { remote: string };
  /** Values files, as repository paths, lowest precedence first (after the chart's values.yaml). */
  valueFiles: string[];
  /** The Git repository URL of a values file taken from another source's root (`$<ref>/…`). */
  from?: Record<string, string>;
  /** Inline values over the files, lowest precedence first. */
  inline: unknown[];
  /** Values from elsewhere the review cannot read (a Secret, a ConfigMap of the cluster). */
  unread: string[];
  /**
   * Those inputs as written (a `parameters` entry with its value, a `valuesFrom` with its key): a
   * change to them changes what the chart is given, though the review cannot read how.
   */
  unreadWritten?: unknown[];
  /** Values files Argo CD skips when absent (`ignoreMissingValueFiles`). */
  optionalFiles?: true;
  /** The release the chart is rendered as: `.Release.Name` and `.Release.Namespace`. */
  release: { name: string; namespace: string };
  /**
   * Why the chart and values files are not known as given: an ApplicationSet whose generators are
   * not worked out, a templated helmfile. The install is then only named, never rendered.
   */
  templated?: string;
  /**
   * A Flux HelmRelease's `valuesFrom`, in order: ConfigMaps and Secrets of its namespace, which the
   * review reads where the tree holds them (values-from.ts). `file` is where the release is declared.
   */
  valuesFrom?: { refs: ValuesFromRef[]; namespace: string | null; file?: string };
  /** One of the Applications an ApplicationSet makes: its name, which tells its objects apart. */
  copy?: string;
  /** The folders or files of the tree a generator made that Application from: it is there only while they are. */
  element?: string[];
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** `a/./b/../c` → `a/c`; null when it climbs out of the repository. */
export function normal(path: string): string | null {
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

/** The Kubernetes objects of a file that may install charts: Argo CD's and Flux's. */
export function gitopsObjects(text: string): Obj[] {
  if (!MARKERS.test(text)) return [];
  const out: Obj[] = [];
  for (const doc of readYaml(text, new LineCounter())) {
    if (doc.errors.length > 0) continue;
    const obj = toJson(doc.contents);
    if (isObj(obj) && isObj(obj.metadata) && isObj(obj.spec)) out.push(obj);
  }
  return out;
}

/**
 * The chart installs a file's Applications and HelmReleases declare; ApplicationSets are expanded
 * into Applications elsewhere (appset.ts), as they need the tree.
 */
export function gitopsInstalls(text: string): GitopsInstall[] {
  const out: GitopsInstall[] = [];
  for (const obj of gitopsObjects(text)) {
    const meta = obj.metadata as Obj;
    const spec = obj.spec as Obj;
    const name = str(meta.name) ?? '(unnamed)';
    const api = str(obj.apiVersion) ?? '';
    if (api.startsWith('argoproj.io/') && obj.kind === 'Application') out.push(...argoInstalls(`Application/${name}`, spec, name));
    if (api.startsWith('helm.toolkit.fluxcd.io/') && obj.kind === 'HelmRelease') out.push(...fluxInstalls(name, str(meta.namespace), spec));
  }
  return out;
}

/**
 * Argo CD: a source with `path` is a folder of its Git repository, one with `chart` a chart of a
 * Helm repository. `helm.valueFiles` are relative to the source's path, or `$<ref>/…` from the root
 * of the source with that `ref`; `valuesObject` (else `values`) and then `parameters` go over them.
 */
export function argoInstalls(owner: string, spec: Obj, appName: string): GitopsInstall[] {
  // Argo CD installs the release under the Application's name unless `helm.releaseName` says
  // otherwise, into the destination's namespace.
  const namespace = (isObj(spec.destination) ? str(spec.destination.namespace) : null) ?? 'default';
  const sources: unknown[] = Array.isArray(spec.sources) ? spec.sources : isObj(spec.source) ? [spec.source] : [];
  const refs = new Map(
    sources.flatMap((s) => (isObj(s) && str(s.ref) !== null ? [[str(s.ref) as string, str(s.repoURL) ?? '?'] as const] : [])),
  );
  const out: GitopsInstall[] = [];
  sources.forEach((source, i) => {
    if (!isObj(source) || !isObj(source.helm)) return;
    const helm = source.helm;
    const path = str(source.path);
    const chartName = str(source.chart);
    const root = path === null ? null : normal(path);
    const url = str(source.repoURL) ?? '?';
    const chart =
      root !== null && chartName === null
        ? { local: root, repo: repositoryName(url), url }
        : { remote: `${url}${chartName === null ? '' : ` ${chartName}`}` };
    const valueFiles: string[] = [];
    const unread: string[] = [];
    const unreadWritten: unknown[] = [];
    const from: Record<string, string> = {};
    for (const f of Array.isArray(helm.valueFiles) ? helm.valueFiles : []) {
      const file = str(f);
      if (file === null) continue;
      const ref = /^\$([A-Za-z0-9_-]+)\/(.*)$/.exec(file);
      const refUrl = ref ? refs.get(ref[1] ?? '') : undefined;
      const resolved = ref ? (refUrl !== undefined ? normal(ref[2] ?? '') : null) : root === null ? null : normal(`${root}/${file}`);
      if (resolved === null) unread.push(`valueFiles ${file}`);
      else valueFiles.push(resolved);
      if (resolved !== null && refUrl !== undefined) from[resolved] = refUrl;
    }
    const inline: unknown[] = [];
    // Argo CD hands Helm `valuesObject` when it is set, and `values` only when it is not.
    const values = str(helm.values);
    if (isObj(helm.valuesObject)) inline.push(helm.valuesObject);
    else if (values !== null) inline.push(yamlValue(values) ?? {});
    else if (isObj(helm.values)) inline.push(helm.values);
    // `parameters` set single values over everything else, as `--set` (`--set-string`) does.
    for (const p of Array.isArray(helm.parameters) ? helm.parameters : []) {
      const key = isObj(p) ? str(p.name) : null;
      if (key === null || !isObj(p)) continue;
      const set = setPath(key, p.forceString === true ? forced(p.value) : setValue(p.value));
      if (set === null) {
        unread.push(`parameters ${key}`);
        unreadWritten.push(p);
      } else inline.push(set);
    }
    for (const p of Array.isArray(helm.fileParameters) ? helm.fileParameters : []) {
      unread.push(`fileParameters ${isObj(p) ? (str(p.name) ?? '?') : '?'}`);
      unreadWritten.push(p);
    }
    out.push({
      key: `${owner}#${String(i)}`,
      chart,
      valueFiles,
      ...(Object.keys(from).length > 0 ? { from } : {}),
      inline,
      unread,
      ...(unreadWritten.length > 0 ? { unreadWritten } : {}),
      release: { name: str(helm.releaseName) ?? appName, namespace },
      ...(helm.ignoreMissingValueFiles === true ? { optionalFiles: true as const } : {}),
    });
  });
  return out;
}

/**
 * Flux: `spec.chart.spec.chart` is a path of a `GitRepository` source (this repository when the
 * folder holds a chart here), or a chart of a `HelmRepository` / `OCIRepository`; `spec.chartRef`
 * names an `OCIRepository` or `HelmChart`. `valuesFrom` (ConfigMaps and Secrets of the cluster)
 * come first, `spec.values` over them.
 */
function fluxInstalls(name: string, ownNamespace: string | null, spec: Obj): GitopsInstall[] {
  const chartSpec = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec : null;
  const sourceKind = chartSpec !== null && isObj(chartSpec.sourceRef) ? str(chartSpec.sourceRef.kind) : null;
  const chartPath = chartSpec === null ? null : str(chartSpec.chart);
  const root = sourceKind === 'GitRepository' && chartPath !== null ? normal(chartPath) : null;
  const chart =
    root !== null
      ? { local: root, repo: null, url: `GitRepository/${str((chartSpec?.sourceRef as Obj).name) ?? '?'}` }
      : { remote: chartPath ?? (isObj(spec.chartRef) ? `${str(spec.chartRef.kind) ?? '?'}/${str(spec.chartRef.name) ?? '?'}` : '?') };
  const valueFiles: string[] = [];
  const files: unknown[] =
    chartSpec === null ? [] : [...(Array.isArray(chartSpec.valuesFiles) ? (chartSpec.valuesFiles as unknown[]) : []), chartSpec.valuesFile];
  for (const f of files) {
    const file = str(f);
    const resolved = file === null ? null : normal(file);
    if (resolved !== null) valueFiles.push(resolved);
  }
  const valuesFrom: unknown[] = Array.isArray(spec.valuesFrom) ? spec.valuesFrom : [];
  const refs = valuesFrom.map(valuesFromRef);
  // An entry not spelled as Flux reads it cannot be looked up: it stays unread.
  const unread = valuesFrom.flatMap((v, i) =>
    refs[i] === null ? [isObj(v) ? `valuesFrom ${str(v.kind) ?? '?'}/${str(v.name) ?? '?'}` : 'valuesFrom'] : [],
  );
  // Kustomize patches Flux lays over the chart's render: what they make of its objects is not worked out here.
  const patching = postRenderPatches(spec.postRenderers);
  if (patching.length > 0) unread.push(`postRenderers (patches of ${patching.join(', ')})`);
  const written = [...valuesFrom, ...(patching.length > 0 ? [spec.postRenderers] : [])];
  const inline = isObj(spec.values) ? [spec.values] : [];
  // Flux names the release `<targetNamespace>-<name>` when it installs into another namespace.
  const target = str(spec.targetNamespace);
  const release = {
    name: str(spec.releaseName) ?? (target === null ? name : `${target}-${name}`),
    namespace: target ?? ownNamespace ?? 'default',
  };
  return [
    {
      key: `HelmRelease/${name}`,
      chart,
      valueFiles,
      inline,
      unread,
      ...(written.length > 0 ? { unreadWritten: written } : {}),
      ...(refs.some((r) => r !== null)
        ? { valuesFrom: { refs: refs.filter((r): r is ValuesFromRef => r !== null), namespace: ownNamespace } }
        : {}),
      release,
    },
  ];
}

// Kinds that hold no GPU capacity: a post-renderer patch aimed only at them leaves the count as rendered.
const WORKLOAD_KINDS = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
  'Pod',
  'Service',
  'ServiceAccount',
  'Ingress',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'ServiceMonitor',
  'PodMonitor',
  'PrometheusRule',
  'CustomResourceDefinition',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'Namespace',
  'PriorityClass',
]);

/**
 * The kinds a HelmRelease's `postRenderers[].kustomize` patches aim at (`patches`,
 * `patchesJson6902`, `patchesStrategicMerge`; `*` where no kind is given), leaving out patches
 * aimed only at kinds that hold no capacity. `images` change no count.
 */
function postRenderPatches(post: unknown): string[] {
  const kinds = new Set<string>();
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  for (const r of list(post)) {
    const k = isObj(r) && isObj(r.kustomize) ? r.kustomize : null;
    if (k === null) continue;
    const aimed = [
      ...[...list(k.patches), ...list(k.patchesJson6902)].map((p) => (isObj(p) && isObj(p.target) ? str(p.target.kind) : null)),
      ...list(k.patchesStrategicMerge).map((p) => (isObj(p) ? str(p.kind) : null)),
    ];
    for (const kind of aimed) if (kind === null || !WORKLOAD_KINDS.has(kind)) kinds.add(kind ?? '*');
  }
  return [...kinds].sort();
}

/** One `valuesFrom` entry of a HelmRelease, as Flux reads it. */
interface ValuesFromRef {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  /** The data key holding the values: `values.yaml` unless given. */
  valuesKey: string;
  /** Where a single value is set (`--set` style), or null to merge the values at the root. */
  targetPath: string | null;
  optional: boolean;
}

function valuesFromRef(v: unknown): ValuesFromRef | null {
  if (!isObj(v)) return null;
  const kind = str(v.kind);
  const name = str(v.name);
  if ((kind !== 'ConfigMap' && kind !== 'Secret') || name === null) return null;
  return { kind, name, valuesKey: str(v.valuesKey) ?? 'values.yaml', targetPath: str(v.targetPath), optional: v.optional === true };
}

/**
 * `--set a.b=v` as a values tree; null for what Helm's strvals reads in ways not worked out here
 * (list indices `a[0]`, several values in one). A backslash takes the next character as it is, as
 * strvals does (`runesUntil`): `nvidia\.com/gpu` is one key, the usual way to set a GPU limit.
 */
export function setPath(path: string, value: unknown): Obj | null {
  const steps = setKeySteps(path);
  if (steps === null || steps.some((s) => s === '')) return null;
  let out: unknown = value;
  for (let i = steps.length - 1; i >= 0; i--) out = { [steps[i] ?? '']: out };
  return out as Obj;
}

/** The keys of a `--set` path, split at dots no backslash escapes; null for an index, a list or a dangling backslash. */
function setKeySteps(path: string): string[] | null {
  const steps: string[] = [];
  let step = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charAt(i);
    if (c === '\\') {
      if (i + 1 >= path.length) return null;
      step += path.charAt(++i);
    } else if (c === '.') {
      steps.push(step);
      step = '';
    } else if ('[],='.includes(c)) return null;
    else step += c;
  }
  return [...steps, step];
}

/** `--set-string`: the value as text. */
export function forced(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** The type `--set` gives a value (Helm's strvals): booleans, null, integers; anything else a string. */
export function setValue(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? null;
  const lower = v.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  if (lower === 'null') return null;
  // An integer that does not start with 0 (so `010` stays a string), or 0 itself.
  const integer = v === '0' || (/^[+-]?\d+$/.test(v) && !v.startsWith('0'));
  if (integer && Number.isSafeInteger(Number(v))) return Number(v);
  return v;
}
