import { dirOf } from '../../detect/kit/paths.js';
import { mapGet, nodeLine, scalarString } from '../../detect/kit/yaml-nodes.js';
import { isKustomizationPath, KUSTOMIZATION_NAMES, readKustomization, resolvePath } from '../../detect/kustomize/kustomization.js';
import type { SourceRef } from '../../domain/index.js';

/** Kustomizations followed into the folders they list, at most: a repository's, not a maze. */
const MAX_DEPTH = 16;

interface Read {
  namespace: { name: string; source: SourceRef } | null;
  /** The files and kustomizations (by path) its resources list. */
  refs: string[];
}

/**
 * The namespace a kustomization's `namespace:` gives each manifest file it applies, directly or
 * through the folders it lists (kustomize sets it on every object it renders, over their own).
 * A file applied by several kustomizations with different namespaces (overlays per team or
 * environment) gets each. Files no kustomization with a namespace applies are absent.
 */
export function kustomizeNamespaces(files: readonly { path: string; text: string }[]): Map<string, { name: string; source: SourceRef }[]> {
  const kustomizations = new Map<string, Read>();
  for (const f of files) {
    if (!isKustomizationPath(f.path)) continue;
    const read = readKustomization(f.path, f.text);
    if (!read.ok) continue;
    const k = read.value;
    const node = mapGet(k.root, 'namespace');
    const name = scalarString(node);
    const refs = [...(k.spec.resources ?? []), ...(k.spec.bases ?? [])].flatMap((r) => {
      const p = resolvePath(k.dir, r);
      if (p === null) return [];
      return /\.(ya?ml|json)$/i.test(p) ? [p] : KUSTOMIZATION_NAMES.map((n) => (p === '' ? n : `${p}/${n}`));
    });
    kustomizations.set(f.path, {
      namespace: name ? { name, source: { file: f.path, line: nodeLine(node, k.lc) } } : null,
      refs,
    });
  }
  const out = new Map<string, { name: string; source: SourceRef }[]>();
  const add = (file: string, ns: { name: string; source: SourceRef }) => {
    const seen = out.get(file) ?? [];
    if (!seen.some((s) => s.name === ns.name)) out.set(file, [...seen, ns]);
  };
  for (const [path, k] of kustomizations) {
    if (k.namespace === null) continue;
    const ns = k.namespace;
    // Every manifest file this kustomization renders, through the kustomizations it lists; an
    // inner kustomization's own namespace is overridden by this one's, as kustomize applies it.
    const visit = (at: string, depth: number, seen: Set<string>) => {
      if (depth > MAX_DEPTH || seen.has(at)) return;
      seen.add(at);
      for (const ref of kustomizations.get(at)?.refs ?? []) {
        if (kustomizations.has(ref)) visit(ref, depth + 1, seen);
        else if (!isKustomizationPath(ref)) add(ref, ns);
      }
    };
    visit(path, 0, new Set());
  }
  return out;
}

/** Folders shared by two paths, for how near two manifests sit: `a/b/x.yaml`, `a/c/y.yaml` → 1. */
export function sharedDepth(a: string, b: string): number {
  if (a === b) return Number.MAX_SAFE_INTEGER;
  const x = dirOf(a).split('/');
  const y = dirOf(b).split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n] && x[n] !== '') n++;
  return n;
}
