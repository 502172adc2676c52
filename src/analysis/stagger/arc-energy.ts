import type { GridJob, GridModel } from './grid.js';
import { windowSpan } from './slot-caps.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'spread-points-and-size-counts-are-read-below-their-length';

/**
 * Slots of [x, x + len) inside the arc [0, m) of a cycle of n slots, with x the start measured
 * from the arc's start (0 ≤ x < n) and len, m ≤ n: the part before the end of the arc's cycle
 * plus the part that wraps into the next copy of the arc.
 */
function overlapFrom(x: number, len: number, m: number, n: number): number {
  const head = x < m ? Math.min(len, m - x) : 0;
  const tail = x + len > n ? Math.min(x + len - n, m) : 0;
  return head + tail;
}

const mod = (x: number, n: number): number => ((x % n) + n) % n;

/** Slots shared by [s, s + len) and the arc [a, a + m) on a cycle of n slots (len, m ≤ n). */
export function slotOverlap(s: number, len: number, a: number, m: number, n: number): number {
  return overlapFrom(mod(s - a, n), len, m, n);
}

/**
 * The least number of slots a run must spend inside the arc [a, a + m), over every start its
 * window allows (or, for a run that may be split, every split). The overlap is periodic and
 * piecewise linear in the start, so its least value over the start range is at an end of the
 * range or at one of the four breakpoints (where the run's start or end meets the arc's).
 */
export function mandatorySlots(job: GridJob, a: number, m: number, n: number): number {
  const x0 = mod(job.lo - a, n);
  if (job.splittable) {
    const span = windowSpan(job, n);
    return Math.max(0, job.len - (span - overlapFrom(x0, span, m, n)));
  }
  return leastOverlap(x0, job.hi - job.lo, job.len, m, n);
}

/**
 * Least overlap with the arc [0, m) of a run of `len` slots starting anywhere in [x0, x0 + width]
 * (0 ≤ x0 < n, width < n). A start x in [0, n) overlaps the arc by A(x) + B(x): A, its part in
 * [0, m), falls as x grows (from len, past m − len, to zero at m); B, its part in the arc's next
 * copy [n, n + m), only rises (once the run reaches past n). Past m the sum never falls again;
 * before m, wherever B starts rising the sum was flat back to the range's start. So the least
 * is at an end of the range or at m. A start past n is the same start a cycle earlier.
 */
function leastOverlap(x0: number, width: number, len: number, m: number, n: number): number {
  const x1 = x0 + width;
  if (x1 < n) return leastOn(x0, x1, len, m, n);
  return Math.min(leastOn(x0, n - 1, len, m, n), leastOn(0, x1 - n, len, m, n));
}

/** A + B (see leastOverlap) for a start x in [0, n). */
const overlapAt = (x: number, len: number, m: number, n: number): number => {
  const head = m - x;
  const tail = x + len - n;
  return (head <= 0 ? 0 : head < len ? head : len) + (tail <= 0 ? 0 : tail < m ? tail : m);
};

/** Least of A + B (see leastOverlap) over the starts [from, to], 0 ≤ from ≤ to < n. */
function leastOn(from: number, to: number, len: number, m: number, n: number): number {
  let least = overlapAt(from, len, m, n);
  const last = overlapAt(to, len, m, n);
  if (last < least) least = last;
  if (m > from && m < to) {
    const v = overlapAt(m, len, m, n);
    if (v < least) least = v;
  }
  return least;
}

// Interval ends are pairs of chosen points; past this many points only an evenly spread subset
// is paired, plus short arcs between neighbours. Any set of arcs gives a valid bound, just a
// possibly weaker one.
const MAX_POINTS = 64;
const SHORT_REACH = 8;

/**
 * The arcs [a, a + m) to test, the whole cycle first, then every pair of at most MAX_POINTS points (all releases, deadlines, earliest ends and latest
 * starts when few, else the releases and deadlines, evenly thinned if still too many) and, from
 * every point, the arcs to its next SHORT_REACH points. The short arcs catch crowds where many
 * runs are forced to overlap, which long arcs average away; they cost only O(points) arcs.
 */
