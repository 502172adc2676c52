import type { CapacityChange, ChangeReview, Verdict } from '../domain/index.js';

/** Changes that ask for hardware: GPU sharing re-divides GPUs already there. */
function asksForGpus(change: CapacityChange): boolean {
  return change.delta > 0 && change.kind !== 'gpu-sharing';
}

/** The PR's verdict from its changes' verdicts; only changes that add GPUs ask for anything. */
export function judgePr(
  changes: CapacityChange[],
  reviews: ChangeReview[],
): { verdict: Verdict; gpusRequested: number; gpusNeeded: number | null } {
  const growing = reviews.filter((r) => asksForGpus(r.change));
  const gpusRequested = growing.reduce((sum, r) => sum + r.change.delta, 0);
  if (changes.length === 0) return { verdict: 'no-gpu-change', gpusRequested: 0, gpusNeeded: 0 };
  if (growing.length === 0) return { verdict: 'justified', gpusRequested: 0, gpusNeeded: 0 };
  if (growing.some((r) => r.gpusNeeded === null)) {
    return { verdict: 'insufficient-evidence', gpusRequested, gpusNeeded: null };
  }
  const gpusNeeded = growing.reduce((sum, r) => sum + (r.gpusNeeded ?? 0), 0);
  const verdict: Verdict = gpusNeeded === 0 ? 'not-justified' : gpusNeeded >= gpusRequested ? 'justified' : 'partially-justified';
  return { verdict, gpusRequested, gpusNeeded };
}
