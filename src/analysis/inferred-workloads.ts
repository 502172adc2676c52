import type {
  DraftEntry,
  Evidence,
  FieldOrigin,
  InferredField,
  InferredWorkload,
  JobRun,
  ObservedJobRuns,
  SourceRef,
  Workload,
} from '../domain/index.js';
import { gpusOf } from '../domain/index.js';

const DAY_SECONDS = 86_400;

const at = (s: SourceRef): string => (s.line === null ? s.file : `${s.file}:${s.line}`);
const manifest = <T>(value: T, s: SourceRef): InferredField<T> => ({ value, origin: { source: 'manifest', ref: at(s) } });
const unknown = <T>(): InferredField<T> => ({ value: null, origin: null });

function telemetryOrigin(e: readonly Evidence[]): FieldOrigin | null {
  const first = e[0];
  if (first === undefined) return null;
  const ref = e.map((x) => x.ref).join(' ; ');
  return { source: 'telemetry', ref, ...(first.window === undefined ? {} : { window: first.window }) };
}

/** Runs a CronJob or a Job of the manifests made: by owner name, or by the Job's own name. */
function runsOf(entry: DraftEntry, runs: readonly JobRun[]): JobRun[] {
  const w = entry.workload;
  const sameNamespace = (r: JobRun) => w.namespace === null || r.namespace === w.namespace;
  if (w.kind === 'CronJob') return runs.filter((r) => r.cronJob === w.name && sameNamespace(r));
  if (w.kind === 'Job') return runs.filter((r) => r.cronJob === null && r.job === w.name && sameNamespace(r));
  return [];
}

/** The longest completed run, minutes: the deadline a plan must meet is met by every run, not the average one. */
function longestMinutes(runs: readonly JobRun[]): number | null {
  const done = runs.flatMap((r) => (r.completedAt === null ? [] : [(r.completedAt - r.startedAt) / 60]));
  return done.length === 0 ? null : Math.ceil(Math.max(...done));
}

/** Earliest time of day (UTC) a run started, minutes, on the whole minute. */
function earliestStart(runs: readonly JobRun[]): number | null {
  if (runs.length === 0) return null;
  return Math.min(...runs.map((r) => Math.floor((((r.startedAt % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS) / 60)));
}

/** Runs a day over the days the runs span, rounded: a daily CronJob seen twice in two days runs once a day. */
function runsPerDay(runs: readonly JobRun[], windowDays: number): number | null {
  if (runs.length === 0 || windowDays <= 0) return null;
  return Math.max(1, Math.round(runs.length / Math.max(1, Math.round(windowDays))));
}

/** A catalog entry's fields, every one from the catalog. */
function fromCatalog(w: Workload): InferredWorkload {
  const origin: FieldOrigin = { source: 'catalog', ref: at(w.source) };
  const field = <T>(value: T): InferredField<T> => ({ value, origin });
  const namespace = w.selector?.['namespace'] ?? null;
  if (w.type === 'inference') {
    return {
      name: w.name,
      namespace,
      type: w.type,
      gpus: field(w.gpusPerReplica * w.replicas),
      runtimeMinutes: unknown(),
      jobsPerDay: unknown(),
      earliestStartUtc: unknown(),
      deadlineUtc: unknown(),
      runsObserved: 0,
    };
  }
  return {
    name: w.name,
    namespace,
    type: w.type,
    gpus: field(w.gpusPerJob),
    runtimeMinutes: field(w.runtime),
    jobsPerDay: field(w.jobsPerDay),
    earliestStartUtc: field(w.window.earliestStart),
    deadlineUtc: field(w.window.deadline),
    runsObserved: 0,
  };
}

/** One workload from its manifest and the runs telemetry saw of it. */
function fromManifest(entry: DraftEntry, runs: readonly JobRun[], origin: FieldOrigin | null, windowDays: number): InferredWorkload {
  const w = entry.workload;
  const mine = runsOf(entry, runs);
  const observed = <T>(value: T | null): InferredField<T> => (value === null || origin === null ? unknown() : { value, origin });
  const schedule = entry.schedule;
  const cron = w.schedule;
  const longest = longestMinutes(mine);
  return {
    name: entry.name,
    namespace: w.namespace,
    type: w.type,
    gpus: manifest(gpusOf(w), w.groups[0]?.source ?? w.source),
    runtimeMinutes: longest === null ? unknown() : observed(longest),
    // The schedule a manifest states is what runs; runs observed only stand in without one.
    jobsPerDay: schedule && cron ? manifest(schedule.jobsPerDay, cron.source) : observed(runsPerDay(mine, windowDays)),
    earliestStartUtc: schedule && cron ? manifest(schedule.earliestStartUtc, cron.source) : observed(earliestStart(mine)),
    // No manifest field is a deadline of day: activeDeadlineSeconds bounds a run, it does not say when it is due.
    deadlineUtc: unknown(),
    runsObserved: mine.length,
  };
}

/** A catalog entry wins field by field: what it leaves unknown keeps the inferred value. */
function overlay(catalog: InferredWorkload, inferred: InferredWorkload): InferredWorkload {
  const pick = <T>(a: InferredField<T>, b: InferredField<T>): InferredField<T> => (a.value === null ? b : a);
  return {
    ...catalog,
    namespace: catalog.namespace ?? inferred.namespace,
    gpus: pick(catalog.gpus, inferred.gpus),
    runtimeMinutes: pick(catalog.runtimeMinutes, inferred.runtimeMinutes),
    jobsPerDay: pick(catalog.jobsPerDay, inferred.jobsPerDay),
    earliestStartUtc: pick(catalog.earliestStartUtc, inferred.earliestStartUtc),
    deadlineUtc: pick(catalog.deadlineUtc, inferred.deadlineUtc),
    runsObserved: inferred.runsObserved,
  };
}

/**
 * One merged view of the workloads of a change: catalog entries, the manifests' workloads and
 * the Job runs telemetry saw. A workload named by several is one workload (a catalog entry and a
 * manifest by name, a manifest and its runs by owner), its fields taken catalog first. Pure.
 */
export function inferredWorkloads(
  catalog: readonly Workload[],
  declared: readonly DraftEntry[],
  observed: ObservedJobRuns | null,
  windowDays: number,
): InferredWorkload[] {
  const origin = observed ? telemetryOrigin(observed.evidence) : null;
  const runs = observed?.runs ?? [];
  const fromRepo = declared.map((e) => fromManifest(e, runs, origin, windowDays));
  const out = catalog.map((w) => {
    const c = fromCatalog(w);
    const same = fromRepo.find((d) => d.name === w.name && (c.namespace === null || d.namespace === null || d.namespace === c.namespace));
    return same ? overlay(c, same) : c;
  });
  for (const d of fromRepo) if (!out.some((w) => w.name === d.name)) out.push(d);
  return out;
}
