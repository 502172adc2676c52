import type { CapacityChange, CapacityDecl, PoolSharing, SharingMode, SharingSource } from './capacity.js';

/**
 * What GPU sharing does to one change, in numbers (docs/json.md, `sharing`):
 * - `shared`: the pool's GPUs are shared; `gpusBefore`/`gpusAfter` are physical, and the
 *   scheduler sees `schedulableBefore`/`schedulableAfter` (a side without the pool is 0, a side
 *   whose config was not in view counts one per GPU, factor null);
 * - `unknown`: a sharing config is in view but could not be tied to the pool or read, so the
 *   counts are as written and may be shared GPUs, not physical ones;
 * - `factor`: the change is to a sharing config itself (kind `gpu-sharing`): GPUs advertised per
 *   physical GPU go from `factorBefore` to `factorAfter` (null where the config is absent), with
 *   no physical GPU added.
 */
export type ChangeSharing =
  | {
      state: 'shared';
      mode: SharingMode;
      source: SharingSource;
      factorBefore: number | null;
      factorAfter: number | null;
      schedulableBefore: number;
      schedulableAfter: number;
    }
  | { state: 'unknown'; code: Extract<PoolSharing, { state: 'unknown' }>['code']; source: SharingSource }
  | { state: 'factor'; factorBefore: number | null; factorAfter: number | null; physicalDelta: 0 };

function sideOf(decl: CapacityDecl | undefined): { factor: number | null; schedulable: number; sharing?: PoolSharing } {
  if (!decl) return { factor: null, schedulable: 0 };
  const s = decl.sharing;
  if (s?.state === 'shared') return { factor: s.factor, schedulable: s.schedulable, sharing: s };
  return { factor: null, schedulable: decl.gpus, ...(s ? { sharing: s } : {}) };
}

/** The sharing of a change, from its two declarations; null when neither side is shared. */
export function changeSharing(change: CapacityChange): ChangeSharing | null {
  if (change.kind === 'gpu-sharing') {
    // A config added or removed has no factor at that side: not 0 GPUs per GPU.
    return {
      state: 'factor',
      factorBefore: change.before ? change.gpusBefore : null,
      factorAfter: change.after ? change.gpusAfter : null,
      physicalDelta: 0,
    };
  }
  const before = sideOf(change.before);
  const after = sideOf(change.after);
  const unknown = [after.sharing, before.sharing].find((s) => s?.state === 'unknown');
  if (unknown?.state === 'unknown') return { state: 'unknown', code: unknown.code, source: unknown.source };
  const shared = after.sharing ?? before.sharing;
  if (shared?.state !== 'shared') return null;
  // A config that shares nothing at either side leaves the counts as they are: nothing to say.
  if ((before.factor ?? 1) <= 1 && (after.factor ?? 1) <= 1) return null;
  return {
    state: 'shared',
    mode: shared.mode,
    source: shared.source,
    factorBefore: before.factor,
    factorAfter: after.factor,
    schedulableBefore: before.schedulable,
    schedulableAfter: after.schedulable,
  };
}
