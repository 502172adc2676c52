import type { DeadlineLadder, DeadlineRung, InferredWorkload, JobWorkload } from '../domain/index.js';
import { DAY, mod } from './stagger/circle.js';
import { jobsFromWorkloads } from './stagger/expand.js';
import { planStagger } from './stagger/plan.js';
import { itemAt } from '../util/indexed.js';

/** Rungs shown at most: the tightest deadline, the loosest, and the drops between. */
const MAX_RUNGS = 4;
/** Deadlines are tried on the hour: a deadline of day is stated in hours. */
const STEP = 60;
/**
 * Each of the day's deadlines gets a quick plan (the heuristic and light levelling, no exact
 * search): 24 full plans of a few dozen runs took seconds each. A rung is then the peak of the
 * best schedule found, which that deadline needs at most.
 */
const QUICK = { nodeBudget: 0, levelWork: 300_000 };

/** A batch or training workload whose runs can be planned, except for the deadline. */
function plannable(w: InferredWorkload): boolean {
  return (
    w.type !== 'inference' &&
    w.deadlineUtc.value === null &&
    w.gpus.value !== null &&
    w.gpus.value > 0 &&
    w.runtimeMinutes.value !== null &&
    w.runtimeMinutes.value > 0 &&
    w.jobsPerDay.value !== null &&
    w.jobsPerDay.value > 0 &&
    w.earliestStartUtc.value !== null
  );
}

/** The least peak that has every run done by `deadline`; null when some run cannot be. */
function peakBy(workloads: readonly InferredWorkload[], deadline: number): number | null {
  const jobs: JobWorkload[] = workloads.map((w) => ({
    name: w.name,
    type: w.type === 'training' ? 'training' : 'batch',
    gpusPerJob: w.gpus.value ?? 0,
    runtime: w.runtimeMinutes.value ?? 0,
    jobsPerDay: w.jobsPerDay.value ?? 0,
    window: { earliestStart: w.earliestStartUtc.value ?? 0, deadline },
    interruptible: false,
    source: { file: '', line: null },
  }));
  const expanded = jobsFromWorkloads(jobs, DAY);
  if (expanded.problems.length > 0) return null;
  return planStagger(expanded.jobs, { cycle: DAY, ...QUICK }).peakGpus;
}

/**
 * What each deadline of the day would need for batch jobs nothing gives a deadline: every hour
 * from the earliest start on, the least staggered peak that has all their runs done by then.
 * Kept: the tightest deadline that can be met, then each later one needing fewer GPUs; and the
 * earliest one `capacity` meets. Null when no workload can be planned. Pure.
 */
export function deadlineLadder(workloads: readonly InferredWorkload[], capacity: number): DeadlineLadder | null {
  const jobs = workloads.filter(plannable);
  if (jobs.length === 0) return null;
  const first = Math.min(...jobs.map((w) => w.earliestStartUtc.value ?? 0));
  const all: DeadlineRung[] = [];
  for (let after = STEP; after <= DAY; after += STEP) {
    const deadlineUtc = mod(Math.ceil((first + after) / STEP) * STEP, DAY);
    const gpus = peakBy(jobs, deadlineUtc);
    if (gpus !== null && !all.some((r) => r.deadlineUtc === deadlineUtc)) all.push({ deadlineUtc, gpus });
  }
  const drops = all.filter((r, i) => i === 0 || r.gpus < itemAt(all, i - 1, 'a-rung-after-the-first-has-one-before').gpus);
  const rungs =
    drops.length <= MAX_RUNGS ? drops : [...drops.slice(0, MAX_RUNGS - 1), itemAt(drops, drops.length - 1, 'more-drops-than-rungs')];
  const met = all.find((r) => r.gpus <= capacity);
  return { workloads: jobs.map((w) => w.name), rungs, capacity, capacityDoneBy: met?.deadlineUtc ?? null };
}
