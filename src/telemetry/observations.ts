import type { CapacityChange, ChangeObservations, DemandProfile, JobRun, MissingEvidence, ObservedJobRuns } from '../domain/index.js';
import type { ReviewTelemetry } from './collect.js';
import { evidenceOf } from './gather.js';
import {
  JOB_COMPLETIONS_FAMILY,
  JOB_STARTS_FAMILY,
  POD_COMPLETIONS_FAMILY,
  POD_STARTS_FAMILY,
  QUEUE_PENDING_GPUS_FAMILY,
} from './queries/jobs.js';
import { scopeForChange } from './scopes.js';
import { toMissingEvidence, type QueryAnswer } from './source.js';
import { itemAt } from '../util/indexed.js';

type Line = Map<number, number>;

function lineOf(a: QueryAnswer): Line {
  const out: Line = new Map();
  for (const s of a.series) for (const p of s.samples) if (Number.isFinite(p.v)) out.set(p.t, (out.get(p.t) ?? 0) + p.v);
  return out;
}

/** Seconds a point stands for: the answer's step, else the smallest gap between points. */
function stepSeconds(a: QueryAnswer, line: Line): number {
  if (a.step !== undefined && a.step > 0) return a.step;
  const times = [...line.keys()].sort((x, y) => x - y);
  let best = 0;
  for (let i = 1; i < times.length; i++) {
    const gap = itemAt(times, i, 'i within the loop') - itemAt(times, i - 1, 'i within the loop');
    if (gap > 0 && (best === 0 || gap < best)) best = gap;
  }
  return best;
}

const peak = (line: Line): number => (line.size === 0 ? 0 : Math.max(...line.values()));

/**
 * The change's demand, its job runs and what is missing, from the answers of the review's
 * telemetry: Prometheus shapes stop here, analysis reads the typed measurements.
 */
export function observationsFor(change: CapacityChange, t: ReviewTelemetry): ChangeObservations {
  const scope = scopeForChange(change);
  if (scope === null) return { demand: null, jobRuns: null, missing: [] };
  const key = `${scope.kind}:${scope.name}`;
  const missing: MissingEvidence[] = [];
  const get = (family: string, required: boolean): QueryAnswer | undefined => {
    const r = t.evidence.results.find((x) => x.query.id === `${family}:${key}`);
    if (r === undefined) return undefined;
    if (r.status === 'ok') return r;
    // No series at all is a measurement of nothing requested, not a missing one, for optional parts.
    if (required || r.reason !== 'no-data') missing.push(t.evidence.outage ?? toMissingEvidence(r));
    return undefined;
  };
  const held = get(scope.kind === 'pool' ? 'ksm.gpu-requests' : 'kueue.usage', true);
  const pending = scope.kind === 'queue' ? get(QUEUE_PENDING_GPUS_FAMILY, false) : undefined;
  const pendingWorkloads = scope.kind === 'queue' ? get('kueue.pending', false) : undefined;
  const demand = held ? demandOf(scope.kind, scope.name, held, pending, pendingWorkloads, t.windowMinutes) : null;
  const starts = get(JOB_STARTS_FAMILY, false);
  const completions = get(JOB_COMPLETIONS_FAMILY, false);
  const podStarts = starts ? undefined : get(POD_STARTS_FAMILY, false);
  const podCompletions = podStarts ? get(POD_COMPLETIONS_FAMILY, false) : undefined;
  const jobRuns = starts ? jobRunsOf(starts, completions) : podStarts ? podRunsOf(podStarts, podCompletions) : null;
  return { demand, jobRuns, missing };
}

