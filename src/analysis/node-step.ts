import type { CapacityChange } from '../domain/index.js';

/**
 * The fewest GPUs to add that cover `needed`, when the pool can only be asked for in whole steps
 * (a p5.48xlarge group grows by 8 GPUs a node; a regional GKE pool by one node per zone).
 * The head's count can only come down in such steps, so the answer is the delta less whole steps.
 */
export function neededInSteps(needed: number, change: CapacityChange): number {
  const step = gpuStep(change);
  if (needed <= 0 || step === null || needed >= change.delta) return needed;
  return change.delta - Math.floor((change.delta - needed) / step) * step;
}

/** GPUs one more node adds at the head side; null when any whole number can be asked for. */
export function gpuStep(change: CapacityChange): number | null {
  const step = change.after?.gpuStep;
  return step !== undefined && Number.isInteger(step) && step > 1 ? step : null;
}
