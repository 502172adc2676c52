import type { PlacedRun, StaggerJob, StaggerPlan } from '../../domain/index.js';
import { checkSchedule } from './check.js';
import { StaggerError, validateJobs } from './errors.js';
import {
  better,
  buildModel,
  objectiveOf,
  profileOf,
  startsToPlacement,
  type GridModel,
  type Placement,
} from './grid.js';
import { greedyPlacement, improve, naivePlacement } from './heuristic.js';
import { DEFAULT_LEVEL_WORK, levelPeak } from './level.js';
import { lowerBound } from './lower-bound.js';
import { usageProfile } from './profile.js';
import { searchStarts } from './search.js';

export const DEFAULT_NODE_BUDGET = 200_000;
// Past this many runs the exact search cannot finish anyway; the heuristic answers alone.
const MAX_SEARCH_JOBS = 400;

export interface PlanOptions {
  /** Nodes the exact search may visit (a node scanning many slots counts as several). 0 skips it. */
  nodeBudget?: number;
  /**
   * GPUs available. The plan still minimises the peak; the only difference is that when the
   * lower bound already exceeds the capacity the exact search is skipped, since no schedule
   * can fit and the heuristic's answer is kept.
   */
  capacity?: number;
  /**
   * Work the peak levelling may do from each of its (at most two) starting schedules, in slot
   * visits; 0 skips it. Counted rather than timed so plans are reproducible.
   */
  levelWork?: number;
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
 * for less), then levelled from the greedy schedule as well as from that best one: which start
 * levels lower varies by instance, and a second start costs about as much as the first.
 */
function heuristicPlacement(model: GridModel, naive: Placement, canSplit: boolean, bound: number, levelWork: number): Placement {
  const small = model.jobs.length <= MAX_SEARCH_JOBS;
  const greedy = greedyPlacement(model, canSplit);
  let placement = naive;
  for (const candidate of small ? [improve(model, greedy, canSplit), improve(model, naive, canSplit)] : [greedy]) {
    if (better(objectiveOf(profileOf(model, candidate)), objectiveOf(profileOf(model, placement)))) placement = candidate;
  }
  const starts = placement === greedy ? [greedy] : [placement, greedy];
  for (const from of starts) {
    const peak = objectiveOf(profileOf(model, placement)).peak;
    if (peak <= bound) break;
    const levelled = levelPeak(model, from, bound, levelWork);
    if (levelled.peak >= peak) continue;
    placement = canSplit ? improve(model, levelled.placement, true) : levelled.placement;
  }
  return placement;
}

const optionOk = (x: number | undefined): boolean => x === undefined || (Number.isInteger(x) && x >= 0);

/**
 * Start times for the daily runs that keep the peak GPU count low, with a proven lower bound.
 *
 * 1. Heuristic: the naive schedule and a greedy one (big runs first, each where it raises
 *    usage least, interruptible runs split over the least-used slots when that helps),
 *    polished by local search and then by peak levelling (level.ts), which stops early at the
 *    lower bound. This is always the fallback answer.
 * 2. Exact search over unsplit starts on the grid (see grid.ts for why the grid suffices),
 *    seeded with the heuristic's peak, within the node budget.
 * `optimal` is claimed when the peak equals the lower bound (which allows for splitting), or
 * when the search finished and no job could gain from splitting: the search does not split,
 * so its proof covers only unsplit schedules.
 */
export function planStagger(jobs: StaggerJob[], options: PlanOptions = {}): StaggerPlan {
  validateJobs(jobs);
  if (!optionOk(options.nodeBudget) || !optionOk(options.capacity) || !optionOk(options.levelWork)) {
    throw new StaggerError('invalid-option', 'nodeBudget, capacity and levelWork must be whole numbers ≥ 0');
  }
  const bound = lowerBound(jobs);
  if (jobs.length === 0) {
    return { peakGpus: 0, lowerBound: 0, optimal: true, schedule: [], naivePeakGpus: 0, boundReason: bound.reason };
  }

  const model = buildModel(jobs);
  const canSplit = model.jobs.some((j) => j.splittable);
  const naive = naivePlacement(model);
  let placement = heuristicPlacement(model, naive, canSplit, bound.value, options.levelWork ?? DEFAULT_LEVEL_WORK);
  let peak = objectiveOf(profileOf(model, placement)).peak;

  let searchProved = false;
  const capacityShort = options.capacity !== undefined && bound.value > options.capacity;
  if (peak > bound.value && !capacityShort && jobs.length <= MAX_SEARCH_JOBS) {
    const result = searchStarts(model, peak, bound.value, options.nodeBudget ?? DEFAULT_NODE_BUDGET);
    if (result.starts) {
      placement = startsToPlacement(model, result.starts);
      if (canSplit) placement = improve(model, placement, true);
      peak = objectiveOf(profileOf(model, placement)).peak;
    }
    searchProved = result.proved;
  }

  const schedule = toRuns(jobs, model, placement);
  const plan: StaggerPlan = {
    peakGpus: usageProfile(schedule).peakGpus,
    lowerBound: bound.value,
    optimal: peak === bound.value || (searchProved && !canSplit),
    schedule,
    naivePeakGpus: usageProfile(toRuns(jobs, model, naive)).peakGpus,
    boundReason: bound.reason,
  };
  const violations = checkSchedule(jobs, plan);
  if (violations.length > 0) throw new StaggerError('unsound-plan', `stagger plan is unsound: ${violations.join('; ')}`);
  return plan;
}
