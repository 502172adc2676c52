import fc from 'fast-check';
import type { JobWorkload, StaggerJob, StaggerPlan } from '../../../src/domain/index.js';

export const H = 60;

/** `count` identical runs of one workload. */
export function runs(workload: string, count: number, over: Omit<StaggerJob, 'workload' | 'run'>): StaggerJob[] {
  return Array.from({ length: count }, (_, i) => ({ workload, run: i + 1, ...over }));
}

export function job(
  workload: string,
  gpus: number,
  duration: number,
  release: number,
  deadline: number,
  interruptible = false,
): StaggerJob {
  return { workload, run: 1, gpus, duration, release, deadline, interruptible };
}

export function workload(over: Partial<JobWorkload> & { name: string }): JobWorkload {
  return {
    type: 'batch',
    gpusPerJob: 2,
    runtime: 120,
    jobsPerDay: 1,
    window: { earliestStart: 0, deadline: 360 },
    interruptible: false,
    source: { file: 'gpu-workloads.yaml', line: 1 },
    ...over,
  };
}

export function startsOf(plan: StaggerPlan, name: string): number[] {
  return plan.schedule.filter((r) => r.workload === name).map((r) => r.pieces[0]?.start ?? NaN);
}

/** Usage per `step`-minute slot of the cycle; a slot counts a run covering any of it. */
function addRun(profile: number[], step: number, start: number, length: number, gpus: number): void {
  const slots = profile.length;
  for (let t = start; t < start + length; t += step) {
    const i = Math.floor(t / step) % slots;
    profile[i] = (profile[i] ?? 0) + gpus;
  }
}

/**
 * The least peak over every assignment of unsplit starts on multiples of `step`, by plain
 * enumeration (cut only when a partial schedule already reaches the best peak found), on a
 * repeating cycle of `cycle` minutes.
 */
export function bruteForcePeak(jobs: StaggerJob[], step: number, cycle = 1440): number {
  const profile = new Array<number>(cycle / step).fill(0);
  let best = Infinity;
  const visit = (i: number): void => {
    const peak = Math.max(0, ...profile);
    if (peak >= best) return;
    const j = jobs[i];
    if (j === undefined) {
      best = peak;
      return;
    }
    for (let s = j.release; s + j.duration <= j.deadline; s += step) {
      addRun(profile, step, s, j.duration, j.gpus);
      visit(i + 1);
      addRun(profile, step, s, j.duration, -j.gpus);
    }
  };
  visit(0);
  return best;
}

function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k - 1).map((s) => [...s, n - 1]), ...subsets(n - 1, k)];
}

/** As bruteForcePeak, but interruptible jobs may also take any set of `step` slots in their window. */
export function bruteForceSplitPeak(jobs: StaggerJob[], step: number): number {
  const profile = new Array<number>(1440 / step).fill(0);
  let best = Infinity;
  const options = jobs.map((j) => {
    const whole: number[][] = [];
    for (let s = j.release; s + j.duration <= j.deadline; s += step) {
      whole.push(Array.from({ length: j.duration / step }, (_, k) => s + k * step));
    }
    if (!j.interruptible) return whole;
    return subsets((j.deadline - j.release) / step, j.duration / step).map((set) => set.map((k) => j.release + k * step));
  });
  const visit = (i: number): void => {
    const peak = Math.max(0, ...profile);
    if (peak >= best) return;
    const j = jobs[i];
    const opts = options[i];
    if (j === undefined || opts === undefined) {
      best = peak;
      return;
    }
    for (const slots of opts) {
      for (const t of slots) addRun(profile, step, t, step, j.gpus);
      visit(i + 1);
      for (const t of slots) addRun(profile, step, t, step, -j.gpus);
    }
  };
  visit(0);
  return best;
}

/** Peak when every run starts at its release, computed minute by minute. */
export function naivePeak(jobs: StaggerJob[], cycle = 1440): number {
  const profile = new Array<number>(cycle).fill(0);
  for (const j of jobs) addRun(profile, 1, j.release, j.duration, j.gpus);
  return Math.max(0, ...profile);
}

export interface SpecOptions {
  maxRuns: number;
  unit: number;
  maxWindowUnits: number;
  fullDay: boolean;
  interruptible: boolean;
  /** Minutes in the cycle the releases spread over: a day unless given. */
  cycle?: number;
}

/**
 * Random daily jobs with every time a multiple of `unit` minutes: a few workloads of 1–3
 * identical runs, windows that may cross midnight (and, optionally, full-day windows).
 */
export function jobsArb(o: SpecOptions): fc.Arbitrary<StaggerJob[]> {
  const dayUnits = 1440 / o.unit;
  const spec = fc.record({
    gpus: fc.integer({ min: 1, max: 4 }),
    release: fc.integer({ min: 0, max: (o.cycle ?? 1440) / o.unit - 1 }),
    window: o.fullDay
      ? fc.oneof(fc.integer({ min: 1, max: o.maxWindowUnits }), fc.constant(dayUnits))
      : fc.integer({ min: 1, max: o.maxWindowUnits }),
    duration: fc.integer({ min: 1, max: dayUnits }),
    count: fc.integer({ min: 1, max: 3 }),
    interruptible: o.interruptible ? fc.boolean() : fc.constant(false),
  });
  return fc.array(spec, { minLength: 1, maxLength: o.maxRuns }).map((specs) => {
    const jobs: StaggerJob[] = [];
    specs.forEach((s, w) => {
      // Long jobs in full-day windows keep the brute force small.
      const minDuration = s.window === dayUnits ? dayUnits - o.maxWindowUnits : 1;
      const duration = Math.max(minDuration, Math.min(s.duration, s.window));
      for (let run = 1; run <= s.count && jobs.length < o.maxRuns; run++) {
        jobs.push({
          workload: `w${w}`,
          run,
          gpus: s.gpus,
          duration: duration * o.unit,
          release: s.release * o.unit,
          deadline: (s.release + s.window) * o.unit,
          interruptible: s.interruptible,
        });
      }
    });
    return jobs;
  });
}
