import type { CapacityChange, ChangeReview, Verdict } from '../domain/index.js';
import { gpusAskedBy } from './model-swap.js';

/**
 * The PR's verdict from its changes' verdicts; only changes that ask for GPUs count: those that add
 * GPUs, and those that swap to a model that asks (model-swap.ts), for every GPU of their head side.
 */
export function judgePr(
  changes: CapacityChange[],
  reviews: ChangeReview[],
): { verdict: Verdict; gpusRequested: number; gpusNeeded: number | null } {
  const growing = reviews.filter((r) => gpusAskedBy(r) > 0);
  const gpusRequested = growing.reduce((sum, r) => sum + gpusAskedBy(r), 0);
  if (changes.length === 0) return { verdict: 'no-gpu-change', gpusRequested: 0, gpusNeeded: 0 };
  if (growing.length === 0) return { verdict: 'justified', gpusRequested: 0, gpusNeeded: 0 };
  if (growing.some((r) => r.gpusNeeded === null)) {
    return { verdict: 'insufficient-evidence', gpusRequested, gpusNeeded: null };
  }
  const gpusNeeded = growing.reduce((sum, r) => sum + (r.gpusNeeded ?? 0), 0);
  const verdict: Verdict = gpusNeeded === 0 ? 'not-justified' : gpusNeeded >= gpusRequested ? 'justified' : 'partially-justified';
  return { verdict, gpusRequested, gpusNeeded };
}
