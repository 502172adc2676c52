import type { PlacedRun, StaggerJob, StaggerPlan } from '../../domain/index.js';
import { checkSchedule } from './check.js';
import { StaggerError, validateJobs } from './errors.js';
import { better, buildModel, objectiveOf, profileOf, startsToPlacement, type GridModel, type Placement } from './grid.js';
import { greedyPlacement, improve, naivePlacement } from './heuristic.js';
import { DEFAULT_LEVEL_WORK, levelPeak, STALL_SWEEPS } from './level.js';
import { lowerBound, quickBound, type LowerBound } from './lower-bound.js';
import { usageProfile } from './profile.js';
import { arcEnergy } from './arc-energy.js';
import { DAY, gcd, isCycle } from './circle.js';
import { DUAL_ITERATIONS, dualBound, dualGpus } from './dual-bound.js';
import { dualProof, refutationProof, searchProof } from './proof-reasons.js';
import { limitFacts, type LimitFacts } from './limit-facts.js';
import { searchStarts } from './search.js';

export const DEFAULT_NODE_BUDGET = 200_000;
// Past this many runs the exact search cannot finish anyway: on the benchmark's days of ~290
// runs it spent its whole budget (0.3–0.7 s) without once lowering the peak. The heuristic and
// the root proofs answer alone.
const MAX_SEARCH_JOBS = 120;
// Local search costs O(passes × runs × slots); past this many runs the levelling does better for less.
const MAX_POLISH_JOBS = 400;
// The short ascent, tried once on catalogs the search takes: when the levelling has lowered the
// peak, else for the first schedule the search finds that the root facts cannot prove, else
// after the search (measured: where the LP bound proves a benchmark peak, it crossed within
// 115-170 iterations).
const QUICK_DUAL_ITERATIONS = 400;
// Sweeps without a lower peak after which the first levelling gives up on catalogs the exact
// search takes (STALL_SWEEPS elsewhere). Measured on 300 random catalogs of 5–40 runs: the same
// peaks as 50 sweeps, since an unsettled search sends the levelling on; and on the benchmark's
// small catalogs every lower peak the levelling finds came within 16 sweeps.
const SHORT_STALL_SWEEPS = 20;
// GPUs above the energetic bound within which the root facts are tried before levelling.
const NEAR_BOUND = 2;

export interface PlanOptions {
  /**
   * Nodes the exact search may visit (a node scanning many slots counts as several). 0 skips
   * it and the proofs beyond the energetic bound: the plan is then the heuristic's, with that bound.
   */
  nodeBudget?: number;
  /**
   * GPUs available. The plan still minimises the peak; the only difference is that when the
   * lower bound already exceeds the capacity the further proofs and the exact search are
   * skipped, since no schedule can fit and the heuristic's answer is kept.
   */
  capacity?: number;
  /**
   * Work the peak levelling may do from each of its (at most two) starting schedules, in slot
   * visits; 0 skips it. Counted rather than timed so plans are reproducible.
   */
  levelWork?: number;
  /**
   * Minutes in the repeating cycle: a day (1440, the default) or a week (10080, from Monday
   * 00:00 UTC), for catalogs whose workloads run on chosen weekdays only or have windows
   * longer than a day.
   */
  cycle?: number;
}

function toRuns(jobs: readonly StaggerJob[], model: GridModel, placement: Placement): PlacedRun[] {
  return jobs.map((job, i) => ({
    workload: job.workload,
    run: job.run,
    gpus: job.gpus,
    release: job.release,
    deadline: job.deadline,
    pieces: [...(placement[i] ?? [])]
      .sort((a, b) => a.start - b.start)
      .map((p) => ({ start: p.start * model.step, end: (p.start + p.len) * model.step })),
  }));
}

/**
 * The best of the naive and the greedy schedules, each polished by local search (small
 * catalogs only: it costs O(passes × runs × slots), and on large ones the levelling does better
 * for less). Returns it with the raw greedy schedule, the levelling's second starting point.
 */
function polished(model: GridModel, naive: Placement, canSplit: boolean): { placement: Placement; greedy: Placement } {
  const small = model.jobs.length <= MAX_POLISH_JOBS;
  const greedy = greedyPlacement(model, canSplit);
  let placement = naive;
  for (const candidate of small ? [improve(model, greedy, canSplit), improve(model, naive, canSplit)] : [greedy]) {
    if (better(objectiveOf(profileOf(model, candidate)), objectiveOf(profileOf(model, placement)))) placement = candidate;
  }
  return { placement, greedy };
}

/** The levelled schedule from `from` when it beats `placement`'s peak, else `placement`. */
function levelledFrom(
  model: GridModel,
  placement: Placement,
  from: Placement,
  canSplit: boolean,
  bound: number,
  levelWork: number,
  stall = STALL_SWEEPS,
): Placement {
  const peak = objectiveOf(profileOf(model, placement)).peak;
  if (peak <= bound) return placement;
  const result = levelPeak(model, from, bound, levelWork, stall);
  if (result.peak >= peak) return placement;
  return canSplit ? improve(model, result.placement, true) : result.placement;
}

