import type { Rewrite } from '../rewrite.js';
import type { Sides } from '../variant-tree.js';
import { baseName, dirOf, freeKubeFiles, join, moveFiles } from './kube-files.js';

const noExtension = (p: string) => join(dirOf(p), `gj-${baseName(p).replace(/\.ya?ml$/, '')}`);

/** The changed files of objects under names with no extension, listed as a kustomization's resources (kustomize reads any name it is given). */
export const kustomizeNoExtension: Rewrite = {
  id: 'kustomize-no-extension',
  what: 'the changed files under names with no extension, resources of a kustomization',
  apply: (sides) => {
    const paths = freeKubeFiles(sides);
    const moved = moveFiles(sides, paths, noExtension);
    if (moved === null) return null;
    const dirs = new Map<string, string[]>();
    for (const p of paths) dirs.set(dirOf(p), [...(dirs.get(dirOf(p)) ?? []), baseName(noExtension(p))]);
    const add = (files: Sides['base']['files']) => {
      for (const [dir, names] of dirs)
        files[join(dir, 'kustomization.yaml')] =
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${names.map((n) => `  - ${n}\n`).join('')}`;
    };
    add(moved.base.files);
    add(moved.head.files);
    return moved;
  },
};
