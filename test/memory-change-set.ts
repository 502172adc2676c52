import type { ChangeSet, TreeReader } from '../src/domain/index.js';

export type Tree = Record<string, string>;

function reader(label: string, tree: Tree): TreeReader {
  return { label, read: (path) => Promise.resolve(Object.hasOwn(tree, path) ? (tree[path] ?? null) : null) };
}

/** A PR held in memory: the paths whose text differs between the two trees are the changed ones. */
export function memoryChangeSet(base: Tree, head: Tree): ChangeSet {
  const paths = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]).sort();
  return { base: reader('base', base), head: reader('head', head), changedPaths: () => Promise.resolve(paths) };
}
