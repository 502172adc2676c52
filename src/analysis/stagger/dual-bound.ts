import type { GridModel } from './grid.js';

/**
 * Iterations of the ascent: enough to come within a fraction of a GPU of the LP optimum on the
 * benchmark's 290-run days (about 40 ms there). Counted, not timed, so a plan is reproducible.
 */
export const DUAL_ITERATIONS = 3000;
/**
 * Slot visits the ascent may spend in all: on fine grids with long windows an iteration costs
 * far more (a 40-run catalog on a one-minute grid: ~300,000 visits), so fewer are run.
 */
const DUAL_WORK = 20_000_000;
// Stop early after this many iterations without a better value.
const STALL = 400;
// The ascent's step at iteration k is STEP / √(k + 1), on gradients scaled to at most 1.
const STEP = 3;
// Floating-point slack when rounding the bound up: a value of 24.999999999 must not become 25.
const EPSILON = 1e-7;

export interface DualBound {
  /** Σ over runs of their least weighted coverage: a lower bound on the peak. */
  value: number;
  /** The slot weights (summing to 1) that gave it. */
  weights: Float64Array;
  iterations: number;
}

interface Kind {
  lo: number;
  hi: number;
  len: number;
  span: number;
  splittable: boolean;
  gpus: number;
}

/**
 * The linear-programming bound on the peak, approached from its dual. For any weights y on the
 * day's slots summing to 1, every run covers at least the least y-weight any of its starts (or,
 * for a run that may be split, any choice of its slots) covers; weighted by its GPUs and summed
 * over the runs, that is at most the peak, since Σ_t y_t · usage_t ≤ peak. The energetic bound
 * is the case of y spread evenly over one arc; this lets y take any shape, and finds a good one
 * by exponentiated-gradient ascent (the function is concave in y; a supergradient puts each
 * run's GPUs on the slots of its least-covered start). Runs of the same window and length are
 * one kind. `target` is a value past which there is no point going on (the bound it would
 * prove is already the peak).
 */
export function dualBound(model: GridModel, target: number, iterations = DUAL_ITERATIONS): DualBound {
  const n = model.slots;
  const byKey = new Map<string, Kind>();
  for (const job of model.jobs) {
    const key = `${job.lo % n}/${job.hi - job.lo}/${job.len}/${job.splittable}`;
    const kind = byKey.get(key);
    if (kind) kind.gpus += job.gpus;
    else
      byKey.set(key, {
        lo: job.lo % n,
        hi: (job.lo % n) + job.hi - job.lo,
        len: job.len,
        span: Math.min(n, job.hi + job.len - job.lo),
        splittable: job.splittable,
        gpus: job.gpus,
      });
  }
  const kinds = [...byKey.values()];
  // The kinds' numbers as flat arrays: the ascent reads them every iteration.
  const kindLo = Int32Array.from(kinds, (kind) => kind.lo);
  const kindHi = Int32Array.from(kinds, (kind) => kind.hi);
  const kindLen = Int32Array.from(kinds, (kind) => kind.len);
  const kindGpus = Float64Array.from(kinds, (kind) => kind.gpus);
  const kindSplits = Uint8Array.from(kinds, (kind) => (kind.splittable ? 1 : 0));
  let perIteration = 3 * n;
  // A sort visit costs several plain ones (measured: about 8).
  for (const kind of kinds)
    perIteration += kind.splittable ? 8 * kind.span * Math.ceil(Math.log2(kind.span + 1)) : kind.hi - kind.lo + 1 + kind.len;
  const rounds = Math.min(iterations, Math.max(1, Math.floor(DUAL_WORK / perIteration)));

  // From even weights: starting on the energetic bound's arc was measured to trap the ascent
  // where a narrow crowd sets that bound (a 10-minute arc: 212 against 222 from even weights).
  let y = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  // The best weights are copied into one buffer rather than a new array per better value.
  const bestWeights = Float64Array.from(y);
  let bestValue = 0;
  const prefix = new Float64Array(2 * n + 1);
  const grad = new Float64Array(n);
  const window: number[] = [];
  let sinceBetter = 0;
  let k = 0;
  for (; k < rounds && sinceBetter < STALL; k++) {
    // Over two days so no window needs a modulo (a compare is far cheaper here). Reads below
    // stay inside their arrays, so `as number` rather than `?? 0`: this is the ascent's
    // innermost loop.
    let sum = 0;
    for (let t = 0; t < n; t++) {
      sum += y[t] as number;
      prefix[t + 1] = sum;
    }
    for (let t = 0; t < n; t++) {
      sum += y[t] as number;
      prefix[n + t + 1] = sum;
    }
    grad.fill(0);
    let value = 0;
    for (let q = 0; q < kinds.length; q++) {
      const g = kindGpus[q] as number;
      if (kindSplits[q] === 1) {
        const kind = kinds[q] as Kind;
        // The len lightest slots of the window.
        window.length = 0;
        for (let t = kind.lo; t < kind.lo + kind.span; t++) window.push(t);
        window.sort((p, r) => (y[p % n] as number) - (y[r % n] as number));
        for (let i = 0; i < kind.len; i++) {
          const t = (window[i] as number) % n;
          value += g * (y[t] as number);
          grad[t] = (grad[t] as number) + g;
        }
        continue;
      }
      const lo = kindLo[q] as number;
      const hi = kindHi[q] as number;
      const len = kindLen[q] as number;
      let at = lo;
      let least = Infinity;
      for (let s = lo; s <= hi; s++) {
        const covered = (prefix[s + len] as number) - (prefix[s] as number);
        if (covered < least) {
          least = covered;
          at = s;
        }
      }
      value += g * least;
      for (let t = at; t < at + len; t++) {
        const u = t < n ? t : t - n;
        grad[u] = (grad[u] as number) + g;
      }
    }
    if (value > bestValue + EPSILON) {
      bestValue = value;
      bestWeights.set(y);
      sinceBetter = 0;
      if (value > target) break;
    } else sinceBetter++;
    let top = 0;
    for (let t = 0; t < n; t++) top = Math.max(top, grad[t] as number);
    const step = STEP / Math.sqrt(k + 1) / (top || 1);
    let total = 0;
    // Slots no run's cheapest start covers all shrink by one factor: one exponential for them all.
    const idle = Math.exp(-step * top);
    for (let t = 0; t < n; t++) {
      const g = grad[t] as number;
      // A floor keeps every slot in play: weights that reach zero could never come back.
      const w = Math.max((y[t] as number) * (g === 0 ? idle : Math.exp(step * (g - top))), 1e-12);
      next[t] = w;
      total += w;
    }
    for (let t = 0; t < n; t++) next[t] = (next[t] as number) / total;
    // Swapped through a variable: the array a destructuring swap builds cost ~10% of the ascent.
    const swap = y;
    y = next;
    next = swap;
  }
  return { value: bestValue, weights: bestWeights, iterations: k };
}

/** The bound in whole GPUs (a multiple of `unit`) that the dual value proves. */
export function dualGpus(value: number, unit: number): number {
  const gpus = Math.ceil(value - EPSILON);
  return Math.ceil(gpus / unit) * unit;
}
