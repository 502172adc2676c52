import { MAX_FILE_CHARS } from '../../domain/index.js';
import type { CapacityDecl, Diagnostic } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import { linkSharing } from './sharing-link.js';
import { mayHoldSharing, readSharingConfigs } from './sharing-sources.js';
import type { SharingConfig } from './sharing-sources.js';

/** The most files read for sharing configs per side, beyond the changed ones: each may be an API call. */
const MAX_SCANNED_FILES = 48;
/** The most directories listed for them, for the same reason. */
const MAX_SCANNED_DIRS = 16;

export interface SharingIo {
  read(path: string): Promise<string | null>;
  list(dir: string): Promise<string[]>;
  /** Directories inside a directory, when the reader can tell: the pool's sibling folders. */
  dirs?: (dir: string) => Promise<string[]>;
}

const CONFIG_FILE = /\.(ya?ml|json)$/i;

/**
 * Links the pools of one side to their sharing configs: those in the changed files, and those
 * in the files beside each Karpenter pool, one directory up and in that directory's folders
 * (`infra/karpenter/` beside `infra/gpu-operator/`), where a NodePool's EC2NodeClass,
 * NodeOverlays and device-plugin ConfigMap usually live. Returns the linking's diagnostics.
 */
export async function linkSideSharing(decls: readonly CapacityDecl[], changed: readonly string[], io: SharingIo): Promise<Diagnostic[]> {
  const pools = decls.filter((d) => d.sharingLink !== undefined);
  if (pools.length === 0) return [];
  const near = new Set<string>();
  const up = new Set<string>();
  for (const p of pools) {
    const dir = dirOf(p.file);
    near.add(dir);
    if (dir !== '') up.add(dirOf(dir));
  }
  for (const dir of up) near.add(dir);
  if (io.dirs) for (const dir of up) for (const sub of await io.dirs(dir)) near.add(sub);
  const nearby: string[] = [];
  // The pools' own folders first, then the folders above and beside them.
  const own = new Set(pools.map((p) => dirOf(p.file)));
  const order = [...near].sort((a, b) => Number(!own.has(a)) - Number(!own.has(b)) || a.localeCompare(b)).slice(0, MAX_SCANNED_DIRS);
  for (const dir of order) {
    if (nearby.length >= MAX_SCANNED_FILES) break;
    nearby.push(...(await io.list(dir)).filter((p) => CONFIG_FILE.test(p)));
  }
  const paths = [...new Set([...changed.filter((p) => CONFIG_FILE.test(p)), ...nearby.slice(0, MAX_SCANNED_FILES)])];
  const configs: SharingConfig[] = [];
  for (const path of paths) {
    const text = await io.read(path);
    if (text === null || text.length > MAX_FILE_CHARS || !mayHoldSharing(path, text)) continue;
    configs.push(...readSharingConfigs(path, text));
  }
  return linkSharing(decls, configs);
}
