import { UnreadablePathError, diagnostic } from '../domain/index.js';
import type { ChangeSet, Diagnostic, TreeReader } from '../domain/index.js';
import { dirOf } from './kit/paths.js';
import { withPlainBinary } from './kit/yaml-binary.js';
import { withPlainEscapes } from './kit/yaml-escapes.js';
import { withoutShadowedTf } from './terraform/opentofu-files.js';

/** What the coverage and the inputs it follows need of the two sides: reads, and a directory's files when listable. */
export interface CoverageIo {
  base: TreeReader;
  head: TreeReader;
  list(dir: string): Promise<string[]>;
}

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
  /**
   * Errors on the paths that are there at head but are no file (see notFiles), each reported
   * once: those reads met so far, and the changed paths the head reader says are none.
   */
  notFiles: (changed: readonly string[]) => Promise<Diagnostic[]>;
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
  // Paths that are there at head but are no file (a submodule, a link leading outside), and why.
  const notAFile = new Map<string, string>();
  const reported = new Set<string>();
  const side = (reader: TreeReader, atHead: boolean): TreeReader => {
    const own = new Map<string, Promise<string | null>>();
    return {
      label: reader.label,
      read(path) {
        const [cache, from, head] = changed.has(path) ? [own, reader, atHead] : [unchanged, changes.head, true];
        let text = cache.get(path);
        if (!text) cache.set(path, (text = readFile(from, path, head ? notAFile : null)));
        return text;
      },
    };
  };
  const lister = changes.head.list ? changes.head : changes.base;
  const listings = new Map<string, Promise<string[]>>();
  const list = (dir: string): Promise<string[]> => {
    if (!lister.list) return Promise.resolve([]);
    let listing = listings.get(dir);
    if (!listing) listings.set(dir, (listing = lister.list(dir).then(withoutShadowedTf)));
    return listing;
  };
  const dirListings = new Map<string, Promise<string[]>>();
  const listDirs = lister.dirs?.bind(lister);
  const notFiles = async (paths: readonly string[]): Promise<Diagnostic[]> => {
    const probe = changes.head.notAFile?.bind(changes.head);
    if (probe) {
      for (const path of paths) {
        if (notAFile.has(path)) continue;
        const why = await probe(path);
        if (why !== null) notAFile.set(path, why);
      }
    }
    const out: Diagnostic[] = [];
    for (const [path, why] of notAFile) {
      if (reported.has(path)) continue;
      reported.add(path);
      out.push(diagnostic(path, null, 'error', why));
    }
    return out;
  };
  return {
    base: side(changes.base, false),
    head: side(changes.head, true),
    notFiles,
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
    // A kustomization names a directory by trying each name a kustomization may have. A path the
    // listing lacks may still be inside what is no directory of files (a submodule): that is noted.
    mayExist: async (path) => {
      if (changed.has(path) || !lister.list || (await list(dirOf(path))).includes(path)) return true;
      const why = notAFile.has(path) ? null : ((await changes.head.notAFile?.(path)) ?? null);
      if (why !== null) notAFile.set(path, why);
      return false;
    },
  };
}

/**
 * A read that meets a path which is there but is no file reads as absent on that side, and at
 * head the path is noted (`into`) for an error on it: what it stands for was not read, which is
 * never the same as its objects removed. At base it was there before the pull request: what it
 * held is not counted, so whatever head declares there counts as added.
 */
async function readFile(reader: TreeReader, path: string, into: Map<string, string> | null): Promise<string | null> {
  try {
    const text = await reader.read(path);
    // Every reader (the parsers, the floor, the followers) sees a name spelt with escapes, or in a
    // `!!binary` scalar, as written plainly.
    return text === null ? null : withPlainBinary(path, withPlainEscapes(path, text));
  } catch (err) {
    if (!(err instanceof UnreadablePathError)) throw err;
    into?.set(path, err.why);
    return null;
  }
}
