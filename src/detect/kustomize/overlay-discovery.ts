import { dirOf } from '../kit/paths.js';
import { isKustomizationPath, KUSTOMIZATION_NAMES, kustomizationReferences, patchReferences, readKustomization } from './kustomization.js';

/**
 * Where overlays usually sit beside a base: `<dir>/overlays/<env>/kustomization.yaml` (or one
 * level deeper, `clusters/<cluster>/<env>/`) for the base's directory or one of its ancestors.
 * Where the reader lists directories, every folder under these is tried, whatever its name
 * (`overlays/us-east-1`); where it cannot, only the usual environment names below are.
 */
const OVERLAY_FOLDERS = ['overlays', 'envs', 'environments', 'clusters'] as const;
const OVERLAY_NAMES = ['prod', 'production', 'staging', 'stage', 'dev', 'development', 'test', 'qa', 'preprod', 'sandbox'] as const;

// The changed file's directory and this many of its ancestors (the root included) are searched.
const MAX_LEVELS = 4;
/** The most overlays one changed file is rendered through. */
export const MAX_OVERLAYS = 12;
// Kustomizations read to decide whether one overlay includes the file: a chain of bases is short.
const MAX_CHAIN_READS = 16;
/** Overlay folders (with a kustomization) looked into for one changed file, nearest first: each costs reads. */
export const MAX_CANDIDATES = 32;

export interface OverlayIo {
  /** Files directly inside a directory. */
  list(dir: string): Promise<string[]>;
  /** Directories directly inside a directory; without it only the usual environment names are tried. */
  dirs?(dir: string): Promise<string[]>;
  read(path: string): Promise<string | null>;
}

export interface FoundOverlays {
  /** Kustomizations in the usual overlay folders whose build includes the file, sorted. */
  overlays: string[];
  /** More overlays include the file than `MAX_OVERLAYS`; those past the bound are left out. */
  truncated: boolean;
  /** Kustomizations in overlay folders past MAX_CANDIDATES, not looked into. */
  unchecked: number;
}

/** The usual overlay folders near `file` under the usual environment names, nearest first. */
export function overlayCandidates(file: string): string[] {
  return overlayParents(file).flatMap((parent) => OVERLAY_NAMES.map((name) => `${parent}/${name}`));
}

/** The directories above the file's own, nearest first: where a kustomization including a Component usually sits. */
function ancestors(file: string): string[] {
  const out: string[] = [];
  let dir: string | null = dirOf(file);
  for (let level = 0; dir !== '' && level < MAX_LEVELS; level++) {
    dir = dirOf(dir);
    out.push(dir);
  }
  return out;
}

/** `<dir>/overlays`, `<dir>/envs`, … for the file's directory and its ancestors, nearest first. */
function overlayParents(file: string): string[] {
  const out: string[] = [];
  let dir: string | null = dirOf(file);
  for (let level = 0; dir !== null && level < MAX_LEVELS; level++) {
    for (const folder of OVERLAY_FOLDERS) out.push(dir === '' ? folder : `${dir}/${folder}`);
    dir = dir === '' ? null : dirOf(dir);
  }
  return out;
}

/**
 * Folders that may hold an overlay: with a directory listing, every folder under the usual
 * overlay folders and the folders one level below those; without one, the usual names.
 */
async function candidates(file: string, io: OverlayIo, inComponent: boolean): Promise<string[]> {
  // A Component is built by the kustomization that lists it, most often in a folder above it.
  const above = inComponent ? ancestors(file) : [];
  // Bound: an OverlayIo may be a class whose dirs() reads its own fields.
  const dirs = io.dirs?.bind(io);
  if (!dirs) return [...above, ...overlayCandidates(file)];
  const out: string[] = [...above];
  for (const parent of overlayParents(file)) {
    for (const child of await dirs(parent)) out.push(child, ...(await dirs(child)));
  }
  return out;
}

/**
 * The overlays, found in the usual overlay folders, whose build reads `file` (as a resource, a
 * base's resource or a patch); for a file of a kustomize Component (`inComponent`), also the
 * kustomizations in the folders above it, which include the Component in their build.
 */
export async function findOverlays(file: string, io: OverlayIo, inComponent = false): Promise<FoundOverlays> {
  const found: string[] = [];
  let tried = 0;
  let unchecked = 0;
  for (const dir of await candidates(file, io, inComponent)) {
    const path = await kustomizationIn(dir, io);
    if (path === null) continue;
    // Past the bound only counted (listings are cheap, reading each overlay's chain is not).
    if (++tried > MAX_CANDIDATES) {
      unchecked++;
      continue;
    }
    if (!(await includes(path, file, io))) continue;
    if (found.length === MAX_OVERLAYS) return { overlays: found.sort(), truncated: true, unchecked: 0 };
    found.push(path);
  }
  return { overlays: found.sort(), truncated: false, unchecked };
}

/**
 * How the kustomization in a file's own directory takes it: `patched` when it applies the file as
 * a patch, and `component` when that kustomization is a kustomize Component (which builds nothing
 * alone: only a kustomization listing it in `components` applies its patches).
 */
export async function takenBesideIt(file: string, io: OverlayIo): Promise<{ patched: boolean; component: boolean }> {
  const path = await kustomizationIn(dirOf(file), io);
  const text = path === null ? null : await io.read(path);
  if (path === null || text === null) return { patched: false, component: false };
  const read = readKustomization(path, text);
  if (!read.ok) return { patched: false, component: false };
  return { patched: patchReferences(read.value).includes(file), component: read.value.spec.kind === 'Component' };
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
    const refs = kustomizationReferences(read.value);
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