function arcsOf(model: GridModel): [number, number][] {
  const n = model.slots;
  const arcs: [number, number][] = [[0, n]];
  const unique = (xs: number[]): number[] => [...new Set(xs.map((x) => mod(x, n)))].sort((p, q) => p - q);
  const all = unique(model.jobs.flatMap((j) => [j.lo, j.hi + j.len, j.lo + j.len, j.hi]));
  let spread = all.length > MAX_POINTS ? unique(model.jobs.flatMap((j) => [j.lo, j.hi + j.len])) : all;
  if (spread.length > MAX_POINTS) {
    const ends = spread;
    spread = Array.from({ length: MAX_POINTS }, (_, i) => itemAt(ends, Math.floor((i * ends.length) / MAX_POINTS), SIZED));
  }
  for (const a of spread) for (const b of spread) if (b !== a) arcs.push([a, mod(b - a, n)]);
  if (all.length > spread.length) {
    all.forEach((a, i) => {
      for (let k = 1; k <= SHORT_REACH && k < all.length; k++) arcs.push([a, mod((all[(i + k) % all.length] ?? a) - a, n)]);
    });
  }
  return arcs;
}

/** For every arc to test, the slots the runs of each GPU size must spend there, whatever their starts. */
export interface ArcEnergy {
  model: GridModel;
  arcs: [number, number][];
  /** The GPU sizes of the runs, ascending. */
  sizes: number[];
  /** energy[arc × sizes.length + i]: mandatory slots of all runs of sizes[i] in that arc. */
  energy: Float64Array;
}

export const sizesOf = (model: GridModel): number[] => [...new Set(model.jobs.map((j) => j.gpus))].sort((a, b) => a - b);

/**
 * Mandatory slots per arc and size. Runs of the same window and length have the same mandatory
 * part, so each such kind is measured once (catalog workloads repeat identical runs).
 */
export function arcEnergy(model: GridModel): ArcEnergy {
  const n = model.slots;
  const sizes = sizesOf(model);
  const width = sizes.length;
  const sizeIndex = new Map(sizes.map((g, i) => [g, i]));
  const kinds = new Map<string, { job: GridJob; counts: Float64Array }>();
  for (const job of model.jobs) {
    const key = `${mod(job.lo, n)}/${job.hi - job.lo}/${job.len}/${job.splittable}`;
    let kind = kinds.get(key);
    if (kind === undefined) {
      kind = { job, counts: new Float64Array(width) };
      kinds.set(key, kind);
    }
    // Every run's size is in the index: a size outside it reads at -1 and throws, never counts as another.
    const i = sizeIndex.get(job.gpus) ?? -1;
    kind.counts[i] = itemAt(kind.counts, i, SIZED) + 1;
  }
  // Kinds as flat arrays: this loop runs arcs × kinds times.
  const kindList = [...kinds.values()];
  const k = kindList.length;
  const lo = Int32Array.from(kindList, ({ job }) => mod(job.lo, n));
  const wide = Int32Array.from(kindList, ({ job }) => job.hi - job.lo);
  const len = Int32Array.from(kindList, ({ job }) => job.len);
  const span = Int32Array.from(kindList, ({ job }) => windowSpan(job, n));
  const split = Uint8Array.from(kindList, ({ job }) => (job.splittable ? 1 : 0));
  const counts = new Float64Array(k * width);
  kindList.forEach((kind, q) => counts.set(kind.counts, q * width));
  const arcs = arcsOf(model);
  const count = arcs.length;
  const arcStart = Int32Array.from(arcs, (arc) => arc[0]);
  const arcLength = Int32Array.from(arcs, (arc) => arc[1]);
  const energy = new Float64Array(count * width);
  // Kind by kind, so each kind's numbers stay in registers over the arcs.
  for (let q = 0; q < k; q++) {
    const l0 = lo[q] as number;
    const l = len[q] as number;
    const w = wide[q] as number;
    const sp = span[q] as number;
    const splits = split[q] === 1;
    const row = q * width;
    // Most kinds hold runs of one size: then only that size's energy grows.
    let only = -1;
    for (let i = 0; i < width; i++) if ((counts[row + i] as number) > 0) only = only === -1 ? i : -2;
    for (let x = 0; x < count; x++) {
      const a = arcStart[x] as number;
      const m = arcLength[x] as number;
      // lo and a both lie in [0, n): one correction instead of a modulo.
      const d = l0 - a;
      const x0 = d < 0 ? d + n : d;
      // Common case first: the window does not reach round to the arc's start again, so the
      // overlap only falls as the start moves later and the latest start gives the least.
      const slots = splits
        ? Math.max(0, l - (sp - overlapFrom(x0, sp, m, n)))
        : x0 + w + l <= n
          ? Math.max(0, Math.min(l, m - x0 - w))
          : leastOverlap(x0, w, l, m, n);
      if (slots === 0) continue;
      const base = x * width;
      if (only >= 0) energy[base + only] = (energy[base + only] as number) + (counts[row + only] as number) * slots;
      else for (let i = 0; i < width; i++) energy[base + i] = (energy[base + i] as number) + (counts[row + i] as number) * slots;
    }
  }
  return { model, arcs, sizes, energy };
}
