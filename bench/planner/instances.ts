import { jobsFromWorkloads } from '../../src/analysis/stagger/index.js';
import { WEEKDAYS, type JobWorkload, type StaggerJob } from '../../src/domain/index.js';
import { expandProblemWords } from '../../src/report/stagger-problems.js';
import { intIn, pick, seeded } from '../lib/measure.js';

const DAY = 1440;

export interface Instance {
  name: string;
  jobs: StaggerJob[];
  /** Minutes in the plan's cycle: a day unless the catalog names weekdays. */
  cycle: number;
}

function workload(name: string, over: Omit<JobWorkload, 'name' | 'type' | 'source'>): JobWorkload {
  return { name, type: 'batch', source: { file: 'gpu-workloads.yaml', line: 1 }, ...over };
}

/**
 * Catalog-shaped instances: workloads of 1–4 identical daily runs, sizes 1/2/4/8 GPUs, most of
 * them crowding the night (18:00–04:00) as batch work does, windows that may cross midnight.
 * Times are multiples of `unit` minutes, so the planner's grid (and the MILP's) has 1440/unit
 * slots. Expanded into runs by the pipeline's own `jobsFromWorkloads`.
 */
export function catalogInstance(name: string, runs: number, unit: number, seed: number, maxRunsPerWorkload = 4): Instance {
  return expanded(name, catalogWorkloads(runs, unit, seed, maxRunsPerWorkload));
}

/** The benchmark's small catalogs: 5 to 30 runs, three seeds each, on 30- or 60-minute grids. */
export function smallInstances(): Instance[] {
  return [5, 10, 15, 20, 25, 30].flatMap((n) =>
    [1, 2, 3].map((seed) => catalogInstance(`${n} runs #${seed}`, n, n <= 15 ? 30 : 60, 100 * n + seed)),
  );
}

function expanded(name: string, workloads: JobWorkload[]): Instance {
  const { jobs, problems, cycle } = jobsFromWorkloads(workloads);
  if (problems.length > 0) throw new Error(`instance ${name}: ${problems.map((p) => expandProblemWords(p)).join('; ')}`);
  return { name, jobs, cycle };
}

function catalogWorkloads(runs: number, unit: number, seed: number, maxRunsPerWorkload: number): JobWorkload[] {
  const rand = seeded(seed);
  const units = DAY / unit;
  const hour = 60 / unit;
  const workloads: JobWorkload[] = [];
  let count = 0;
  for (let w = 0; count < runs; w++) {
    const jobsPerDay = Math.min(runs - count, intIn(rand, 1, maxRunsPerWorkload));
    const night = rand() < 0.7;
    const releaseUnits = night ? (18 * hour + intIn(rand, 0, 10 * hour - 1)) % units : intIn(rand, 0, units - 1);
    const durationUnits = intIn(rand, Math.max(1, hour / 2), 6 * hour);
    const windowUnits = Math.min(units, durationUnits + intIn(rand, 0, 10 * hour));
    const deadline = (releaseUnits + windowUnits) * unit;
    workloads.push(
      workload(`w${w}`, {
        gpusPerJob: pick(rand, [1, 2, 2, 4, 4, 8]),
        runtime: durationUnits * unit,
        jobsPerDay,
        window: { earliestStart: releaseUnits * unit, deadline: deadline >= DAY ? deadline - DAY : deadline },
        interruptible: false,
      }),
    );
    count += jobsPerDay;
  }
  return workloads;
}

/**
 * A week of `total` runs at 5-minute resolution as seven daily variants: each weekday gets its
 * own mix (its own seed), and each is planned as its own repeating day.
 */
export function weekVariants(total: number, seed: number): Instance[] {
  return WEEKDAYS.map((d, i) => catalogInstance(`week-${d}`, weekdayShare(total, i), 5, seed + i, 24));
}

const weekdayShare = (total: number, i: number): number => Math.floor(total / 7) + (i < total % 7 ? 1 : 0);

/**
 * The same seven weekday mixes as one catalog on a repeating week: each weekday's workloads
 * name that day (`days: [mon]`, …), so the pipeline plans a weekly cycle and a run crossing
 * midnight spills into the next weekday's morning (Sunday's into Monday's).
 */
export function weekCycle(total: number, seed: number): Instance {
  const workloads = WEEKDAYS.flatMap((d, i) =>
    catalogWorkloads(weekdayShare(total, i), 5, seed + i, 24).map((w) => ({ ...w, name: `${d}-${w.name}`, days: [d] })),
  );
  return expanded(`week (seed ${seed})`, workloads);
}
