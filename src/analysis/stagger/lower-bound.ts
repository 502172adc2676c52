import type { StaggerJob } from '../../domain/index.js';
import { arcOverlap, ceilDiv, DAY, gcd, mod } from './circle.js';
import { formatClock } from './cron.js';
import { validateJobs } from './errors.js';

export interface LowerBound {
  value: number;
  reason: string;
}

// Interval ends are pairs of candidate points; past this many points only an evenly spread
// subset is paired, plus short arcs between neighbours. Any set of intervals gives a valid
// bound, just a possibly weaker one.
const MAX_POINTS = 64;
const SHORT_REACH = 8;

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
  // A window that misses the arc puts no work in it (the common case for short arcs).
  if (arcOverlap(job.release, window, a, length) === 0) return 0;
  const lo = job.release;
  const hi = job.deadline - job.duration;
  const d = job.duration;
  // Overlap is piecewise linear in the start, so its least value over [lo, hi] is at an end
  // or a breakpoint; on the circle it need not be concave, so the breakpoints are checked too.
  // (Written without inner closures: this is the bound's innermost loop.)
  let least = Math.min(arcOverlap(lo, d, a, length), arcOverlap(hi, d, a, length));
  for (let k = 0; k < 4; k++) {
    const breakpoint = k === 0 ? a : k === 1 ? a - d : k === 2 ? a + length : a + length - d;
    const s = lo + mod(breakpoint - lo, DAY);
    if (s < hi) least = Math.min(least, arcOverlap(s, d, a, length));
  }
  return least;
}

/**
 * Jobs with the same window, duration and interruptibility, with their GPUs summed: the
 * mandatory minutes depend on nothing else, so the bound is computed once per kind (catalog
 * workloads repeat identical runs many times a day).
 */
function timeKinds(jobs: readonly StaggerJob[]): { job: StaggerJob; gpus: number }[] {
  const kinds = new Map<string, { job: StaggerJob; gpus: number }>();
  for (const job of jobs) {
    const key = `${job.release}/${job.deadline}/${job.duration}/${job.interruptible}`;
    const kind = kinds.get(key);
    if (kind) kind.gpus += job.gpus;
    else kinds.set(key, { job, gpus: job.gpus });
  }
  return [...kinds.values()];
}

const unique = (xs: number[]): number[] => [...new Set(xs.map((x) => mod(x, DAY)))].sort((x, y) => x - y);

/** Every release, deadline, earliest end and latest start, as minutes of the day, sorted. */
const allPoints = (jobs: readonly StaggerJob[]): number[] =>
  unique(jobs.flatMap((j) => [j.release, j.deadline, j.release + j.duration, j.deadline - j.duration]));

/**
 * Arcs to test: the whole day; every pair of at most MAX_POINTS points (all of them when few,
 * else the releases and deadlines, evenly thinned if still too many); and, from every point, the arcs to its next SHORT_REACH points. The short arcs catch
 * crowds where many runs are forced to overlap (their compulsory parts), which long arcs
 * average away; they cost only O(points) arcs.
 */
function candidateIntervals(jobs: readonly StaggerJob[]): [number, number][] {
  const all = allPoints(jobs);
  let spread = all;
  if (spread.length > MAX_POINTS) spread = unique(jobs.flatMap((j) => [j.release, j.deadline]));
  if (spread.length > MAX_POINTS) {
    const ends = spread;
    spread = Array.from({ length: MAX_POINTS }, (_, i) => ends[Math.floor((i * ends.length) / MAX_POINTS)] ?? 0);
  }
  const intervals: [number, number][] = [[0, DAY]];
  for (const a of spread) {
    for (const b of spread) if (b !== a) intervals.push([a, mod(b - a, DAY)]);
  }
  if (all.length > spread.length) {
    all.forEach((a, i) => {
      for (let k = 1; k <= SHORT_REACH && k < all.length; k++) intervals.push([a, mod((all[(i + k) % all.length] ?? a) - a, DAY)]);
    });
  }
  return intervals;
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
  const kinds = timeKinds(jobs);
  const consider = (a: number, length: number): void => {
    let work = 0;
    for (const { job, gpus } of kinds) work += gpus * mandatoryMinutes(job, a, length);
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

  const intervals = candidateIntervals(jobs);
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
    // Here each run counts once, whatever its GPUs: the kind's weight is its number of runs.
    const kinds = timeKinds(big.map((j) => ({ ...j, gpus: 1 })));
    let found: LowerBound | null = null;
    for (const [a, length] of intervals) {
      let alone = 0;
      for (const { job, gpus: count } of kinds) alone += count * mandatoryMinutes(job, a, length);
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
