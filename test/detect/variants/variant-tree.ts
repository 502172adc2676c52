import { dirsIn, filesIn } from '../../../src/cli/tree-readers/dir-reader.js';
import { detectChanges } from '../../../src/detect/detect-changes.js';
import type { DetectedChanges } from '../../../src/detect/detect-changes.js';
import { notAFileIn, resolvePath } from '../../../src/domain/files.js';
import type { ChangeSet, TreeEntries, TreeReader } from '../../../src/domain/index.js';
import { decodeText } from '../../../src/util/decode-text.js';
import type { Tree } from '../real-fixtures.js';

/** A path that is no regular file: a symbolic link to `link`, or a submodule at commit `submodule`. */
type Special = { link: string } | { submodule: string };

/**
 * One side of a variant: regular files by path, and links and submodules beside them; `bytes`
 * holds files as stored (another encoding than UTF-8), which the reader decodes as the tree
 * readers decode what git and GitHub give them.
 */
export interface VariantTree {
  files: Tree;
  special: Record<string, Special>;
  bytes?: Record<string, Uint8Array>;
}

/** The base and head of a pull request. */
export interface Sides {
  base: VariantTree;
  head: VariantTree;
}

export function plain(files: Tree): VariantTree {
  return { files, special: {} };
}

/**
 * One side as the CLI's git reader sees a commit: a link read as its target inside the tree, a
 * submodule or a link leading elsewhere an UnreadablePathError (the same `resolvePath` as the
 * reader's), directories listed from the regular files.
 */
function reader(label: string, tree: VariantTree): TreeReader {
  const stored = tree.bytes ?? {};
  const paths = [...Object.keys(tree.files), ...Object.keys(stored)];
  const entries: TreeEntries = {
    isFile: (p) => Object.hasOwn(tree.files, p) || Object.hasOwn(stored, p),
    linkAt: (p) => {
      const e = tree.special[p];
      return Promise.resolve(e && 'link' in e ? e.link : undefined);
    },
    submoduleAt: (p) => {
      const e = tree.special[p];
      return e && 'submodule' in e ? e.submodule : undefined;
    },
    isDirectory: (p) => Promise.resolve(paths.some((f) => f.startsWith(`${p}/`))),
    hasSpecial: Object.keys(tree.special).length > 0,
  };
  return {
    label,
    read: async (p) => {
      const at = await resolvePath(p, p, entries);
      if (at === null) return null;
      const raw = stored[at];
      return raw === undefined ? (tree.files[at] ?? null) : decodeText(raw);
    },
    list: (dir) => Promise.resolve(filesIn(paths, dir)),
    dirs: (dir) => Promise.resolve(dirsIn(paths, dir)),
    notAFile: (p) => notAFileIn(p, p, entries),
  };
}

/** What each path is on a side, comparable across sides. */
function keyOf(tree: VariantTree, path: string): string | undefined {
  const special = tree.special[path];
  if (special) return JSON.stringify(special);
  const raw = tree.bytes?.[path];
  if (raw) return `bytes:${Buffer.from(raw).toString('base64')}`;
  const text = tree.files[path];
  return text === undefined ? undefined : `file:${text}`;
}

/**
 * Detection of the pull request from `base` to `head`, as a review runs it: the paths that differ
 * are changed; `repositories` are the repository's own names, as a review reads them from remotes.
 */
export function detectVariant(sides: Sides, repositories?: readonly string[]): Promise<DetectedChanges> {
  const all = new Set([
    ...Object.keys(sides.base.files),
    ...Object.keys(sides.base.special),
    ...Object.keys(sides.head.files),
    ...Object.keys(sides.head.special),
    ...Object.keys(sides.base.bytes ?? {}),
    ...Object.keys(sides.head.bytes ?? {}),
  ]);
  const changed = [...all].filter((p) => keyOf(sides.base, p) !== keyOf(sides.head, p)).sort();
  const set: ChangeSet = {
    base: reader('base', sides.base),
    head: reader('head', sides.head),
    changedPaths: () => Promise.resolve(changed),
    ...(repositories ? { repositories } : {}),
  };
  return detectChanges(set);
}

/** The paths whose content differs between the sides. */
export function changedFiles(sides: Sides): string[] {
  const all = new Set([...Object.keys(sides.base.files), ...Object.keys(sides.head.files)]);
  return [...all].filter((p) => sides.base.files[p] !== sides.head.files[p]).sort();
}

/** Both sides' files passed through `fn` (path → new entries); the specials kept. */
export function mapFiles(sides: Sides, fn: (path: string, text: string, side: 'base' | 'head') => Tree | null): Sides | null {
  // An object, not a `let`: the closure sets it, which narrowing does not see.
  const seen = { touched: false };
  const side = (tree: VariantTree, name: 'base' | 'head'): VariantTree => {
    const files: Tree = {};
    for (const [path, text] of Object.entries(tree.files)) {
      const out = fn(path, text, name);
      if (out === null) files[path] = text;
      else {
        seen.touched = true;
        Object.assign(files, out);
      }
    }
    return { files, special: { ...tree.special } };
  };
  const result = { base: side(sides.base, 'base'), head: side(sides.head, 'head') };
  return seen.touched ? result : null;
}
