import { mandatorySlots, sizesOf, slotOverlap } from './arc-energy.js';
import type { GridModel } from './grid.js';
import type { LimitFacts } from './limit-facts.js';
import { windowSpan } from './slot-caps.js';

/** Slots scanned that count as one node, so the budget also bounds the work on fine grids. */
const SLOTS_PER_NODE = 256;
/** Runs scanned that count as one node. */
const RUNS_PER_NODE = 16;

// Every indexed read below stays inside its array (per-slot arrays cover two cycles, per-run ones
// hold one item per run), so its `?? 0` is never taken. It is kept here, unlike util/indexed.ts's
// `itemAt` elsewhere, because this is the search's innermost loop: with the helper, `25 runs #1`
// of the planner benchmark took 24-30 ms against 1.3-1.6 ms in two processes each (at load 24,
// so a hint, not a figure).

export interface FitResult {
  starts: number[] | null;
  /** False when the budget ran out first. */
  finished: boolean;
  work: number;
  nodes: number;
}

/**
 * Is there an unsplit schedule with every slot within `facts.limit`? Depth-first over the runs'
 * start slots, proving "no" as well as finding "yes". What keeps it small:
 * - each slot's cap (slot-caps.ts) instead of the limit;
 * - only *active* schedules: a run starts at its release, or could not have started at any
 *   earlier slot of its window. Moving a run to an earlier start that fits never breaks the
 *   limit and lowers the sum of starts, so repeating it ends in an active schedule: some
 *   schedule within the limit is active whenever any is. A start is cut as soon as the slots
 *   before it can no longer all be blocked (a slot is blockable while its usage plus the runs
 *   that could still come there can pass cap − gpus);
 * - identical runs start in order (each waits for the previous one and starts no earlier);
 * - fail first: the run with the fewest allowed starts, divided by the number of times it was
 *   left with none (so runs at the heart of a contradiction come first), is placed next, at
 *   its earliest allowed start first (active schedules favour early starts);
 * - the tightest energetic tests of the root (energy.ts) are kept up to date as runs are placed:
 *   placed runs count their real overlap, open runs their least.
 */
