import type { GridModel, Placement } from './grid.js';

// Indexed reads here keep `?? 0` (never taken: every array is sized by the model's slots and runs)
// rather than util/indexed.ts's `itemAt`: this is the planner's hot loop, and with the helper the
// planner benchmark's one day of 2,000 runs took 1,000 ms against 248 ms (BENCHMARKS §3).

/**
 * Work the levelling may do, in slot visits (one run's move visits its window and, three times,
 * its own slots; a sweep adds one pass over the cycle): a few hundred sweeps over a catalog of a
 * few hundred runs at 5-minute resolution, and bounded so a day of thousands of runs still plans
 * well under a second. Counted, not timed, so the same input always gives the same schedule.
 * Counting what a move visits, not the whole cycle, keeps a week's budget from being spent 7×
 * faster than a day's for the same moves.
 */
export const DEFAULT_LEVEL_WORK = 60_000_000;

/**
 * Sweeps over all runs without a new best peak after which the levelling gives up: it has
 * likely stalled. Counted in sweeps so small catalogs give up as quickly as large ones.
 */
export const STALL_SWEEPS = 50;

/**
 * A slot still above the target after a sweep weighs this much more, plus one. Growing
 * geometrically rather than by one a sweep breaks out of stubborn crowds in fewer sweeps
 * (measured on the benchmark's small catalogs: 28 → 15 and 40 → 10 sweeps to the next lower peak).
 */
const WEIGHT_GROWTH = 1.2;
// Weights stop growing here (about 60 stuck sweeps): a slot that heavy is avoided anyway, and
// the sliding sums of costs stay far from overflow and from losing their fractions.
const MAX_WEIGHT = 1e6;

export interface LevelResult {
  placement: Placement;
  peak: number;
  /** Slot visits spent. */
  work: number;
}

/**
 * Peak levelling by weighted overflow ("breakout" local search): aim for one GPU below the best
 * peak found so far, T, and sweep over the runs, moving each to the start where it adds the
 * least weighted overflow above T, then the least load (which smooths the profile, making room
 * for the runs in the crowds: moving only those was measured to stall much higher), then the
 * earliest. After a sweep that leaves slots above T, those slots weigh more, which pushes runs
 * out of the stubborn crowds. Each time no slot is above T the schedule is kept and T drops by
 * one; it stops at `lowerBound` (nothing below is possible), when the work budget is spent, or
 * after `stallSweeps` sweeps (STALL_SWEEPS unless given) without a lower peak.
 *
 * Runs already split into several pieces stay where they are; every other run moves as a
 * single piece inside its window, so the result is as feasible as the input. The returned peak
 * is never above the input's.
 */
export function levelPeak(
  model: GridModel,
  start: Placement,
  lowerBound: number,
  budget = DEFAULT_LEVEL_WORK,
  stallSweeps = STALL_SWEEPS,
): LevelResult {
  const n = model.slots;
  const jobs = model.jobs;
  const usage = new Int32Array(n);
  const starts = new Int32Array(jobs.length).fill(-1);
  const add = (k: number, g: number): void => {
    usage[k] = (usage[k] ?? 0) + g;
  };
  jobs.forEach((job, i) => {
    const pieces = start[i] ?? [];
    for (const p of pieces) for (let k = 0; k < p.len; k++) add((p.start + k) % n, job.gpus);
    const only = pieces[0];
    if (pieces.length === 1 && only !== undefined) starts[i] = only.start;
  });
  let peak = 0;
  for (const u of usage) peak = Math.max(peak, u);

  let best = peak;
  let bestStarts = Int32Array.from(starts);
  let work = 0;
  const weight = new Float64Array(n).fill(1);
  // Per-slot cost of adding the moving run over its window, indexed [0, 2n) so windows never wrap.
  const cost = new Float64Array(2 * n);
  const load = new Float64Array(2 * n);
  let target = best - 1;

  const overflow = (): number => {
    let total = 0;
    for (let k = 0; k < n; k++) {
      const over = (usage[k] ?? 0) - target;
      if (over > 0) total += (weight[k] ?? 0) * over;
    }
    return total;
  };

  let current = overflow();
  let lastGain = 0;
  let sweepWork = n;
  for (const job of jobs) sweepWork += job.hi - job.lo + 3 * job.len;
  const stall = stallSweeps * sweepWork;
  while (target >= lowerBound && work < budget && work - lastGain < stall) {
    if (current === 0) {
      lastGain = work;
      best = 0;
      for (const u of usage) best = Math.max(best, u);
      bestStarts = Int32Array.from(starts);
      target = best - 1;
      current = overflow();
      continue;
    }
    for (let i = 0; i < jobs.length && work < budget; i++) {
      const job = jobs[i];
      const s0 = starts[i] ?? -1;
      if (job === undefined || s0 < 0 || job.hi === job.lo) continue;
      const g = job.gpus;
      for (let k = s0; k < s0 + job.len; k++) add(k % n, -g);
      // Cost and load over the run's window only, [lo, hi + len), which lies within [0, 2n).
      const end = job.hi + job.len;
      for (let k = job.lo; k < end; k++) {
        const u = usage[k < n ? k : k - n] ?? 0;
        const w = weight[k < n ? k : k - n] ?? 0;
        cost[k] = w * (Math.max(0, u + g - target) - Math.max(0, u - target));
        load[k] = u;
      }
      // Sliding sums over [s, s + len) for every start s in [lo, hi].
      let c = 0;
      let l = 0;
      for (let k = job.lo; k < job.lo + job.len; k++) {
        c += cost[k] ?? 0;
        l += load[k] ?? 0;
      }
      let bestS = job.lo;
      let bestC = c;
      let bestL = l;
      for (let s = job.lo + 1; s <= job.hi; s++) {
        c += (cost[s + job.len - 1] ?? 0) - (cost[s - 1] ?? 0);
        l += (load[s + job.len - 1] ?? 0) - (load[s - 1] ?? 0);
        if (c < bestC - 1e-9 || (Math.abs(c - bestC) <= 1e-9 && l < bestL)) {
          bestS = s;
          bestC = c;
          bestL = l;
        }
      }
      work += job.hi - job.lo + 3 * job.len;
      for (let k = bestS; k < bestS + job.len; k++) add(k % n, g);
      starts[i] = bestS;
    }
    current = overflow();
    work += n;
    if (current > 0) {
      // Stuck: make the crowded slots costlier so the next sweep moves runs out of them.
      for (let k = 0; k < n; k++) if ((usage[k] ?? 0) > target) weight[k] = Math.min((weight[k] ?? 0) * WEIGHT_GROWTH + 1, MAX_WEIGHT);
      current = overflow();
    }
  }

  const placement: Placement = jobs.map((job, i) => {
    const s = bestStarts[i] ?? -1;
    return s >= 0 ? [{ start: s, len: job.len }] : (start[i] ?? []).map((p) => ({ ...p }));
  });
  return { placement, peak: best, work };
}
