import type { ChangeSet, TreeReader } from '../domain/index.js';
import { dirOf } from './kit/paths.js';

/** The two sides a detection reads, each read and listing made once (see readers). */
export interface Sides {
  base: TreeReader;
  head: TreeReader;
  /** The files directly inside a directory, from one side's listing; empty when neither can list. */
  list: (dir: string) => Promise<string[]>;
  /** The directories directly inside a directory, when the listing side can tell. */
  dirs?: (dir: string) => Promise<string[]>;
  /** False only for an unchanged path a listing shows is absent: no need to try reading it. */
  mayExist: (path: string) => Promise<boolean>;
}

/**
 * Each path is read at most once per side, however many parsers want it. A path the change set
 * does not change reads the same at both sides (a module's other files, a kustomize base), so it
 * is read once, at head, and so is a directory's listing: its unchanged files are the same at
 * both sides, and its changed ones are in the set already. Where reads and listings are API
 * calls, that halves them.
 */
export function readers(changes: ChangeSet, changed: ReadonlySet<string>): Sides {
  const unchanged = new Map<string, Promise<string | null>>();
  const side = (reader: TreeReader): TreeReader => {
    const own = new Map<string, Promise<string | null>>();
    return {
      label: reader.label,
      read(path) {
        const [cache, from] = changed.has(path) ? [own, reader] : [unchanged, changes.head];
        let text = cache.get(path);
        if (!text) cache.set(path, (text = from.read(path)));
        return text;
      },
    };
  };
  const lister = changes.head.list ? changes.head : changes.base;
  const listings = new Map<string, Promise<string[]>>();
  const list = (dir: string): Promise<string[]> => {
    if (!lister.list) return Promise.resolve([]);
    let listing = listings.get(dir);
    if (!listing) listings.set(dir, (listing = lister.list(dir)));
    return listing;
  };
  const dirListings = new Map<string, Promise<string[]>>();
  const listDirs = lister.dirs?.bind(lister);
  return {
    base: side(changes.base),
    head: side(changes.head),
    list,
    ...(listDirs
      ? {
          dirs: (dir: string): Promise<string[]> => {
            let listing = dirListings.get(dir);
            if (!listing) dirListings.set(dir, (listing = listDirs(dir)));
            return listing;
          },
        }
      : {}),
    // A kustomization names a directory by trying each name a kustomization may have.
    mayExist: async (path) => changed.has(path) || !lister.list || (await list(dirOf(path))).includes(path),
  };
}
