import type { Tree } from '../../real-fixtures.js';
import { changedFiles, mapFiles } from '../variant-tree.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { kubeDocuments } from '../yaml-text.js';
import type { Document } from 'yaml';

export const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
export const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
export const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/**
 * Changed files of Kubernetes objects at both sides that nothing finds by name: no kustomization
 * or chart in their folder, their name in no other file. Moving or renaming one changes nothing
 * `kubectl apply -f`, Argo CD or Flux on the folder applies.
 */
export function freeKubeFiles(sides: Sides): string[] {
  const all = { ...sides.base.files, ...sides.head.files };
  return changedFiles(sides).filter((p) => {
    const before = sides.base.files[p];
    const after = sides.head.files[p];
    if (before === undefined || after === undefined) return false;
    if (kubeDocuments(p, before) === null || kubeDocuments(p, after) === null) return false;
    const dir = dirOf(p);
    const name = baseName(p);
    // A kustomization is what kustomize builds from, not an object the cluster is given.
    if (/^(kustomization\.ya?ml|Kustomization)$/.test(name)) return false;
    return !Object.entries(all).some(
      ([f, text]) =>
        f !== p && ((dirOf(f) === dir && /^(kustomization\.ya?ml|Kustomization|Chart\.yaml)$/.test(baseName(f))) || text.includes(name)),
    );
  });
}

/** Both sides with each of `paths` moved to `to(path)`, its text passed through `text` (the side's own). */
export function moveFiles(sides: Sides, paths: readonly string[], to: (path: string) => string, text = (t: string) => t): Sides | null {
  if (paths.length === 0) return null;
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = { ...tree.files };
    for (const p of paths) {
      const t = files[p];
      delete files[p];
      if (t !== undefined) files[to(p)] = text(t);
    }
    return { files, special: { ...tree.special } };
  };
  return { base: side(sides.base), head: side(sides.head) };
}

/**
 * A kustomization file: kustomize decodes it with sigs.k8s.io/yaml, which reads the first YAML
 * document only, and refuses a `List`. A rewrite of a file's document stream (a List around the
 * objects, documents before them) keeps what kubectl applies, not what kustomize builds from such
 * a file, so those rewrites leave kustomizations as they are (the reader says not followed of one
 * written so: kustomize/kustomization.ts).
 */
export const isKustomizationFile = (path: string): boolean => /^(kustomization\.ya?ml|Kustomization)$/.test(baseName(path));

/** mapKubeFiles over the files whose every document kubectl applies: kustomization files are left as they are. */
export function mapKubeStreams(sides: Sides, fn: (docs: Document.Parsed[], path: string, text: string) => string | null): Sides | null {
  return mapKubeFiles(sides, (docs, path, text) => (isKustomizationFile(path) ? null : fn(docs, path, text)));
}

/** Every file of Kubernetes objects, at both sides, rewritten by `fn` (null: left as it is). */
export function mapKubeFiles(sides: Sides, fn: (docs: Document.Parsed[], path: string, text: string) => string | null): Sides | null {
  return mapFiles(sides, (path, text) => {
    const docs = kubeDocuments(path, text);
    if (docs === null) return null;
    const out = fn(docs, path, text);
    return out === null || out === text ? null : { [path]: out };
  });
}
