import type { Evidence, Finding, JobWorkload, MeasureKey, RuntimeCheck, TakenMeasurement } from '../domain/index.js';
import { measureKey, WEEKDAYS, windowLength } from '../domain/index.js';
import type { Measured } from './measured.js';
import { migMeasures, plus } from './mig.js';
import { hoursOf, stepOf, timeline, type Timeline } from './series.js';

/** A documented runtime further than this from the observed one is not trusted for planning. */
const RUNTIME_TOLERANCE = 0.25;
/** Observed runtimes this far past the window are read as the window itself. */
const SCRAPE_SLACK = 0.05;

/**
 * The mean runtime of a job's runs over the window: the GPU-hours its Running pods held
 * (kube-state-metrics; a pod Pending for a node, or finished and not yet deleted, holds none),
 * divided by the GPU-hours its runs in the window should hold (jobsPerDay × gpusPerJob on each
 * day of the window it runs on: every day, or only the weekdays it names). Time Pending is
 * reported beside it as queueing.
 * Averaging GPU-hours rather than timing pods keeps runs that overlap from being counted as one
 * long run. Null when unmeasured, when nothing ran, or when the window holds none of its days.
 */
export function observedRuntime(w: JobWorkload, m: Measured): RuntimeCheck | null {
  if (w.selector === undefined || Object.keys(w.selector).length === 0) {
    m.lack({ code: 'selector-for-runtime', workload: w.name });
    return null;
  }
  const id = measureKey('gpu-requests', `workload:${w.name}`);
  const devices = migDevices(w, m, id);
  const a = devices === null ? m.answer(id) : m.peek(id);
  if (devices === null && a === undefined) return null;
  const line = devices?.line ?? timeline(a as TakenMeasurement);
  const gpuHours = hoursOf(line, devices?.step ?? stepOf(a as TakenMeasurement, line));
  const days = runDays(w, m.telemetry.at, m.telemetry.windowMinutes);
  if (gpuHours <= 0 || days <= 0 || w.jobsPerDay <= 0) return null;
  const perRun = (hours: number) => (hours / days / (w.jobsPerDay * w.gpusPerJob)) * 60;
  const observedMinutes = perRun(gpuHours);
  const pending = pendingHours(w, m);
  return {
    workload: w.name,
    documentedMinutes: w.runtime,
    observedMinutes,
    pendingMinutes: pending === null ? null : perRun(pending.hours),
    differs: Math.abs(observedMinutes - w.runtime) > RUNTIME_TOLERANCE * w.runtime,
    evidence: [
      ...(a ? [a.evidence] : []),
      ...(devices?.evidence ?? []),
      ...(pending?.evidence ?? []),
      { source: 'catalog', ref: `${w.source.file}${w.source.line === null ? '' : `:${w.source.line}`}` },
    ],
  };
}

/**
 * GPU-hours the job's pods asked for while Pending: 0 when none was Pending, null when it could
 * not be told. Read only to report queueing; it never plans.
 */
function pendingHours(w: JobWorkload, m: Measured): { hours: number; evidence: Evidence[] } | null {
  const id = measureKey('gpu-requests-pending', `workload:${w.name}`);
  const a = m.peek(id);
  if (a === undefined) return m.missingBecause(id) === 'nothing-there' ? { hours: 0, evidence: [] } : null;
  const line = timeline(a);
  return { hours: hoursOf(line, stepOf(a, line)), evidence: [a.evidence] };
}

const MINUTES_PER_DAY = 1440;

/**
 * Days of the window the job runs on, a partly covered day by the share covered (UTC days, as
 * the catalog's windows): the whole window for a daily job; for one that names weekdays only
 * those, so a two-day window over a weekend expects none of a weekday job's runs.
 */
export function runDays(w: Pick<JobWorkload, 'days'>, at: string, windowMinutes: number): number {
  if (w.days === undefined) return windowMinutes / MINUTES_PER_DAY;
  const end = Date.parse(at) / 60_000;
  if (!Number.isFinite(end)) return windowMinutes / MINUTES_PER_DAY;
  const start = end - windowMinutes;
  let total = 0;
  for (let day = Math.floor(start / MINUTES_PER_DAY); day * MINUTES_PER_DAY < end; day++) {
    // Day 0 of the epoch, 1970-01-01, was a Thursday: index 3 from Monday.
    const weekday = WEEKDAYS[(((day + 3) % 7) + 7) % 7];
    if (weekday === undefined || !w.days.includes(weekday)) continue;
    const from = Math.max(start, day * MINUTES_PER_DAY);
    const to = Math.min(end, (day + 1) * MINUTES_PER_DAY);
    total += (to - from) / MINUTES_PER_DAY;
  }
  return total;
}

/**
 * Devices a job on MIG requested over time: whole GPUs and MIG instances alike count one each,
 * as `gpusPerJob` counts what a run asks Kubernetes for (a single-strategy slice is already one
 * nvidia.com/gpu). Null when the job uses no MIG device.
 */
function migDevices(w: JobWorkload, m: Measured, id: MeasureKey): { line: Timeline; step: number; evidence: Evidence[] } | null {
  const mig = migMeasures(m, `workload:${w.name}`);
  const why = m.missingBecause(id);
  // Whole GPUs unknown: the runtime is unknown too, and the usual path says why.
  if (mig === null || (why !== null && why !== 'nothing-there')) return null;
  const a = m.peek(id);
  const line = plus(a === undefined ? new Map<number, number>() : timeline(a), mig.mixedDevices);
  return { line, step: a === undefined ? mig.step : stepOf(a), evidence: mig.answers.map((a) => a.evidence) };
}

/**
 * Runtimes the plan should use: the observed one where it is longer than documented by more
 * than the tolerance — a plan on a runtime the cluster contradicts would claim too few GPUs.
 * A shorter observed runtime is only reported: planning on it would lean on a guess.
 */
export function plannedRuntimes(jobs: readonly JobWorkload[], checks: readonly RuntimeCheck[]): JobWorkload[] {
  return jobs.map((w) => {
    const c = checks.find((x) => x.workload === w.name);
    if (!c || !c.differs || c.observedMinutes <= w.runtime) return w;
    // Runs that were seen finishing fit their window: a few minutes over it are scrape
    // granularity (a series lingers until Prometheus marks it stale), not a longer run.
    const observed = Math.ceil(c.observedMinutes);
    const window = windowLength(w.window);
    return { ...w, runtime: observed > window && observed <= window * (1 + SCRAPE_SLACK) ? window : observed };
  });
}

/** The finding for runtimes that disagree with the catalog. */
export function runtimeFinding(checks: readonly RuntimeCheck[]): Finding | null {
  const off = checks.filter((c) => c.differs);
  if (off.length === 0) return null;
  return {
    lever: 'stagger',
    gpusFreed: 0,
    meetsNeed: false,
    detail: {
      code: 'runtime-off',
      tolerance: RUNTIME_TOLERANCE,
      jobs: off.map((c) => ({
        workload: c.workload,
        documentedMinutes: c.documentedMinutes,
        observedMinutes: c.observedMinutes,
        ...(c.pendingMinutes !== undefined && c.pendingMinutes !== null && c.pendingMinutes >= 1
          ? { pendingMinutes: c.pendingMinutes }
          : {}),
      })),
    },
    evidence: off.flatMap((c) => c.evidence),
    confidence: 'low',
  };
}
