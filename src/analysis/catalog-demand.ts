import type {
  DeclaredDemand,
  DemandSupport,
  InferenceWorkload,
  JobWorkload,
  Policy,
  RaisedDemand,
  ReviewMeasurements,
  Workload,
} from '../domain/index.js';
import { WEEKDAYS, measureKey } from '../domain/index.js';
import { Measured } from './measured.js';
import { runDays } from './runtime-check.js';
import { hoursOf, maxOf, stepOf, timeline } from './series.js';
import { servingCapacity } from './serving.js';

/**
 * A pull request cannot write the demand that justifies it. The head's catalog, entry by entry
 * against the base's (by name): kept (the base has it and the head asks no more), raised (the head
 * asks more), or added (only the head has it).
 */
export interface CatalogSplit {
  entries: SplitEntry[];
}

type SplitEntry =
  | { kind: 'kept'; head: Workload }
  | { kind: 'raised'; head: Workload; base: Workload; fields: string[] }
  | { kind: 'added'; head: Workload };

/** The catalog a review judges by, when the PR's head changes it. */
export interface JudgedCatalog {
  /** What the need is computed from: raised entries as the base has them, added ones left out, unless measured. */
  workloads: Workload[];
  /** Every entry as the head writes it: what the PR's verdict would be had all of it been taken. */
  asWritten: Workload[];
  raised: RaisedDemand[];
  declaredInPr: string[];
  declared: DeclaredDemand[];
}

/** Splits the head's catalog against the base's. Pure. */
export function splitCatalog(base: readonly Workload[], head: readonly Workload[]): CatalogSplit {
  const before = new Map(base.map((w) => [w.name, w]));
  return {
    entries: head.map((entry): SplitEntry => {
      const old = before.get(entry.name);
      if (!old) return { kind: 'added', head: entry };
      const fields = grown(old, entry);
      return fields.length === 0 ? { kind: 'kept', head: entry } : { kind: 'raised', head: entry, base: old, fields };
    }),
  };
}

/**
 * What telemetry is asked about: raised entries as the base has them (their selector is the
 * base's, so a PR cannot point the measurement at other pods), the rest as the head has them.
 */
export function measuredEntries(split: CatalogSplit): Workload[] {
  return split.entries.map((e) => (e.kind === 'raised' ? e.base : e.head));
}

/**
 * The catalog judged: an entry the PR adds or raises counts as written only with measured support
 * (see `supportOf`); else a raised one is judged as the base has it, an added one left out. Entries
 * added after the split (`more`: catalog entries whose `unknown` fields a review filled) are judged
 * as added unless the base has them. Pure.
 */
export function judgeCatalog(
  split: CatalogSplit,
  telemetry: ReviewMeasurements | null,
  policy: Policy,
  more: { workloads: readonly Workload[]; baseNames: ReadonlySet<string> } = { workloads: [], baseNames: new Set() },
): JudgedCatalog {
  const filled: SplitEntry[] = more.workloads.map((w) =>
    more.baseNames.has(w.name) ? { kind: 'kept', head: w } : { kind: 'added', head: w },
  );
  const all = [...split.entries, ...filled];
  const workloads: Workload[] = [];
  const raised: RaisedDemand[] = [];
  const declaredInPr: string[] = [];
  const declared: DeclaredDemand[] = [];
  for (const e of all) {
    if (e.kind === 'kept') {
      workloads.push(e.head);
      continue;
    }
    // Pods another entry's selector may pick are that entry's demand: measured once, not twice.
    const measuredAs = e.kind === 'raised' ? e.base : e.head;
    const shared = all.find(
      (o) => o !== e && o.head.name !== e.head.name && overlaps(measuredAs.selector, (o.kind === 'raised' ? o.base : o.head).selector),
    );
    const support = telemetry && !shared ? supportOf(e, new Measured(telemetry), policy) : null;
    declared.push({
      workload: e.head.name,
      change: e.kind,
      gpus: gpusAtOnce(e.head),
      gpuHoursPerDay: dailyGpuHours(e.head),
      support,
      ...(shared ? { sharesSelectorWith: shared.head.name } : {}),
    });
    if (e.kind === 'raised') raised.push({ workload: e.head.name, fields: e.fields });
    else declaredInPr.push(e.head.name);
    if (support) workloads.push(counted(e.head, e.kind, policy));
    else if (e.kind === 'raised') workloads.push(e.base);
  }
  return { workloads, asWritten: [...split.entries, ...filled].map((e) => e.head), raised, declaredInPr, declared };
}

