import type { GridModel } from './grid.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'arrays-sized-by-the-slots-of-the-cycle-the-sizes-and-the-limit';

/** Slots of the cycle a run's window covers, counted from its first start: [lo, lo + span) modulo the cycle. */
export const windowSpan = (job: { lo: number; hi: number; len: number }, slots: number): number =>
  Math.min(slots, job.hi + job.len - job.lo);

/**
 * For each slot, the most GPUs that can be in use there without passing `limit`: the largest
 * sum ≤ limit of the sizes of the runs whose windows cover the slot. Usage at a slot is always
 * such a sum, so "usage ≤ limit" and "usage ≤ cap" are the same condition; the cap is tighter
 * wherever the sizes cannot add up to the limit (only 2-, 4- and 8-GPU runs under an odd limit,
 * or a slot few runs can reach), and the bound and the search use it in place of the limit.
 */
export function slotCaps(model: GridModel, limit: number): Int32Array {
  const n = model.slots;
  // Per slot, how many runs of each size can cover it.
  const sizes = [...new Set(model.jobs.map((j) => j.gpus))].sort((a, b) => a - b);
  const index = new Map(sizes.map((g, i) => [g, i]));
  const counts = sizes.map(() => new Int32Array(n));
  for (const job of model.jobs) {
    // Every run's size is in the index: a size outside it reads at -1 and throws, never counts as another.
    const row = itemAt(counts, index.get(job.gpus) ?? -1, SIZED);
    const span = windowSpan(job, n);
    for (let k = 0; k < span; k++) {
      const t = (job.lo + k) % n;
      row[t] = itemAt(row, t, SIZED) + 1;
    }
  }
  const caps = new Int32Array(n);
  const cache = new Map<string, number>();
  const reach = new Uint8Array(limit + 1);
  const run = new Int32Array(limit + 1);
  for (let t = 0; t < n; t++) {
    let total = 0;
    const key: number[] = [];
    sizes.forEach((g, i) => {
      const c = itemAt(itemAt(counts, i, SIZED), t, SIZED);
      total += g * c;
      key.push(c);
    });
    if (total <= limit) {
      caps[t] = total;
      continue;
    }
    const k = key.join(',');
    const known = cache.get(k);
    if (known !== undefined) {
      caps[t] = known;
      continue;
    }
    // Bounded subset sums, one size at a time: v is reachable with this size if v − g was,
    // using fewer than `count` runs of it since the last value reachable without them.
    reach.fill(0);
    reach[0] = 1;
    sizes.forEach((g, i) => {
      const c = itemAt(key, i, SIZED);
      if (c === 0) return;
      for (let v = 0; v <= limit; v++) {
        if (reach[v] === 1) run[v] = 0;
        else if (v >= g && (run[v - g] ?? c) < c) {
          reach[v] = 1;
          run[v] = itemAt(run, v - g, SIZED) + 1;
        } else run[v] = c;
      }
    });
    let v = limit;
    while (v > 0 && reach[v] !== 1) v--;
    cache.set(k, v);
    caps[t] = v;
  }
  return caps;
}
