import type { CapacityChange, ChangeReview, ChangeSharing, ReviewSharing, SharingMode } from '../domain/index.js';
import { changeSharing } from '../domain/index.js';

const MODE: Record<SharingMode, string> = {
  'time-slicing': 'device-plugin time-slicing',
  mps: 'device-plugin MPS',
  'bottlerocket-time-slicing': 'Bottlerocket time-slicing',
  'gke-time-sharing': 'GKE time-sharing',
  'gke-mps': 'GKE MPS',
  'node-overlay': 'a Karpenter NodeOverlay capacity',
};

function factorText(before: number | null, after: number | null): string {
  if (before === after || before === null) return `×${after ?? 1}`;
  return `×${before} → ×${after ?? 1}`;
}

/** The GPUs cell of the changes table: physical GPUs, with the shared ones the scheduler sees. */
export function gpusCell(c: CapacityChange): string {
  const s = changeSharing(c);
  const plain = `${c.gpusBefore} → ${c.gpusAfter}`;
  if (s === null) return plain;
  if (s.state === 'factor') return `${plain} per GPU (0 physical)`;
  if (s.state === 'unknown') return `${plain} (may be shared GPUs: physical unknown)`;
  return `${plain} physical (${s.schedulableBefore} → ${s.schedulableAfter} shared, ${factorText(s.factorBefore, s.factorAfter)})`;
}

/** One sentence on a change's sharing, for its row of the reviews table; empty when none. */
export function sharingSentence(s: ReviewSharing | ChangeSharing | undefined): string {
  if (!s) return '';
  if (s.state === 'factor') {
    const now =
      s.factorAfter === null ? 'The sharing config is removed' : `Each physical GPU is advertised as ${s.factorAfter} schedulable GPUs`;
    const was = s.factorBefore === null ? 'a new config' : `was ${s.factorBefore}`;
    return `${now} (${was}): schedulable GPUs change, physical GPUs do not (+0).`;
  }
  if (s.state === 'unknown') {
    return `Cannot tell the physical GPUs (${s.code}): ${s.source.name} (${s.source.file}:${s.source.line}) shares GPUs but cannot be tied to this pool, so its count may be shared GPUs.`;
  }
  const factor = factorText(s.factorBefore, s.factorAfter);
  const review = 'schedulableNeed' in s && typeof s.schedulableNeed === 'number';
  return `GPUs shared ${factor} by ${MODE[s.mode]} (${s.source.name}, ${s.source.file}:${s.source.line}): ${s.schedulableBefore} → ${s.schedulableAfter} schedulable GPUs; the GPU counts are physical${review ? ', and in the shared GPUs the workloads request,' : '.'}`;
}

/** ` (60 shared GPUs at ×4)`: a physical count as the shared GPUs a limit is written in; empty when not shared. */
export function sharedCount(review: ChangeReview, physical: number): string {
  const s = review.sharing;
  if (s?.state !== 'shared') return '';
  const factor = s.factorAfter ?? s.factorBefore ?? 1;
  return factor > 1 ? ` (${physical * factor} shared GPUs at ×${factor})` : '';
}

/** `; shared ×4: 40 → 80 schedulable GPUs`, appended to a one-line change; empty when not shared. */
export function sharingSuffix(c: CapacityChange): string {
  const s = changeSharing(c);
  if (s === null) return '';
  if (s.state === 'factor') return '; GPUs advertised per physical GPU, +0 physical';
  if (s.state === 'unknown') return `; may be shared GPUs, physical unknown (${s.code})`;
  return `; shared ${factorText(s.factorBefore, s.factorAfter)}: ${s.schedulableBefore} → ${s.schedulableAfter} schedulable GPUs`;
}

/** A change that shares GPUs more finely: its name and GPUs advertised per physical GPU at each side. */
export interface FactorChange {
  name: string;
  before: number;
  after: number;
}

/** Sharing configs, and pools whose factor alone changed, that advertise more GPUs per physical GPU. */
export function sharedMore(changes: readonly CapacityChange[]): FactorChange[] {
  return changes.flatMap((c) => {
    if (c.kind === 'gpu-sharing') return c.delta > 0 ? [{ name: c.name, before: c.gpusBefore, after: c.gpusAfter }] : [];
    const s = changeSharing(c);
    if (c.delta !== 0 || s?.state !== 'shared') return [];
    const before = s.factorBefore ?? 1;
    const after = s.factorAfter ?? 1;
    return after > before ? [{ name: c.name, before, after }] : [];
  });
}