/** Whether two selectors may pick the same pods: both set, and no label they share differs. */
function overlaps(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === undefined || b === undefined || Object.keys(a).length === 0 || Object.keys(b).length === 0) return false;
  return Object.entries(a).every(([k, v]) => !(k in b) || b[k] === v);
}

/** A measured job's runs must reach what the entry declares, within this share. */
const MEASURED_TOLERANCE = 0.25;

/**
 * What measured a declared entry's demand, or null. A job: the GPUs its pods requested over the
 * window (through the selector of the base's entry for a raised one) reach, at their peak, the GPUs
 * one run declares, and a day's GPU-hours reach what its runs declare (runs × GPUs × runtime), within
 * the tolerance. A service: its replicas sized from its observed peak and a load test the base
 * branch holds; a raised one only when it raised nothing but its replicas, which sizing replaces.
 */
function supportOf(e: Exclude<SplitEntry, { kind: 'kept' }>, m: Measured, policy: Policy): DemandSupport | null {
  const w = e.head;
  if (w.type === 'inference') {
    if (e.kind === 'raised' && !e.fields.every((f) => /^(replicas|gpusPerReplica):/.test(f))) return null;
    const measured = e.kind === 'raised' ? (e.base as InferenceWorkload) : w;
    const sized = servingCapacity(measured, m, policy);
    return sized.gpusNeeded === null ? null : { by: 'load-test', gpusNeeded: sized.gpusNeeded, evidence: sized.evidence };
  }
  const a = m.peek(measureKey('gpu-requests', `workload:${w.name}`));
  if (a === undefined) return null;
  const line = timeline(a);
  const peak = maxOf(line);
  const days = runDays(w, m.telemetry.at, m.telemetry.windowMinutes);
  const declaredDaily = dailyGpuHours(w) ?? 0;
  if (peak === null || days <= 0) return null;
  const perDay = hoursOf(line, stepOf(a, line)) / days;
  const reaches = (measured: number, declared: number): boolean => measured >= declared * (1 - MEASURED_TOLERANCE);
  if (!reaches(peak, w.gpusPerJob) || !reaches(perDay, declaredDaily)) return null;
  return { by: 'telemetry', peakGpus: peak, gpuHoursPerDay: perDay, evidence: [a.evidence] };
}

/** A measured entry as it counts: a service added by the PR is sized with no more headroom than the policy's. */
function counted(w: Workload, change: 'added' | 'raised', policy: Policy): Workload {
  if (w.type !== 'inference' || change !== 'added' || w.headroom === undefined || w.headroom <= policy.headroom) return w;
  const { headroom: _dropped, ...rest } = w;
  return rest;
}

function gpusAtOnce(w: Workload): number {
  return w.type === 'inference' ? w.replicas * w.gpusPerReplica : w.gpusPerJob;
}

function dailyGpuHours(w: Workload): number | null {
  return w.type === 'inference' ? null : (w.jobsPerDay * w.gpusPerJob * w.runtime) / 60;
}

