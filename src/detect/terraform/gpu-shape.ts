import type { SharingMode } from '../../domain/index.js';
import { looksLikeGpuType, lookupInstanceType } from '../kit/gpu-types/index.js';
import type { PoolContext, LocPath } from './pool-context.js';
import { Unknown } from './pool-context.js';

/** What one node pool can provide, before it becomes a CapacityDecl. */
export interface PoolReading {
  /** Pool name as the cloud knows it. */
  name: string;
  gpusPerNode: number;
  gpuModel: string | null;
  /** The most nodes the pool can have. */
  maxNodes: number;
  /** Line of the node count that bounds the pool (the most telling GPU value). */
  line: number;
  /** Extra words for the part label, e.g. `per zone × 3 zones`. */
  note?: string;
  /** GPUs one more in the count adds, when not gpusPerNode (a per-zone count adds one node per zone). */
  step?: number;
  /** The instance types differ in GPUs per node, so one more node adds an unknown number of GPUs. */
  mixed?: boolean;
  /** GPU sharing set on the pool itself (GKE `gpu_sharing_config`); factor null when unreadable. */
  sharing?: PoolReadingSharing;
}

export interface PoolReadingSharing {
  factor: number | null;
  mode: SharingMode;
  line: number;
  /** The setting it was read from, for the source's name: `gpu_sharing_config`. */
  setting: string;
}

export interface NodeGpus {
  gpus: number;
  model: string | null;
  sharing?: PoolReadingSharing;
  /** Listed instance types differ in GPUs per node; `gpus` is the most. */
  mixed?: boolean;
}

/**
 * GPUs per node implied by a machine / instance / VM type. Null when the type has none;
 * Unknown (after a warning) when it looks like a GPU type the catalog does not list.
 */
export function typeGpus(ctx: PoolContext, type: string, what: string, path: LocPath): NodeGpus | null {
  const known = lookupInstanceType(type);
  if (known) return { gpus: known.gpus, model: known.gpuModel };
  if (looksLikeGpuType(type)) {
    ctx.warn(ctx.line(path), `${what} "${type}" looks like a GPU type that is not in the catalog: cannot tell the GPU count`);
    throw new Unknown(what);
  }
  return null;
}

/** The most GPUs over several instance types (a node group may launch any of them). */
export function mostGpus(ctx: PoolContext, types: readonly string[], what: string, path: LocPath): NodeGpus | null {
  let best: NodeGpus | null = null;
  const counts = new Set<number>();
  for (const t of types) {
    const g = typeGpus(ctx, t, what, path);
    counts.add(g?.gpus ?? 0);
    if (g && (!best || g.gpus > best.gpus)) best = g;
  }
  return best && counts.size > 1 ? { ...best, mixed: true } : best;
}

export function stringList(ctx: PoolContext, raw: unknown, what: string, path: LocPath): string[] | null {
  if (raw === undefined) return null;
  const v = ctx.value(raw, what, path);
  if (v === null) return null;
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'string')) {
    ctx.warn(ctx.line(path), `${what} is not a list of strings: cannot tell the GPU count`);
    throw new Unknown(what);
  }
  return list;
}

export function literalString(ctx: PoolContext, raw: unknown, what: string, path: LocPath): string | null {
  if (raw === undefined) return null;
  const v = ctx.value(raw, what, path);
  if (v === null || typeof v === 'string') return v;
  // A list or a map where a name belongs would otherwise read as "[object Object]".
  if (typeof v === 'object') {
    ctx.warn(ctx.line(path), `${what} is not a string: cannot tell the GPU count`);
    throw new Unknown(what);
  }
  return String(v);
}
