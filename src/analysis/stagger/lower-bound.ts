import type { StaggerJob } from '../../domain/index.js';
import { arcOverlap, ceilDiv, DAY, gcd, mod } from './circle.js';
import { formatClock } from './cron.js';
import { validateJobs } from './errors.js';

export interface LowerBound {
  value: number;
  reason: string;
}

// Interval ends are pairs of candidate points; past this many points only an evenly spread
// subset is used. Any subset of intervals gives a valid bound, just a possibly weaker one.
const MAX_POINTS = 64;

const gpuWord = (n: number): string => `${n} GPU${n === 1 ? '' : 's'}`;

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
  const lo = job.release;
  const hi = job.deadline - job.duration;
  const overlap = (s: number): number => arcOverlap(s, job.duration, a, length);
  // Overlap is piecewise linear in the start, so its least value over [lo, hi] is at an end
  // or a breakpoint; on the circle it need not be concave, so the breakpoints are checked too.
  let least = Math.min(overlap(lo), overlap(hi));
  for (const breakpoint of [a, a - job.duration, a + length, a + length - job.duration]) {
    const s = lo + mod(breakpoint - lo, DAY);
    if (s < hi) least = Math.min(least, overlap(s));
  }
  return least;
}

function candidatePoints(jobs: readonly StaggerJob[]): number[] {
  const unique = (xs: number[]): number[] => [...new Set(xs.map((x) => mod(x, DAY)))].sort((x, y) => x - y);
  let points = unique(jobs.flatMap((j) => [j.release, j.deadline, j.release + j.duration, j.deadline - j.duration]));
  if (points.length > MAX_POINTS) points = unique(jobs.flatMap((j) => [j.release, j.deadline]));
  if (points.length > MAX_POINTS) {
    const all = points;
    points = Array.from({ length: MAX_POINTS }, (_, i) => all[Math.floor((i * all.length) / MAX_POINTS)] ?? 0);
  }
  return points;
}

/**
 * A proven lower bound on the peak GPUs of any schedule meeting every window (splits of
 * interruptible jobs included), with the reason in a sentence. The largest of:
 * - the largest job's GPUs;
 * - energetic reasoning: for an arc of the day, the work every job must do inside it, whatever
 *   its start, divided by the arc's length (the whole day gives total GPU-minutes / 1440);
 * rounded up to a multiple of the GPUs' gcd, since usage is always a sum of job sizes;
 * then raised while the runs too big to share the bound's GPUs cannot take turns (below).
 */
export function lowerBound(jobs: StaggerJob[]): LowerBound {
  validateJobs(jobs);
  const first = jobs[0];
  if (first === undefined) return { value: 0, reason: 'there are no runs to place' };

  const largest = jobs.reduce((a, b) => (b.gpus > a.gpus ? b : a), first);
  let best: LowerBound = { value: largest.gpus, reason: `the largest job (${largest.workload}) needs ${gpuWord(largest.gpus)}` };
  const consider = (a: number, length: number): void => {
    let work = 0;
    for (const job of jobs) work += job.gpus * mandatoryMinutes(job, a, length);
    const value = ceilDiv(work, length);
    if (value <= best.value) return;
    const what = `${work} GPU-minutes of work: at least ${gpuWord(value)}`;
    best = {
      value,
      reason:
        length === DAY
          ? `over the whole day the runs do ${what}`
          : `between ${formatClock(a)} and ${formatClock(a + length)} the runs must do ${what}`,
    };
  };

  const points = candidatePoints(jobs);
  const intervals: [number, number][] = [[0, DAY]];
  for (const a of points) {
    for (const b of points) if (b !== a) intervals.push([a, mod(b - a, DAY)]);
  }
  for (const [a, length] of intervals) consider(a, length);

  const unit = jobs.reduce((g, j) => gcd(g, j.gpus), 0);
  const rounded = ceilDiv(best.value, unit) * unit;
  if (rounded > best.value) {
    best = { value: rounded, reason: `${best.reason}, and every job uses a multiple of ${gpuWord(unit)}, so at least ${rounded}` };
  }
  return disjunctiveBound(jobs, intervals, best);
}

/**
 * Within C GPUs no two runs of more than C/2 GPUs can run side by side, so those runs must take
 * turns: if, in some arc, the time they must spend there adds up to more than the arc, the
 * peak exceeds C. The set of such runs only stays the same until C reaches twice the smallest
 * of them, so the bound jumps there and tries again.
 */
function disjunctiveBound(jobs: readonly StaggerJob[], intervals: readonly [number, number][], start: LowerBound): LowerBound {
  let best = start;
  for (;;) {
    const c = best.value;
    const big = jobs.filter((j) => 2 * j.gpus > c);
    if (big.length < 2) return best;
    const smallest = Math.min(...big.map((j) => j.gpus));
    let found: LowerBound | null = null;
    for (const [a, length] of intervals) {
      let alone = 0;
      for (const job of big) alone += mandatoryMinutes(job, a, length);
      if (alone <= length) continue;
      const where = length === DAY ? 'over the whole day' : `between ${formatClock(a)} and ${formatClock(a + length)}`;
      found = {
        value: 2 * smallest,
        reason:
          `no two runs of ${gpuWord(smallest)} or more fit side by side in ${gpuWord(2 * smallest - 1)}, and ${where} ` +
          `they need ${alone} minutes one after another, more than the ${length} there: at least ${gpuWord(2 * smallest)}`,
      };
      break;
    }
    if (found === null) return best;
    best = found;
  }
}