function demandOf(
  scope: 'pool' | 'queue',
  name: string,
  held: QueryAnswer,
  pending: QueryAnswer | undefined,
  pendingWorkloads: QueryAnswer | undefined,
  windowMinutes: number,
): DemandProfile {
  const h = lineOf(held);
  const p = pending ? lineOf(pending) : null;
  const total: Line = new Map(h);
  if (p) for (const [time, v] of p) total.set(time, (total.get(time) ?? 0) + v);
  const step = stepSeconds(held, h);
  let hours = 0;
  for (const v of total.values()) hours += (v * step) / 3600;
  const days = windowMinutes / 1440;
  return {
    scope,
    name,
    peakHeld: peak(h),
    peakPending: p ? peak(p) : null,
    peakPendingWorkloads: pendingWorkloads ? peak(lineOf(pendingWorkloads)) : null,
    peakDemand: peak(total),
    gpuHoursPerDay: days > 0 ? hours / days : 0,
    days,
    evidence: [held, ...(pending ? [pending] : []), ...(pendingWorkloads ? [pendingWorkloads] : [])].map(evidenceOf),
  };
}

const jobKey = (labels: Record<string, string>) => `${labels['namespace'] ?? ''}\u0000${labels['job_name'] ?? ''}`;

export function jobRunsOf(starts: QueryAnswer, completions: QueryAnswer | undefined): ObservedJobRuns {
  const done = new Map<string, number>();
  for (const s of completions?.series ?? []) {
    const v = s.samples.at(-1)?.v;
    if (v !== undefined && Number.isFinite(v) && v > 0) done.set(jobKey(s.labels), v);
  }
  const runs: JobRun[] = [];
  for (const s of starts.series) {
    const started = s.samples.at(-1)?.v;
    const job = s.labels['job_name'];
    if (started === undefined || !Number.isFinite(started) || started <= 0 || job === undefined) continue;
    const completed = done.get(jobKey(s.labels)) ?? null;
    runs.push({
      namespace: s.labels['namespace'] ?? '',
      job,
      cronJob: s.labels['owner_kind'] === 'CronJob' ? (s.labels['owner_name'] ?? null) : null,
      startedAt: started,
      completedAt: completed !== null && completed >= started ? completed : null,
    });
  }
  runs.sort((a, b) => a.startedAt - b.startedAt || a.job.localeCompare(b.job));
  return { runs, evidence: [starts, ...(completions ? [completions] : [])].map(evidenceOf) };
}

/**
 * A CronJob names its Jobs `<cronjob>-<scheduled time in minutes since 1970>`: without
 * kube_job_owner, that suffix is what ties a Job to its CronJob.
 */
const CRONJOB_SUFFIX = /^(.+)-\d{8,}$/;

/** Job runs from their pods' lifetimes: a run starts with its first pod and ends when its last completes. */
export function podRunsOf(starts: QueryAnswer, completions: QueryAnswer | undefined): ObservedJobRuns {
  const podKey = (l: Record<string, string>) => `${l['namespace'] ?? ''}\u0000${l['pod'] ?? ''}`;
  const done = new Map<string, number>();
  for (const s of completions?.series ?? []) {
    const v = s.samples.at(-1)?.v;
    if (v !== undefined && Number.isFinite(v) && v > 0) done.set(podKey(s.labels), v);
  }
  const jobs = new Map<string, { namespace: string; job: string; start: number; end: number | null }>();
  for (const s of starts.series) {
    const started = s.samples.at(-1)?.v;
    const job = s.labels['owner_name'];
    if (started === undefined || !Number.isFinite(started) || started <= 0 || job === undefined || job === '') continue;
    const namespace = s.labels['namespace'] ?? '';
    const key = `${namespace}\u0000${job}`;
    const end = done.get(podKey(s.labels)) ?? null;
    const run = jobs.get(key);
    if (run === undefined) jobs.set(key, { namespace, job, start: started, end });
    else {
      run.start = Math.min(run.start, started);
      // A pod still running leaves the run unfinished.
      run.end = run.end === null || end === null ? null : Math.max(run.end, end);
    }
  }
  const runs: JobRun[] = [...jobs.values()].map((j) => ({
    namespace: j.namespace,
    job: j.job,
    cronJob: CRONJOB_SUFFIX.exec(j.job)?.[1] ?? null,
    startedAt: j.start,
    completedAt: j.end !== null && j.end >= j.start ? j.end : null,
  }));
  runs.sort((a, b) => a.startedAt - b.startedAt || a.job.localeCompare(b.job));
  return { runs, evidence: [starts, ...(completions ? [completions] : [])].map(evidenceOf) };
}