const optionOk = (x: number | undefined): boolean => x === undefined || (Number.isInteger(x) && x >= 0);

/**
 * Start times for the daily runs that keep the peak GPU count low, with a proven lower bound.
 *
 * 1. Heuristic: the naive schedule and a greedy one (big runs first, each where it raises
 *    usage least, interruptible runs split over the least-used slots when that helps),
 *    polished by local search and then by peak levelling (level.ts), which stops early at the
 *    bounds that need no arcs (the largest run, the day's work, runs beside compulsory parts):
 *    when it reaches them, nothing more is measured. This is always the fallback answer.
 * 2. Bounds, cheapest first, each tried only while the peak is above the best so far: the
 *    energetic bound and runs forced beside compulsory parts (lower-bound.ts); root proofs that
 *    peak − 1 is impossible, from each slot's reachable cap and packing counts (energy.ts);
 *    the linear-programming bound from its dual (dual-bound.ts). On catalogs the search takes,
 *    a peak the levelling lowered meets the LP bound first, before any arc is measured.
 * 3. Exact search over unsplit starts on the grid (see grid.ts for why the grid suffices) for
 *    catalogs of up to MAX_SEARCH_JOBS runs, within the node budget (search.ts); each schedule
 *    it finds is tried against the root facts and the LP bound before it searches lower. There
 *    the first levelling gives up sooner (SHORT_STALL_SWEEPS): it goes on, and the greedy
 *    schedule is levelled too, only if the search leaves a gap.
 * `optimal` is claimed when the peak equals the lower bound (the bounds allow for splitting),
 * or when the search finished and no job could gain from splitting: the search does not split,
 * so its proof covers only unsplit schedules; then the bound is raised to the peak with the
 * search as its reason. `nodeBudget: 0` skips steps 2's proofs and 3.
 */
