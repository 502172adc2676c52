import { posix } from 'node:path';
import { isKustomizationFile } from './shapes/kube-files.js';
import type { VariantTree } from './variant-tree.js';
import { escapeRegex } from '../../../src/util/escape-regex.js';

/**
 * A file renamed or split by a rewrite, with every kustomization that lists it made to list what
 * replaced it: kustomize builds only the files a kustomization names, so without this the rewrite
 * would not keep the meaning (the build would fail on a missing file).
 */
export function repointKustomizations(tree: VariantTree, from: string, to: readonly string[]): VariantTree {
  const files = { ...tree.files };
  for (const [path, text] of Object.entries(files)) {
    if (!isKustomizationFile(path)) continue;
    const dir = posix.dirname(path);
    const rel = posix.relative(dir, from);
    const item = new RegExp(`^([ \\t]*-[ \\t]+)(["']?)(?:\\./)?${escapeRegex(rel)}\\2[ \\t]*$`, 'gm');
    const out = text.replace(item, (_m, lead: string, quote: string) =>
      to.map((t) => `${lead}${quote}${posix.relative(dir, t)}${quote}`).join('\n'),
    );
    if (out !== text) files[path] = out;
  }
  return { files, special: { ...tree.special } };
}
