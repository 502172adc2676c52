import { LineCounter } from 'yaml';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import { forced, isObj, normal, setPath, setValue, str } from './gitops-installs.js';
import type { GitopsInstall } from './gitops-installs.js';

/** `helmfile.yaml`, `helmfile.yaml.gotmpl`, and the files of a `helmfile.d/` folder. */
export function isHelmfilePath(path: string): boolean {
  return /(^|\/)helmfile(\.ya?ml)?(\.gotmpl)?$|(^|\/)helmfile\.d\/[^/]+\.ya?ml(\.gotmpl)?$/i.test(path);
}

const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));
const at = (dir: string, rel: string) => normal(rel.startsWith('/') ? rel : dir === '' ? rel : `${dir}/${rel}`);

/**
 * The releases of a helmfile, as installs: a chart path (`./charts/x`, relative to the helmfile) is a
 * chart of this repository, anything else (`repo/chart`, `oci://…`) a chart elsewhere. Values files
 * (relative to the helmfile) then inline values, then `set`, in helmfile's order. A helmfile that
 * helmfile renders as a Go template first (`.gotmpl`, or `{{` in it) is read for the values files it
 * names, and its releases are `templated`: what its environment makes of them is not worked out.
 */
export function helmfileInstalls(path: string, text: string): GitopsInstall[] {
  if (!isHelmfilePath(path)) return [];
  const dir = dirOf(path);
  if (/\.gotmpl$/i.test(path) || text.includes('{{')) {
    // The values files it may name, each a candidate: enough to find the helmfile from a changed one.
    const files = [...text.matchAll(/[\w./-]+\.ya?ml(?:\.gotmpl)?\b/g)].flatMap((m) => at(dir, m[0]) ?? []);
    const why = 'a helmfile rendered as a Go template (.gotmpl or `{{`): what its environment makes of its releases is not worked out';
    // The charts of this repository it installs (`chart: ./charts/x`, written plainly): what their
    // templates count is then what the named files may change.
    const locals = [...text.matchAll(/^\s*-?\s*chart:\s*["']?(\.{1,2}\/[^\s"'{}]+)["']?\s*$/gm)].flatMap((m) => at(dir, m[1] ?? '') ?? []);
    const charts: GitopsInstall['chart'][] =
      locals.length > 0 ? [...new Set(locals)].map((local) => ({ local, repo: null, url: path })) : [{ remote: path }];
    return charts.map((chart) => ({
      key: `helmfile/${path}${'local' in chart ? `#${chart.local}` : ''}`,
      chart,
      valueFiles: [...new Set(files)],
      inline: [],
      unread: [],
      release: { name: 'release-name', namespace: 'default' },
      templated: why,
    }));
  }
  const out: GitopsInstall[] = [];
  const state = stateFiles(text, dir);
  for (const doc of readYaml(text, new LineCounter())) {
    if (doc.errors.length > 0) continue;
    const obj = toJson(doc.contents);
    if (!isObj(obj) || !Array.isArray(obj.releases)) continue;
    for (const r of obj.releases) {
      if (!isObj(r) || r.installed === false) continue;
      const name = str(r.name) ?? '(unnamed)';
      const chartRef = str(r.chart) ?? '?';
      const local = /^\.{1,2}\//.test(chartRef) ? at(dir, chartRef) : null;
      const valueFiles: string[] = [];
      const inline: unknown[] = [];
      const unread: string[] = [];
      const unreadWritten: unknown[] = [];
      for (const v of Array.isArray(r.values) ? r.values : []) {
        const file = str(v);
        if (file !== null) {
          const resolved = /\.gotmpl$/i.test(file) ? null : at(dir, file);
          if (resolved === null) unread.push(`values ${file}`);
          else valueFiles.push(resolved);
        } else if (isObj(v)) inline.push(v);
      }
      for (const s of Array.isArray(r.set) ? r.set : []) {
        const key = isObj(s) ? str(s.name) : null;
        const set = key === null || !isObj(s) || !('value' in s) ? null : setPath(key, setValue(s.value));
        if (set === null) {
          unread.push(`set ${key ?? '?'}`);
          unreadWritten.push(s);
        } else inline.push(set);
      }
      for (const s of Array.isArray(r.setString) ? r.setString : []) {
        const key = isObj(s) ? str(s.name) : null;
        const set = key === null || !isObj(s) ? null : setPath(key, forced(s.value));
        if (set === null) {
          unread.push(`setString ${key ?? '?'}`);
          unreadWritten.push(s);
        } else inline.push(set);
      }
      for (const k of ['secrets', 'valuesTemplate', 'setTemplate', 'condition'] as const) {
        if (r[k] === undefined) continue;
        unread.push(k);
        unreadWritten.push({ [k]: r[k] });
      }
      const chart = local === null ? { remote: chartRef } : { local, repo: null, url: path };
      const release = { name, namespace: str(r.namespace) ?? 'default' };
      out.push({
        key: `helmfile/${name}`,
        chart,
        valueFiles,
        inline,
        unread,
        ...(unreadWritten.length > 0 ? { unreadWritten } : {}),
        release,
      });
      // What reads the environment's values (a `.gotmpl` values file, valuesTemplate, setTemplate)
      // is a template not worked out: each file of the state feeds this release, and is only named.
      const templated = unread.some((u) => /^(values .*\.gotmpl|valuesTemplate|setTemplate)$/i.test(u));
      const feeding = [...(templated ? state.environments : []), ...state.bases];
      if (feeding.length > 0)
        out.push({
          key: `helmfile/${name}#state`,
          chart,
          valueFiles: feeding,
          inline: [],
          unread: [],
          release,
          templated: `helmfile ${templated ? 'environment values (`environments`) and ' : ''}state files (\`bases\`) that the release's templates read are not worked out for each environment`,
        });
    }
  }
  return out;
}

/**
 * The files of a helmfile's state beside its releases: `environments.<name>.values` (and
 * `secrets`) files, which only templates read (`{{ .Environment.Values.x }}`, `.StateValues`), and
 * `bases`, merged into the state whole (their environments, defaults, even releases).
 */
function stateFiles(text: string, dir: string): { environments: string[]; bases: string[] } {
  const environments = new Set<string>();
  const bases = new Set<string>();
  for (const doc of readYaml(text, new LineCounter())) {
    if (doc.errors.length > 0) continue;
    const obj = toJson(doc.contents);
    if (!isObj(obj)) continue;
    for (const env of isObj(obj.environments) ? Object.values(obj.environments) : []) {
      if (!isObj(env)) continue;
      for (const v of [...(Array.isArray(env.values) ? env.values : []), ...(Array.isArray(env.secrets) ? env.secrets : [])]) {
        const file = str(v);
        const resolved = file === null ? null : at(dir, file);
        if (resolved !== null) environments.add(resolved);
      }
    }
    for (const b of Array.isArray(obj.bases) ? obj.bases : []) {
      const file = str(b);
      const resolved = file === null ? null : at(dir, file);
      if (resolved !== null) bases.add(resolved);
    }
  }
  return { environments: [...environments].sort(), bases: [...bases].sort() };
}
