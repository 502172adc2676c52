import type { StaggerJob } from '../../../src/domain/index.js';
import { DAY, mod } from '../../../src/analysis/stagger/circle.js';

// The bound's mandatory parts measured in minutes, directly on the circle of the day: the planner
// measures them in slots of its grid (arc-energy.ts), and the tests check the two agree.

/**
 * Minutes shared by two arcs of the day, each given by a start (any minute, taken modulo the
 * day) and a length of at most one day. Arcs may wrap past midnight; the overlap may come in
 * two parts (one arc can touch both ends of the other), so all three day-shifts are summed.
 */
function arcOverlap(start1: number, len1: number, start2: number, len2: number): number {
  const a = mod(start1, DAY);
  const b = mod(start2, DAY);
  const end1 = a + len1;
  return (
    Math.max(0, Math.min(end1, b - DAY + len2) - Math.max(a, b - DAY)) +
    Math.max(0, Math.min(end1, b + len2) - Math.max(a, b)) +
    Math.max(0, Math.min(end1, b + DAY + len2) - Math.max(a, b + DAY))
  );
}

/**
 * The least GPU-minutes a job must spend inside the arc [a, a + length) of the day, whatever
 * start (or split) it is given. Valid on the 24-hour cycle: both the job's window and the arc
 * may wrap past midnight, and overlaps are measured on the circle.
 */
export function mandatoryMinutes(job: StaggerJob, a: number, length: number): number {
  const window = job.deadline - job.release;
  if (job.interruptible) {
    // Pieces can avoid the arc only within the part of the window outside it.
    return Math.max(0, job.duration - (window - arcOverlap(job.release, window, a, length)));
  }
  // A window that misses the arc puts no work in it (the common case for short arcs).
  if (arcOverlap(job.release, window, a, length) === 0) return 0;
  const lo = job.release;
  const hi = job.deadline - job.duration;
  const d = job.duration;
  // Overlap is piecewise linear in the start, so its least value over [lo, hi] is at an end
  // or a breakpoint; on the circle it need not be concave, so the breakpoints are checked too.
  let least = Math.min(arcOverlap(lo, d, a, length), arcOverlap(hi, d, a, length));
  for (let k = 0; k < 4; k++) {
    const breakpoint = k === 0 ? a : k === 1 ? a - d : k === 2 ? a + length : a + length - d;
    const s = lo + mod(breakpoint - lo, DAY);
    if (s < hi) least = Math.min(least, arcOverlap(s, d, a, length));
  }
  return least;
}
