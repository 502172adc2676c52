import type { Tree } from '../real-fixtures.js';
import type { Rewrite } from './rewrite.js';
import { changedFiles } from './variant-tree.js';
import type { Sides, VariantTree } from './variant-tree.js';
import { docText, kubeDocuments, mapPlainIntegers } from './yaml-text.js';

/*
 * The changed objects moved to where a renderer puts them together: a kustomize patch over the
 * object as it was, a Helm chart whose values hold the numbers.
 */

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** Changed files of Kubernetes objects at both sides, in a directory with no kustomization or chart. */
export function movable(sides: Sides): string[] {
  return changedFiles(sides).filter((p) => {
    const before = sides.base.files[p];
    const after = sides.head.files[p];
    if (before === undefined || after === undefined) return false;
    if (kubeDocuments(p, before) === null || kubeDocuments(p, after) === null) return false;
    const dir = dirOf(p);
    return !Object.keys(sides.head.files).some(
      (f) => dirOf(f) === dir && /^(kustomization\.ya?ml|Kustomization|Chart\.yaml)$/.test(baseName(f)),
    );
  });
}

function withFiles(tree: VariantTree, drop: readonly string[], add: Tree): VariantTree {
  const files = { ...tree.files };
  for (const p of drop) delete files[p];
  return { files: { ...files, ...add }, special: { ...tree.special } };
}

/**
 * The object as the base has it, unchanged, listed in a kustomization with a patch per object
 * holding the object whole: the patch is what the pull request changes. Kustomize merges a patch
 * of a custom resource as a JSON merge patch (maps merged, lists replaced), so the render is the
 * head's object.
 */
export const intoKustomizePatch: Rewrite = {
  id: 'kustomize-patch',
  what: 'the changed objects whole in kustomize patches over the base files',
  apply: (sides) => {
    const files = movable(sides);
    if (files.length === 0) return null;
    const side = (tree: VariantTree): VariantTree => {
      const add: Tree = {};
      const byDir = new Map<string, { resources: string[]; patches: string[] }>();
      for (const path of files) {
        const dir = dirOf(path);
        const entry = byDir.get(dir) ?? { resources: [], patches: [] };
        byDir.set(dir, entry);
        entry.resources.push(baseName(path));
        add[path] = sides.base.files[path] ?? '';
        const docs = kubeDocuments(path, tree.files[path] ?? '') ?? [];
        docs.forEach((d, i) => {
          const name = `gj-patch-${baseName(path).replace(/\.ya?ml$/, '')}-${i + 1}.yaml`;
          add[join(dir, name)] = docText(d);
          entry.patches.push(name);
        });
      }
      for (const [dir, { resources, patches }] of byDir) {
        add[join(dir, 'kustomization.yaml')] =
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources.map((r) => `  - ${r}\n`).join('')}patches:\n${patches.map((p) => `  - path: ${p}\n`).join('')}`;
      }
      return withFiles(tree, [], add);
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};

/**
 * The changed file as a Helm chart's template, each number of its objects' specs a value
 * (`{{ .Values.gj3 }}`) that the chart's values.yaml sets: the pull request changes the values.
 */
export const intoHelmValues: Rewrite = {
  id: 'helm-values',
  what: 'the changed file a Helm template, its numbers in values.yaml',
  apply: (sides) => {
    const files = movable(sides);
    if (files.length === 0) return null;
    const side = (tree: VariantTree): VariantTree => {
      const add: Tree = {};
      for (const path of files) {
        const chart = join(dirOf(path), `gj-chart-${baseName(path).replace(/\.ya?ml$/, '')}`);
        const values: string[] = [];
        const template = mapPlainIntegers(tree.files[path] ?? '', (v, keys) => {
          if (keys[0] === 'metadata') return null;
          values.push(`gj${values.length + 1}: ${v}`);
          return `{{ .Values.gj${values.length} }}`;
        });
        add[`${chart}/Chart.yaml`] = `apiVersion: v2\nname: gj-${baseName(path)
          .replace(/\.ya?ml$/, '')
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '-')}\nversion: 0.1.0\n`;
        add[`${chart}/values.yaml`] = `${values.join('\n')}\n`;
        add[`${chart}/templates/${baseName(path)}`] = template;
      }
      return withFiles(tree, files, add);
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};
