import type {
  DraftEntry,
  Evidence,
  FieldOrigin,
  InferredField,
  InferredWorkload,
  JobRun,
  JobWorkload,
  ObservedJobRuns,
  PartialJobWorkload,
  SourceRef,
  Workload,
} from '../domain/index.js';
import { gpusOf } from '../domain/index.js';
import { earliestStart, longestMinutes, runsOf, runsPerDay } from './job-runs.js';

const at = (s: SourceRef): string => (s.line === null ? s.file : `${s.file}:${s.line}`);
const manifest = <T>(value: T, s: SourceRef): InferredField<T> => ({ value, origin: { source: 'manifest', ref: at(s) } });
const unknown = <T>(): InferredField<T> => ({ value: null, origin: null });

function telemetryOrigin(e: readonly Evidence[]): FieldOrigin | null {
  const first = e[0];
  if (first === undefined) return null;
  const ref = e.map((x) => x.ref).join(' ; ');
  return { source: 'telemetry', ref, ...(first.window === undefined ? {} : { window: first.window }) };
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
    // A field the catalog left unknown and a review filled keeps the origin it was filled from.
    runtimeMinutes: { value: w.runtime, origin: w.filled?.runtime ?? origin },
    jobsPerDay: field(w.jobsPerDay),
    earliestStartUtc: { value: w.window.earliestStart, origin: w.filled?.earliestStart ?? origin },
    deadlineUtc: field(w.window.deadline),
    runsObserved: 0,
  };
}

/** One workload from its manifest and the runs telemetry saw of it. */
function fromManifest(entry: DraftEntry, runs: readonly JobRun[], origin: FieldOrigin | null, windowDays: number): InferredWorkload {
  const w = entry.workload;
  const mine = runsOf(w, runs);
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

/** A catalog entry and a manifest's workload are one workload: same name, and same namespace where both say. */
const sameWorkload = (c: InferredWorkload, d: InferredWorkload): boolean =>
  d.name === c.name && (c.namespace === null || d.namespace === null || d.namespace === c.namespace);

/** A catalog entry no manifest declares, as its own runs show it (runs found by its name in its namespace). */
function fromRuns(c: InferredWorkload, runs: readonly JobRun[], origin: FieldOrigin | null, windowDays: number): InferredWorkload {
  const mine = runsOf({ name: c.name, namespace: c.namespace, kind: null }, runs);
  const observed = <T>(value: T | null): InferredField<T> => (value === null || origin === null ? unknown() : { value, origin });
  return {
    ...c,
    gpus: unknown(),
    runtimeMinutes: observed(longestMinutes(mine)),
    jobsPerDay: observed(runsPerDay(mine, windowDays)),
    earliestStartUtc: observed(earliestStart(mine)),
    deadlineUtc: unknown(),
    runsObserved: mine.length,
  };
}

/**
 * A catalog entry whose runtime or earliest start is `unknown`, those fields taken from what is
 * inferred of the same workload: its manifest (matched as {@link inferredWorkloads} matches), else
 * its own observed runs. What the catalog states wins; the deadline is always the catalog's. Null
 * when a field stays unknown, or when the runtime taken does not fit the window (the entry stays out
 * of the need, as written). Pure.
 */
export function filledWorkload(
  p: PartialJobWorkload,
  declared: readonly DraftEntry[],
  observed: ObservedJobRuns | null,
  windowDays: number,
): JobWorkload | null {
  const origin = observed ? telemetryOrigin(observed.evidence) : null;
  const runs = observed?.runs ?? [];
  const catalogOrigin: FieldOrigin = { source: 'catalog', ref: at(p.source) };
  const stated = <T>(value: T | null): InferredField<T> => (value === null ? unknown() : { value, origin: catalogOrigin });
  const c: InferredWorkload = {
    name: p.name,
    namespace: p.selector?.['namespace'] ?? null,
    type: p.type,
    gpus: stated(p.gpusPerJob),
    runtimeMinutes: stated(p.runtime),
    jobsPerDay: stated(p.jobsPerDay),
    earliestStartUtc: stated(p.window.earliestStart),
    deadlineUtc: stated(p.window.deadline),
    runsObserved: 0,
  };
  const manifestOf = declared.find((e) => sameWorkload(c, { ...c, name: e.name, namespace: e.workload.namespace }));
  const merged = overlay(c, manifestOf ? fromManifest(manifestOf, runs, origin, windowDays) : fromRuns(c, runs, origin, windowDays));
  const runtime = merged.runtimeMinutes;
  const start = merged.earliestStartUtc;
  if (runtime.value === null || start.value === null || runtime.origin === null || start.origin === null) return null;
  const span = p.window.deadline - start.value;
  if (runtime.value > (span > 0 ? span : span + 1440)) return null;
  const filled = {
    ...(p.runtime === null ? { runtime: runtime.origin } : {}),
    ...(p.window.earliestStart === null ? { earliestStart: start.origin } : {}),
  };
  return { ...p, runtime: runtime.value, window: { earliestStart: start.value, deadline: p.window.deadline }, filled };
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
    const same = fromRepo.find((d) => sameWorkload(c, d));
    return same ? overlay(c, same) : c;
  });
  for (const d of fromRepo) if (!out.some((w) => w.name === d.name)) out.push(d);
  return out;
}