export function fitWithin(model: GridModel, facts: LimitFacts, budget: number): FitResult {
  // Refuted at the root: nothing to set up.
  if (facts.violated !== null) return { starts: null, finished: true, work: 0, nodes: 0 };
  const jobs = model.jobs;
  const count = jobs.length;
  const n = model.slots;
  // Per slot, laid out twice so a window [s, s + len) with s < 2n never needs a modulo:
  // - free: the cap less the placed runs' GPUs and the open runs' compulsory parts (below),
  //   what one more run may use there;
  // - slack: the cap less the placed runs' GPUs and those of every open run whose window covers
  //   the slot; below zero, the slot can still be blocked (see activeOk).
  const free = new Int32Array(2 * n);
  for (let t = 0; t < 2 * n; t++) free[t] = facts.caps[t % n] ?? 0;
  const slack = Int32Array.from(free);
  const starts = new Int32Array(count).fill(-1);
  const spans = jobs.map((j) => windowSpan(j, n));

  const addWindow = (j: number, sign: number): void => {
    const job = jobs[j];
    if (job === undefined) return;
    for (let k = 0; k < (spans[j] ?? 0); k++) {
      const t = (job.lo + k) % n;
      slack[t] = (slack[t] ?? 0) - sign * job.gpus;
      slack[t + n] = (slack[t + n] ?? 0) - sign * job.gpus;
    }
  };
  for (let j = 0; j < count; j++) addWindow(j, 1);
  const place = (start: number, len: number, gpus: number): void => {
    for (let k = start; k < start + len; k++) {
      const t = k % n;
      free[t] = (free[t] ?? 0) - gpus;
      free[t + n] = (free[t + n] ?? 0) - gpus;
      slack[t] = (slack[t] ?? 0) - gpus;
      slack[t + n] = (slack[t + n] ?? 0) - gpus;
    }
  };

  // Energetic tests: for each test, run and start, the weighted work the start adds over the
  // run's root mandatory part (looked up at every placement, so computed once), and the
  // running need.
  const sizes = sizesOf(model);
  const tests = facts.tests;
  const offset = new Int32Array(count + 1);
  for (let j = 0; j < count; j++) offset[j + 1] = (offset[j] ?? 0) + (jobs[j]?.hi ?? 0) - (jobs[j]?.lo ?? 0) + 1;
  const startCount = offset[count] ?? 0;
  const extra = new Float64Array(tests.length * startCount);
  const room = Float64Array.from(tests, (t) => t.room);
  tests.forEach((test, p) => {
    jobs.forEach((job, j) => {
      const w = test.weights[sizes.indexOf(job.gpus)] ?? 0;
      if (w === 0) return;
      const least = mandatorySlots(job, test.a, test.m, n);
      for (let s = job.lo; s <= job.hi; s++) {
        extra[p * startCount + (offset[j] ?? 0) + s - job.lo] = w * (slotOverlap(s, job.len, test.a, test.m, n) - least);
      }
    });
  });
  const need = Float64Array.from(tests, (t) => t.need);
  const shiftEnergy = (j: number, s: number, sign: number): boolean => {
    const at = (offset[j] ?? 0) + s - (jobs[j]?.lo ?? 0);
    let ok = true;
    for (let p = 0; p < tests.length; p++) {
      const v = (need[p] ?? 0) + sign * (extra[p * startCount + at] ?? 0);
      need[p] = v;
      if (v > (room[p] ?? 0)) ok = false;
    }
    return ok;
  };

  let work = 0;
  let nodes = 0;
  // Times each run was found with no allowed start: runs that keep failing are placed sooner.
  const failures = new Float64Array(count).fill(1);
  let aborted = false;
  const pendingJob: number[] = [];
  const pendingStart: number[] = [];

  /** Could slots [lo, s) all still be blocked for placed run j (its window has left `slack`)? */
  const activeOk = (j: number, s: number): boolean => {
    const job = jobs[j];
    if (job === undefined || s <= job.lo) return true;
    const g = job.gpus;
    let run = 0;
    for (let k = job.lo; k < s; k++) {
      if ((slack[k] ?? 0) < g) run = 0;
      else if (++run >= job.len) return false;
    }
    work += (s - job.lo) / SLOTS_PER_NODE;
    return run === 0;
  };

  // Per start of the run being looked at (index s − lo): allowed.
  const allowed = new Uint8Array(2 * n + 1);
  const tries = new Int32Array((count + 1) * (n + 1));

  // Compulsory parts of the open runs (timetabling): a run whose allowed starts run from est to
  // lst covers [lst, est + len) whatever start it gets, so those GPUs count against every other
  // run there. Each part is kept in the runs' own coordinates (see `starts`).
  const compLo = new Int32Array(count);
  const compLen = new Int32Array(count);
  const setComp = (j: number, lo: number, len: number): void => {
    const g = jobs[j]?.gpus ?? 0;
    for (let k = compLo[j] ?? 0; k < (compLo[j] ?? 0) + (compLen[j] ?? 0); k++) {
      const t = k % n;
      free[t] = (free[t] ?? 0) + g;
      free[t + n] = (free[t + n] ?? 0) + g;
    }
    compLo[j] = lo;
    compLen[j] = len;
    for (let k = lo; k < lo + len; k++) {
      const t = k % n;
      free[t] = (free[t] ?? 0) - g;
      free[t + n] = (free[t + n] ?? 0) - g;
    }
  };
  // The first and last allowed start found by the latest markAllowed.
  let firstAllowed = 0;
  let lastAllowed = 0;

  /**
   * Marks the allowed starts of open run j in `allowed` and returns how many. A start is allowed
   * when every slot it covers stays within its cap, counting the placed runs and the other open
   * runs' compulsory parts, and it is active (see activeOk; for an open run, its own window is
   * still in `slack`, so a slot is blockable exactly when slack is below zero).
   */
  const markAllowed = (j: number): number => {
    const job = jobs[j];
    if (job === undefined) return 0;
    const from = job.prev >= 0 ? Math.max(job.lo, starts[job.prev] ?? job.lo) : job.lo;
    // A later start is active only while no len slots in a row before it are unblockable:
    // past the first such row, none is.
    let last = job.hi;
    let run = 0;
    for (let k = job.lo; k < job.hi; k++) {
      if ((slack[k] ?? 0) < 0) run = 0;
      else if (++run >= job.len) {
        last = k;
        break;
      }
    }
    let found = 0;
    let lastBad = from - 1;
    const g = job.gpus;
    const ownLo = compLo[j] ?? 0;
    const ownHi = ownLo + (compLen[j] ?? 0);
    const end = last + job.len;
    for (let i = from; i < end; i++) {
      const own = i >= ownLo && i < ownHi ? g : 0;
      if ((free[i] ?? 0) + own < g) lastBad = i;
      const s = i - job.len + 1;
      if (s < from) continue;
      // Active: at its release, or the slot before it can still be blocked.
      const ok = lastBad < s && (s === job.lo || (slack[s - 1] ?? 0) < 0);
      allowed[s - job.lo] = ok ? 1 : 0;
      if (ok) {
        if (found === 0) firstAllowed = s;
        lastAllowed = s;
        found++;
      }
    }
    for (let s = Math.max(from, last + 1); s <= job.hi; s++) allowed[s - job.lo] = 0;
    work += (2 * (job.hi - job.lo) + job.len) / SLOTS_PER_NODE;
    return found;
  };

  // The compulsory parts propagation grew, with what they were before, so a node undoes its
  // own growth on the way back up (in proportion to what changed, not to the number of runs).
  const trailJob: number[] = [];
  const trailLo: number[] = [];
  const trailLen: number[] = [];
  const grow = (j: number, lo: number, len: number): void => {
    trailJob.push(j);
    trailLo.push(compLo[j] ?? 0);
    trailLen.push(compLen[j] ?? 0);
    setComp(j, lo, len);
  };
  const restore = (mark: number): void => {
    while (trailJob.length > mark) setComp(trailJob.pop() ?? 0, trailLo.pop() ?? 0, trailLen.pop() ?? 0);
  };
  // Placing a run changes free and slack only inside its window, and a compulsory part lies
  // inside its run's window, so only runs whose windows meet a change can lose starts: the
  // others keep the counts of the node above.
  const meets = new Uint8Array(count * count);
  for (let j = 0; j < count; j++) {
    for (let c = 0; c < count; c++) {
      const a = jobs[j];
      const b = jobs[c];
      if (a === undefined || b === undefined) continue;
      const hit = slotOverlap(a.lo, spans[j] ?? 0, b.lo % n, spans[c] ?? 0, n) > 0 || a.prev === c;
      meets[j * count + c] = hit ? 1 : 0;
    }
  }
  // Allowed starts per depth and run.
  const counts = new Int32Array((count + 1) * count);
  const dirty = new Uint8Array(count);
  const grown: number[] = [];
  const order = new Int32Array(count);
  const orderKey = new Int32Array(count);

  /**
   * Narrows every open run's starts against the placed runs and the others' compulsory parts,
   * growing those parts, until nothing changes. False when some run is left with no start.
   */
  const propagate = (depth: number, last: number): boolean => {
    const row = depth * count;
    for (let j = 0; j < count; j++) {
      const near = last < 0 || meets[j * count + last] === 1;
      dirty[j] = near ? 1 : 0;
      if (!near) counts[row + j] = counts[row - count + j] ?? 0;
    }
    for (let round = 0; ; round++) {
      grown.length = 0;
      // The open runs to re-mark. In the first round, those with the fewest starts at the node
      // above come first: the likeliest to be left with none, which ends the node before the
      // others are looked at (measured: 789 → 617 nodes on the benchmark's `25 runs #1`).
      const ordered = depth > 0 && round === 0;
      let size = 0;
      for (let j = 0; j < count; j++) {
        if (dirty[j] !== 1 || (starts[j] ?? -1) >= 0) continue;
        let i = size++;
        if (ordered) {
          const key = counts[row - count + j] ?? 0;
          for (; i > 0 && (orderKey[i - 1] ?? 0) > key; i--) {
            order[i] = order[i - 1] ?? 0;
            orderKey[i] = orderKey[i - 1] ?? 0;
          }
          orderKey[i] = key;
        }
        order[i] = j;
      }
      for (let q = 0; q < size; q++) {
        const j = order[q] ?? 0;
        const job = jobs[j];
        if (job === undefined) continue;
        dirty[j] = 0;
        const found = markAllowed(j);
        counts[row + j] = found;
        if (found === 0) {
          failures[j] = (failures[j] ?? 1) + 1;
          return false;
        }
        const len = firstAllowed + job.len - lastAllowed;
        if (len > (compLen[j] ?? 0)) {
          grow(j, lastAllowed, len);
          grown.push(j);
        }
      }
      if (grown.length === 0) return true;
      for (const c of grown) for (let j = 0; j < count; j++) if (meets[j * count + c] === 1) dirty[j] = 1;
    }
  };

  /** `last`: the run placed just above this node, or −1 at the root. */
  const dfs = (depth: number, last: number): boolean => {
    nodes++;
    // The per-node scans over all runs (saving, propagating, choosing) count as well.
    work += 1 + count / RUNS_PER_NODE;
    if (work > budget) {
      aborted = true;
      return false;
    }
    for (let q = 0; q < pendingJob.length; q++) {
      if (!activeOk(pendingJob[q] ?? 0, pendingStart[q] ?? 0)) return false;
    }
    if (depth === count) return true;

    const mark = trailJob.length;
    if (!propagate(depth, last)) {
      restore(mark);
      return false;
    }
    let chosen = -1;
    let fewest = Infinity;
    for (let j = 0; j < count; j++) {
      const job = jobs[j];
      if (job === undefined || (starts[j] ?? -1) >= 0) continue;
      if (job.prev >= 0 && (starts[job.prev] ?? -1) < 0) continue; // waits for its identical predecessor
      const score = (counts[depth * count + j] ?? 0) / (failures[j] ?? 1);
      const best = jobs[chosen];
      if (score < fewest || (score === fewest && best !== undefined && job.gpus * job.len > best.gpus * best.len)) {
        fewest = score;
        chosen = j;
      }
    }
    const job = jobs[chosen];
    if (job === undefined) {
      restore(mark);
      return false;
    }
    markAllowed(chosen);
    const from = job.prev >= 0 ? Math.max(job.lo, starts[job.prev] ?? job.lo) : job.lo;
    // The starts to try, kept in this depth's row of `tries` (deeper nodes reuse `allowed`).
    const row = depth * (n + 1);
    let tryCount = 0;
    for (let s = from; s <= job.hi; s++) if (allowed[s - job.lo] === 1) tries[row + tryCount++] = s;

    addWindow(chosen, -1);
    const chosenLo = compLo[chosen] ?? 0;
    const chosenLen = compLen[chosen] ?? 0;
    // Placed, its own GPUs stand for its compulsory part.
    setComp(chosen, 0, 0);
    for (let t = 0; t < tryCount; t++) {
      const start = tries[row + t] ?? 0;
      starts[chosen] = start;
      place(start, job.len, job.gpus);
      const fits = shiftEnergy(chosen, start, 1);
      const pending = start > job.lo;
      if (pending) {
        pendingJob.push(chosen);
        pendingStart.push(start);
      }
      const found = fits && dfs(depth + 1, chosen);
      if (pending) {
        pendingJob.pop();
        pendingStart.pop();
      }
      if (found) return true;
      shiftEnergy(chosen, start, -1);
      place(start, job.len, -job.gpus);
      starts[chosen] = -1;
      if (aborted) break;
    }
    setComp(chosen, chosenLo, chosenLen);
    addWindow(chosen, 1);
    restore(mark);
    return false;
  };

  const found = dfs(0, -1);
  return { starts: found ? Array.from(starts) : null, finished: !aborted, work, nodes };
}
