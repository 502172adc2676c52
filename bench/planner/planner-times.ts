/**
 * The planner's times on the small instances, in this process: run by the planner benchmark
 * once per fresh process (`node <loader> planner-times.ts`), printing JSON on stdout.
 */
import { pathToFileURL } from 'node:url';
import type { StaggerJob, StaggerPlan } from '../../src/domain/index.js';
import { median, now } from '../lib/measure.js';
import { planStagger } from './built.js';
import { smallInstances } from './instances.js';

// The planner's code reaches its optimised tier only after some hundreds of calls, at a moment
// that varies from run to run (a 0.4 ms plan measured 0.40-0.76 ms over the 200 ms just after its
// first call): each instance is planned untimed for WARM_MS first, so the timed calls measure the
// steady state. The first call is reported beside it.
export const WARM_MS = 300;
export const TIMED_MS = 300;

interface PlannerTime {
  plan: StaggerPlan;
  /** Median of the timed calls. */
  ms: number;
  /** The instance's first plan in the process, before the warm-up. */
  firstMs: number;
}

/** Median wall time of planning `jobs` once warm (≥ 5 calls and ≥ TIMED_MS), and its first call's. */
function plannerTime(jobs: StaggerJob[]): PlannerTime {
  const first = now();
  let plan = planStagger(jobs);
  const firstMs = now() - first;
  while (now() - first < WARM_MS) plan = planStagger(jobs);
  const times: number[] = [];
  const started = now();
  while (times.length < 5 || now() - started < TIMED_MS) {
    const t = now();
    plan = planStagger(jobs);
    times.push(now() - t);
  }
  return { plan, ms: median(times), firstMs };
}

/** One process's figures, by instance name. */
export type ProcessTimes = Record<string, { ms: number; firstMs: number; peak: number }>;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out: ProcessTimes = {};
  for (const inst of smallInstances()) {
    const t = plannerTime(inst.jobs);
    out[inst.name] = { ms: t.ms, firstMs: t.firstMs, peak: t.plan.peakGpus };
  }
  process.stdout.write(JSON.stringify(out));
}
