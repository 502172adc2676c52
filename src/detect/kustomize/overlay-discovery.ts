import { dirOf, isKustomizationPath, KUSTOMIZATION_NAMES, kustomizationReferences, patchReferences, readKustomization } from './kustomization.js';

/**
 * Where overlays usually sit beside a base: `<dir>/overlays/<env>/kustomization.yaml` for the
 * base's directory or one of its ancestors. A listing names files, not folders, so overlays are
 * looked for by these names only; one in a folder named otherwise is not found.
 */
export const OVERLAY_FOLDERS = ['overlays', 'envs', 'environments', 'clusters'] as const;
export const OVERLAY_NAMES = ['prod', 'production', 'staging', 'stage', 'dev', 'development', 'test', 'qa', 'preprod', 'sandbox'] as const;

// The changed file's directory and this many of its ancestors (the root included) are searched.
const MAX_LEVELS = 4;
/** The most overlays one changed file is rendered through. */
export const MAX_OVERLAYS = 12;
// Kustomizations read to decide whether one overlay includes the file: a chain of bases is short.
const MAX_CHAIN_READS = 16;

export interface OverlayIo {
  /** Files directly inside a directory. */
  list(dir: string): Promise<string[]>;
  read(path: string): Promise<string | null>;
}

export interface FoundOverlays {
  /** Kustomizations in the usual overlay folders whose build includes the file, sorted. */
  overlays: string[];
  /** More overlays include the file than `MAX_OVERLAYS`; those past the bound are left out. */
  truncated: boolean;
}

/** The usual overlay folders near `file`, nearest first. */
export function overlayCandidates(file: string): string[] {
  const out: string[] = [];
  let dir: string | null = dirOf(file);
  for (let level = 0; dir !== null && level < MAX_LEVELS; level++) {
    for (const folder of OVERLAY_FOLDERS) {
      for (const name of OVERLAY_NAMES) out.push(dir === '' ? `${folder}/${name}` : `${dir}/${folder}/${name}`);
    }
    dir = dir === '' ? null : dirOf(dir);
  }
  return out;
}

/** The overlays, found by listing the usual folders, whose build reads `file` (as a resource, a base's resource or a patch). */
export async function findOverlays(file: string, io: OverlayIo): Promise<FoundOverlays> {
  const found: string[] = [];
  for (const dir of overlayCandidates(file)) {
    const path = await kustomizationIn(dir, io);
    if (path === null || !(await includes(path, file, io))) continue;
    if (found.length === MAX_OVERLAYS) return { overlays: found.sort(), truncated: true };
    found.push(path);
  }
  return { overlays: found.sort(), truncated: false };
}

/**
 * A patch file its own directory's kustomization applies is rendered by that overlay already:
 * looking further for overlays would cost reads for a case that is rare (a patch shared by overlays).
 */
export async function patchedBesideIt(file: string, io: OverlayIo): Promise<boolean> {
  const path = await kustomizationIn(dirOf(file), io);
  const text = path === null ? null : await io.read(path);
  if (path === null || text === null) return false;
  const read = readKustomization(path, text);
  return read.ok && patchReferences(read.k).includes(file);
}

async function kustomizationIn(dir: string, io: OverlayIo): Promise<string | null> {
  const listing = await io.list(dir);
  return KUSTOMIZATION_NAMES.map((n) => (dir === '' ? n : `${dir}/${n}`)).find((p) => listing.includes(p)) ?? null;
}

/** True when the build of the kustomization at `root` reads `file`, following its bases through files that exist. */
async function includes(root: string, file: string, io: OverlayIo): Promise<boolean> {
  const seen = new Set([root]);
  const queue = [root];
  for (let reads = 0; queue.length > 0 && reads < MAX_CHAIN_READS; reads++) {
    const path = queue.shift() as string;
    const text = await io.read(path);
    if (text === null) continue;
    const read = readKustomization(path, text);
    if (!read.ok) continue;
    const refs = kustomizationReferences(read.k);
    if (refs.includes(file)) return true;
    for (const ref of refs) {
      if (!isKustomizationPath(ref) || seen.has(ref)) continue;
      seen.add(ref);
      // A directory reference names every kustomization file name: only the one there is read.
      if ((await io.list(dirOf(ref))).includes(ref)) queue.push(ref);
    }
  }
  return false;
}