/** What the head's entry asks more of than the base's; empty when it asks no more. */
function grown(old: Workload, now: Workload): string[] {
  const out: string[] = [];
  const more = (field: string, a: number | undefined, b: number | undefined, show = String): void => {
    if (a !== undefined && b !== undefined && b > a) out.push(`${field}: ${show(a)} → ${show(b)}`);
  };
  // Moving an entry onto another queue or pool adds its demand there.
  if (old.queue !== now.queue) out.push(`queue: ${old.queue ?? 'none'} → ${now.queue ?? 'none'}`);
  if (old.pool !== now.pool) out.push(`pool: ${old.pool ?? 'none'} → ${now.pool ?? 'none'}`);
  // Another selector measures other pods: their use could be counted as this entry's.
  if (JSON.stringify(old.selector ?? {}) !== JSON.stringify(now.selector ?? {})) out.push('selector: changed');
  if (old.type !== now.type) {
    out.push(`type: ${old.type} → ${now.type}`);
    return out;
  }
  if (isJob(old) && isJob(now)) {
    more('gpusPerJob', old.gpusPerJob, now.gpusPerJob);
    more('jobsPerDay', old.jobsPerDay, now.jobsPerDay);
    more('runtime (minutes)', old.runtime, now.runtime);
    more('days', (old.days ?? ALL_DAYS).length, (now.days ?? ALL_DAYS).length);
    // As many days, but others: its runs may now meet other runs, as a moved window may.
    const [before, after] = [old.days ?? ALL_DAYS, now.days ?? ALL_DAYS];
    if (after.length <= before.length && after.some((d) => !before.includes(d))) out.push('days: moved');
    const [was, is] = [windowMinutes(old), windowMinutes(now)];
    if (is < was) out.push(`window: ${was} → ${is} minutes`);
    else if (old.window.earliestStart !== now.window.earliestStart || old.window.deadline !== now.window.deadline) {
      // A window as wide but moved can collide with other runs: not "no more".
      out.push('window: moved');
    }
    if (old.interruptible && !now.interruptible) out.push('interruptible: true → false');
  } else if (!isJob(old) && !isJob(now)) {
    const inference = (w: Workload): InferenceWorkload => w as InferenceWorkload;
    const [a, b] = [inference(old), inference(now)];
    more('replicas', a.replicas, b.replicas);
    more('gpusPerReplica', a.gpusPerReplica, b.gpusPerReplica);
    more('headroom', a.headroom ?? 0, b.headroom ?? 0);
    const tighter = (field: string, x: number | undefined, y: number | undefined): void => {
      if (y !== undefined && (x === undefined || y < x)) out.push(`${field}: ${x ?? 'none'} → ${y}`);
    };
    tighter('slo.p95LatencyMs', a.slo?.p95LatencyMs, b.slo?.p95LatencyMs);
    tighter('slo.ttftP95Ms', a.slo?.ttftP95Ms, b.slo?.ttftP95Ms);
    tighter('slo.errorRate', a.slo?.errorRate, b.slo?.errorRate);
    // A different load test measures another replica: what it says is the PR's to prove.
    if (a.loadTest !== b.loadTest) out.push(`loadTest: ${a.loadTest ?? 'none'} → ${b.loadTest ?? 'none'}`);
  }
  // A field no rule above weighs may still grow demand: changed is not "no more".
  for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
    if (WEIGHED.has(key)) continue;
    const [was, is] = [(old as unknown as Record<string, unknown>)[key], (now as unknown as Record<string, unknown>)[key]];
    if (JSON.stringify(was) !== JSON.stringify(is)) out.push(`${key}: changed`);
  }
  return out;
}

/**
 * The fields `grown` weighs, and those that never size demand (where it was written, what a review
 * filled, outcome queries taken from the base, what alternatives cost). Any other is compared whole.
 */
const WEIGHED = new Set([
  ...['name', 'type', 'queue', 'pool', 'selector', 'source', 'filled', 'outcomes'],
  ...['gpusPerJob', 'jobsPerDay', 'runtime', 'days', 'window', 'interruptible'],
  ...['replicas', 'gpusPerReplica', 'headroom', 'slo', 'loadTest', 'model', 'quality', 'qualityThreshold', 'alternatives'],
]);

const ALL_DAYS: readonly string[] = WEEKDAYS;

function isJob(w: Workload): w is JobWorkload {
  return w.type === 'batch' || w.type === 'training';
}

/** Minutes from the earliest start to the deadline, the next day when it is not later. */
function windowMinutes(w: JobWorkload): number {
  const span = w.window.deadline - w.window.earliestStart;
  return span > 0 ? span : span + 24 * 60;
}
