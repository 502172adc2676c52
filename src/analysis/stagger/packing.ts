import type { PackingRule } from '../../domain/index.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'a-packing-weight-has-one-item-per-gpu-size';

/**
 * Dual feasible functions: f with f(x₁) + … + f(xₖ) ≤ f(C) whenever x₁ + … + xₖ ≤ C. Applied
 * to run sizes, they turn "the runs in a slot use at most C GPUs" into a weighted count that
 * sees packing waste the plain GPU count misses (with C = 9, an 8-GPU run leaves room for only
 * a 1-GPU run beside it, so it weighs as a whole slot).
 */
export interface PackingWeight {
  /** Weight of each size, in the order of the sizes given. */
  weights: number[];
  /** Weight of the whole capacity. */
  capacity: number;
  /** What the weighting expresses, for the bound's proof. */
  label: PackingRule;
}

/**
 * The classic families over the sizes present (Fekete–Schepers and the "big items" function),
 * without duplicates and without those plain GPU counting already implies.
 */
export function packingWeights(capacity: number, sizes: readonly number[]): PackingWeight[] {
  const out = new Map<string, PackingWeight>();
  const add = (weights: number[], cap: number, label: PackingRule): void => {
    if (cap <= 0) return;
    // No size weighs more, relative to the capacity, than under plain GPU counting: then any
    // arc this weighting overfills, plain counting overfills too, so it tells nothing new.
    if (weights.every((w, i) => w * capacity <= itemAt(sizes, i, SIZED) * cap)) return;
    const key = `${weights.join(',')}/${cap}`;
    if (!out.has(key)) out.set(key, { weights, capacity: cap, label });
  };
  for (let e = 1; 2 * e <= capacity; e++) {
    // Runs over C − e fill the capacity as far as others of at least e are concerned.
    add(
      sizes.map((x) => (x > capacity - e ? capacity : x < e ? 0 : x)),
      capacity,
      { code: 'no-room', over: capacity - e, atLeast: e },
    );
  }
  for (let k = 1; k < capacity && k <= 64; k++) {
    // ⌈x(k+1)/C⌉ − 1 ≤ x(k+1)/C, strictly below unless exact: k+1 of them never fit.
    add(
      sizes.map((x) => Math.ceil((x * (k + 1)) / capacity) - 1),
      k,
      { code: 'side-by-side', count: k, over: Math.floor(capacity / (k + 1)) },
    );
  }
  return [...out.values()];
}
