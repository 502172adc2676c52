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
    return [
      {
        key: `helmfile/${path}`,
        chart: { remote: path },
        valueFiles: [...new Set(files)],
        inline: [],
        unread: [],
        release: { name: 'release-name', namespace: 'default' },
        templated: why,
      },
    ];
  }
  const out: GitopsInstall[] = [];
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
        if (set === null) unread.push(`set ${key ?? '?'}`);
        else inline.push(set);
      }
      for (const s of Array.isArray(r.setString) ? r.setString : []) {
        const key = isObj(s) ? str(s.name) : null;
        const set = key === null || !isObj(s) ? null : setPath(key, forced(s.value));
        if (set === null) unread.push(`setString ${key ?? '?'}`);
        else inline.push(set);
      }
      for (const k of ['secrets', 'valuesTemplate', 'setTemplate', 'condition'] as const) if (r[k] !== undefined) unread.push(k);
      out.push({
        key: `helmfile/${name}`,
        chart: local === null ? { remote: chartRef } : { local, repo: null, url: path },
        valueFiles,
        inline,
        unread,
        release: { name, namespace: str(r.namespace) ?? 'default' },
      });
    }
  }
  return out;
}
