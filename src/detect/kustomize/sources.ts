import { readKustomization } from './kustomization.js';
import type { KustomizationRead } from './kustomization.js';
import { loadObjects } from './patches.js';

type Loaded = ReturnType<typeof loadObjects>;

/**
 * The files one set of kustomizations renders from, each parsed once: several overlays share a
 * base, and a set names its kustomizations' references before rendering them. What is kept is
 * never changed afterwards (patches copy what they write), so renders can share it.
 */
export class Sources {
  private readonly kustomizations = new Map<string, KustomizationRead>();
  private readonly loaded = new Map<string, Loaded>();

  /**
   * `complete`: every file the kustomizations name was looked up in the tree (a set read with its
   * references), so a named file that is not here does not exist at this side and the build fails.
   */
  constructor(
    readonly files: ReadonlyMap<string, string>,
    readonly complete = false,
  ) {}

  text(path: string): string | undefined {
    return this.files.get(path);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** The kustomization at `path`; undefined when the file is not at hand. */
  kustomization(path: string): KustomizationRead | undefined {
    const known = this.kustomizations.get(path);
    if (known) return known;
    const text = this.files.get(path);
    if (text === undefined) return undefined;
    const read = readKustomization(path, text);
    this.kustomizations.set(path, read);
    return read;
  }

  /** The objects of a resource file; undefined when the file is not at hand. */
  objects(path: string): Loaded | undefined {
    const known = this.loaded.get(path);
    if (known) return known;
    const text = this.files.get(path);
    if (text === undefined) return undefined;
    const loaded = loadObjects(text);
    this.loaded.set(path, loaded);
    return loaded;
  }
}
