import type { ChangeSet, TreeReader } from '../../src/domain/index.js';

export type Tree = Record<string, string>;

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** One side of a PR in memory that lists directories, as the CLI's and the App's readers do. */
export function listingReader(label: string, tree: Tree): TreeReader {
  return {
    label,
    read: (p) => Promise.resolve(tree[p] ?? null),
    list: (dir) => Promise.resolve(Object.keys(tree).filter((p) => dirOf(p) === dir)),
  };
}

/** A PR whose changed paths are those whose text differs between the two trees. */
export function listingPr(base: Tree, head: Tree): ChangeSet {
  const paths = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]).sort();
  return { base: listingReader('base', base), head: listingReader('head', head), changedPaths: () => Promise.resolve(paths) };
}