export function planStagger(jobs: StaggerJob[], options: PlanOptions = {}): StaggerPlan {
  if (!optionOk(options.nodeBudget) || !optionOk(options.capacity) || !optionOk(options.levelWork)) {
    throw new StaggerError({ kind: 'invalid-option', problem: { code: 'option-not-whole' } });
  }
  const cycle = options.cycle ?? DAY;
  if (!isCycle(cycle)) throw new StaggerError({ kind: 'invalid-option', problem: { code: 'cycle-not-day-or-week', cycle } });
  validateJobs(jobs, cycle);
  if (jobs.length === 0) {
    return {
      peakGpus: 0,
      lowerBound: 0,
      optimal: true,
      schedule: [],
      naivePeakGpus: 0,
      boundProof: lowerBound(jobs, undefined, cycle).reason,
      cycle,
    };
  }

  const model = buildModel(jobs, cycle);
  const canSplit = model.jobs.some((j) => j.splittable);
  const naive = naivePlacement(model);
  const first = polished(model, naive, canSplit);
  let placement = first.placement;
  let peak = objectiveOf(profileOf(model, placement)).peak;
  const finish = (lower: LowerBound, searchProved: boolean): StaggerPlan => {
    const schedule = toRuns(jobs, model, placement);
    const plan: StaggerPlan = {
      peakGpus: usageProfile(schedule, cycle).peakGpus,
      lowerBound: lower.value,
      optimal: peak === lower.value || (searchProved && !canSplit),
      schedule,
      naivePeakGpus: usageProfile(toRuns(jobs, model, naive), cycle).peakGpus,
      boundProof: lower.reason,
      cycle,
    };
    const violations = checkSchedule(jobs, plan);
    if (violations.length > 0) throw new StaggerError({ kind: 'unsound-plan', violations });
    return plan;
  };
  // Often a schedule already meets the bounds that need no arcs (the largest job, the day's work).
  const quick = quickBound(jobs, model);
  if (peak <= quick.value) return finish(quick, false);
  // Levelling next, aimed at that bound: it often reaches it, and then no arc need be measured.
  // Which start levels lower varies by instance: the polished schedule first, the greedy one
  // (a second start costs about as much as the first) only if the proofs below leave a gap.
  const levelWork = options.levelWork ?? DEFAULT_LEVEL_WORK;
  const polishedPeak = peak;
  const secondStart = first.placement === first.greedy ? null : first.greedy;
  const budget = options.nodeBudget ?? DEFAULT_NODE_BUDGET;
  // Where the exact search follows, the first levelling gives up sooner, and goes on later only
  // if the search leaves a gap.
  const searchable = jobs.length <= MAX_SEARCH_JOBS;
  const firstStall = searchable ? SHORT_STALL_SWEEPS : STALL_SWEEPS;
  placement = levelledFrom(model, placement, first.placement, canSplit, quick.value, levelWork, firstStall);
  peak = objectiveOf(profileOf(model, placement)).peak;
  if (peak <= quick.value) return finish(quick, false);

  const unit = model.jobs.reduce((g, j) => gcd(g, j.gpus), 0);
  let lower = quick.value;
  let reason = quick.reason;
  // The linear-programming bound, from its dual: closes what energy misses where runs of
  // different windows crowd each other unevenly. When it can prove the peak it does so within a
  // few hundred iterations; on catalogs the search can take, a short ascent is tried and the
  // full one only if the search leaves the peak unproved.
  let dualTried = false;
  const tryDual = (iterations: number, against = peak): void => {
    dualTried = true;
    const dual = dualBound(model, against - unit, iterations);
    const gpus = dualGpus(dual.value, unit);
    if (gpus > lower) {
      lower = gpus;
      reason = dualProof(model, dual.value, dual.weights, gpus);
    }
  };
  // A peak the levelling just lowered is often optimal, and then on a small catalog the short
  // ascent alone proves it, before any arc is measured.
  const capacityKnownShort = options.capacity !== undefined && quick.value > options.capacity;
  if (budget > 0 && !capacityKnownShort && searchable && peak < polishedPeak) {
    tryDual(QUICK_DUAL_ITERATIONS);
    if (peak <= lower) return finish({ value: lower, reason }, false);
  }

  // The runs' mandatory work per arc serves the bound, the root proofs and the search alike.
  const arcs = arcEnergy(model);
  const bound = lowerBound(jobs, arcs);
  if (bound.value >= lower) {
    lower = bound.value;
    reason = bound.reason;
  }
  const capacityShort = options.capacity !== undefined && bound.value > options.capacity;
  const proofs = budget > 0 && !capacityShort;
  // Proving peak − 1 impossible settles the plan: the slot caps and packing counts often can at
  // the root. Proofs only here: the search picks the tests it re-checks per node for itself.
  // The facts for peak − 1 also start the search, so on catalogs it takes they keep the tests
  // it re-checks per node.
  let lastFacts: LimitFacts | undefined;
  const refute = (limit: number): LimitFacts => {
    const found = limitFacts(arcs, limit, searchable && limit === peak - 1 ? undefined : 0);
    lastFacts = found;
    if (found.violated !== null && limit >= lower) {
      lower = limit + 1;
      reason = refutationProof(model, limit, found.violated);
    }
    return found;
  };
  // Worth trying when the schedule is close to the bound (the root facts add a GPU or two to
  // the energetic bound, not more) or the levelling just found it.
  if (proofs && peak > lower && (peak - lower <= NEAR_BOUND || peak < polishedPeak)) refute(peak - 1);

  // Catalogs too large to search: the LP bound, then the second levelling start.
  if (proofs && peak > lower && !searchable) tryDual(DUAL_ITERATIONS);
  // Levelling again, from `from`, aimed at the bound proved so far; a lower peak is tried
  // against the root facts at once.
  const levelAgain = (from: Placement | null): void => {
    if (from === null || peak <= lower) return;
    const before = peak;
    placement = levelledFrom(model, placement, from, canSplit, lower, levelWork);
    peak = objectiveOf(profileOf(model, placement)).peak;
    if (proofs && peak < before && peak > lower) refute(peak - 1);
  };
  if (!searchable) levelAgain(secondStart);

  // Small catalogs: the exact search settles most of them, so it comes before the second
  // levelling start, which then runs only when the search leaves the peak unproved. Each
  // schedule it finds is first tried against the root facts, then (once) the short LP ascent.
  let searchProved = false;
  if (proofs && peak > lower && searchable) {
    const settle = (found: number): { floor: number; facts: LimitFacts } => {
      const facts = limitFacts(arcs, found - 1);
      if (facts.violated !== null && found - 1 >= lower) {
        lower = found;
        reason = refutationProof(model, found - 1, facts.violated);
      } else if (!dualTried) tryDual(QUICK_DUAL_ITERATIONS, found);
      return { floor: lower, facts };
    };
    const result = searchStarts(model, peak, lower, budget, { arcs, first: lastFacts, settle });
    if (result.starts) {
      placement = startsToPlacement(model, result.starts);
      if (canSplit) placement = improve(model, placement, true);
      peak = objectiveOf(profileOf(model, placement)).peak;
    }
    searchProved = result.proved;
    // The search covers unsplit runs only, so its proof is a bound only when nothing splits.
    if (searchProved && !canSplit && peak > lower) {
      reason = searchProof(model, peak, reason);
      lower = peak;
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- tryDual() sets dualTried from a closure, which narrowing does not see.
  if (proofs && peak > lower && searchable && !dualTried) tryDual(QUICK_DUAL_ITERATIONS);
  if (searchable) {
    // The first levelling gave up early; unsettled, it goes on from the best schedule so far.
    levelAgain(placement);
    levelAgain(secondStart);
  }
  if (proofs && peak > lower && searchable) tryDual(DUAL_ITERATIONS);
  // Not settled: raise the bound as far as the root facts reach, halving the gap each time
  // (a limit proved impossible rules out every lower one too).
  let high = peak - 2;
  while (proofs && lower <= high) {
    const mid = Math.floor((lower + high) / 2);
    if (refute(mid).violated === null) high = mid - 1;
  }

  return finish({ value: lower, reason }, searchProved);
}
