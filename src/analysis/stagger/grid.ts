import type { StaggerJob } from '../../domain/index.js';
import { DAY, gcd } from './circle.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'group-and-profile-indices-stay-below-their-length';

/**
 * Jobs measured in slots of `step` minutes, the gcd of every release, deadline, duration and
 * of the cycle itself.
 *
 * Why searching this grid loses nothing for unsplit runs: fix an optimal schedule and the
 * cyclic order of all its start and end events. Keeping that order (ties allowed) never adds
 * an overlap, so never raises the peak; and "keep the order", "start ≥ release", "end ≤
 * deadline" are all difference constraints x_i − x_j ≤ c whose constants are sums of the data
 * and multiples of the cycle (a day's 1440 or a week's 10080), hence multiples of `step`. A
 * feasible system of difference constraints with such constants has a solution on that grid
 * (shortest-path distances).
 */
export interface GridJob {
  gpus: number;
  /** Run length in slots. */
  len: number;
  /** Earliest and latest start slot, counted from the cycle's start. */
  lo: number;
  hi: number;
  /** Slots of the window, [winLo, winHi), where pieces of a split run may go. */
  winLo: number;
  winHi: number;
  /** Interruptible and shorter than its window: splitting could help. */
  splittable: boolean;
  /** The run before this one in its chain of interchangeable runs (see chainInterchangeable), or -1: for symmetry breaking. */
  prev: number;
}

export interface GridModel {
  step: number;
  slots: number;
  /** Minutes in the repeating cycle: slots × step. */
  cycle: number;
  jobs: GridJob[];
}

/** A run's pieces in slots, `start` counted from the cycle's start (so possibly ≥ slots). */
export interface SlotPiece {
  start: number;
  len: number;
}

export type Placement = SlotPiece[][];

export function buildModel(jobs: readonly StaggerJob[], cycle: number = DAY): GridModel {
  const step = jobs.reduce((g, j) => gcd(gcd(gcd(g, j.release), j.deadline), j.duration), cycle);
  const gridJobs = jobs.map((j): GridJob => ({
    gpus: j.gpus,
    len: j.duration / step,
    lo: j.release / step,
    hi: (j.deadline - j.duration) / step,
    winLo: j.release / step,
    winHi: j.deadline / step,
    splittable: j.interruptible && j.duration < j.deadline - j.release,
    prev: -1,
  }));
  chainInterchangeable(gridJobs);
  return { step, slots: cycle / step, cycle, jobs: gridJobs };
}

/**
 * Runs of the same size and length are interchangeable: swapping the starts of two of them
 * leaves every slot's usage as it was. Where one's starts range [lo, hi] is no later at either
 * end than another's, swapping a pair that starts out of order keeps both within their
 * ranges, so some schedule starts each chain (ranges sorted by lo, with hi never falling) in
 * order and loses nothing. Each run's `prev` is its predecessor in such a chain.
 */
function chainInterchangeable(jobs: GridJob[]): void {
  const groups = new Map<string, number[]>();
  jobs.forEach((j, i) => {
    const key = `${j.gpus}/${j.len}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  for (const group of groups.values()) {
    const at = (i: number): GridJob => jobs[i] as GridJob;
    group.sort((p, q) => at(p).lo - at(q).lo || at(p).hi - at(q).hi || p - q);
    const hasNext = new Set<number>();
    group.forEach((i, k) => {
      // The latest run before it that ends its range no later and has no successor yet.
      for (let b = k - 1; b >= 0; b--) {
        const before = itemAt(group, b, SIZED);
        if (hasNext.has(before) || at(before).hi > at(i).hi) continue;
        at(i).prev = before;
        hasNext.add(before);
        return;
      }
    });
  }
}

export function addPieces(profile: Int32Array, pieces: readonly SlotPiece[], gpus: number): void {
  const n = profile.length;
  for (const piece of pieces) {
    for (let k = 0; k < piece.len; k++) {
      const i = (piece.start + k) % n;
      profile[i] = itemAt(profile, i, SIZED) + gpus;
    }
  }
}

export function profileOf(model: GridModel, placement: Placement): Int32Array {
  const profile = new Int32Array(model.slots);
  model.jobs.forEach((job, i) => addPieces(profile, placement[i] ?? [], job.gpus));
  return profile;
}

export interface Objective {
  peak: number;
  /** Slots at the peak: fewer is better when the peak ties, which lets local search move. */
  atPeak: number;
}

export function objectiveOf(profile: Int32Array): Objective {
  let peak = 0;
  let atPeak = 0;
  for (const v of profile) {
    if (v > peak) {
      peak = v;
      atPeak = 1;
    } else if (v === peak) atPeak++;
  }
  return { peak, atPeak };
}

export function better(a: Objective, b: Objective): boolean {
  return a.peak < b.peak || (a.peak === b.peak && a.atPeak < b.atPeak);
}

export const startsToPlacement = (model: GridModel, starts: readonly number[]): Placement =>
  model.jobs.map((job, i) => [{ start: starts[i] ?? job.lo, len: job.len }]);
