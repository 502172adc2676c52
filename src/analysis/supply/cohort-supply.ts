import type { CapacityChange, CohortQueue, Evidence, MissingItem, TakenMeasurement } from '../../domain/index.js';
import { KUEUE_UNLIMITED_AT, measureKey } from '../../domain/index.js';
import type { Measured } from '../measured.js';
import { minOf, timelinesBy, type Timeline } from '../series.js';
import { DAY_SLOTS, flatDay, leastByDaySlot, type DayProfile } from './day-profile.js';

/** Where a lender's lendingLimit was read. */
type LimitSource = 'file' | 'metric' | 'file-and-metric' | 'unknown';

/** One ClusterQueue of the cohort that may lend, as the review sees it. */
interface Lender {
  queue: string;
  nominal: number;
  /** Its lendingLimit; null when unset (it lends all its unused quota); 0 when nothing tells it (`limitFrom: unknown`). */
  lendingLimit: number | null;
  limitFrom: LimitSource;
  /** GPUs it leaves free to lend at each slot of the day, the least over the window's days (negative while it borrows itself). */
  free: DayProfile;
}

/** What a cohort can lend at each hour of the day, and who lends it. */
export interface CohortSupply {
  cohort: string;
  /** GPUs the cohort's lenders leave free together at each slot, the least over the window's days. */
  free: DayProfile;
  lenders: Lender[];
  evidence: Evidence[];
}

/** A limit as a number, or null when unset; Kueue reports an unset one as +Inf from v0.19 (clamped to KUEUE_UNLIMITED_AT). */
const limitOf = (v: number | null): number | null => (v === null || v >= KUEUE_UNLIMITED_AT ? null : v);

export interface SupplyRequest {
  cohort: string;
  /** The queue whose cohort measurements are read (any of the PR's queues in the cohort). */
  via: string;
  /** Queues the PR grows in this cohort: they borrow, so they lend nothing. */
  borrowers: ReadonlySet<string>;
  /** The PR's other changes, so a queue it shrinks lends no more than it keeps. */
  changes: readonly CapacityChange[];
  /** The cohort queues the PR's files declare. */
  files: readonly CohortQueue[];
}

/**
 * What the cohort can lend at each slot of the day, as Kueue computes it for a queue in a flat
 * cohort: each lender keeps `nominal − lendingLimit` for itself and lends at most its
 * lendingLimit, less whatever it uses beyond what it keeps — `min(lendingLimit, nominal − usage)`
 * at each time, negative while it borrows itself; the cohort lends the sum, never below 0. The
 * least over the window's days at each slot is what can be counted on at that hour.
 *
 * A lender's lendingLimit comes from the PR's files (base side) and from
 * `kueue_cluster_queue_lending_limit`, the lower where both say. Before Kueue v0.19 that metric
 * reads 0 for an unset limit: a 0 no file confirms, from a Kueue that reports no unset limit as
 * +Inf, is taken as 0 and named as missing evidence. A lender whose limit nothing tells lends
 * nothing counted. Null when the cohort's quota and usage were not measured.
 */
export function cohortSupply(req: SupplyRequest, m: Measured): CohortSupply | null {
  const scope = `queue:${req.via}` as const;
  const nominalAnswer = m.answer(measureKey('cohort-nominal-quota', scope));
  const usageAnswer = m.answer(measureKey('cohort-usage', scope));
  if (nominalAnswer === undefined || usageAnswer === undefined) return null;
  const lendingAnswer = m.peek(measureKey('cohort-lending-limit', scope));
  const nominal = timelinesBy(nominalAnswer, 'cluster_queue');
  const usage = timelinesBy(usageAnswer, 'cluster_queue');
  const lending = lendingAnswer ? timelinesBy(lendingAnswer, 'cluster_queue') : null;
  const infSeen = reportsUnsetAsInf(m, req.via);
  const lenderNames = [...nominal.keys()].filter((q) => !req.borrowers.has(q)).sort();
  if (lenderNames.length === 0) return null;

  const ambiguous: string[] = [];
  const unknown: string[] = [];
  const lenders: Lender[] = [];
  const evidence: Evidence[] = [nominalAnswer.evidence, usageAnswer.evidence];
  if (lendingAnswer) evidence.push(lendingAnswer.evidence);
  const fileEvidence: Evidence[] = [];
  const perTime = new Map<number, number>();
  const complete = new Map<number, number>();
  for (const q of lenderNames) {
    const shrunk = req.changes.find((c) => c.kind === 'kueue-cluster-queue' && c.name === q && c.delta < 0);
    const quota = Math.min(minOf(nominal.get(q) ?? new Map<number, number>()) ?? 0, shrunk ? shrunk.gpusAfter : Infinity);
    const file = req.files.find((f) => f.queue === q && f.cohort === req.cohort);
    const metricLine = lending?.get(q);
    const metric = metricLine === undefined ? undefined : minOf(metricLine);
    let limit: number | null;
    let from: LimitSource;
    if (file !== undefined) {
      fileEvidence.push({ source: 'infra', ref: file.at });
      const fromFile = file.lendingLimit ?? null;
      // An unset limit in the file and a metric of 0 from an older Kueue agree: both mean unset.
      const fromMetric =
        metric === undefined || metric === null || (metric === 0 && !infSeen && fromFile === null) ? null : limitOf(metric);
      limit = fromFile === null ? fromMetric : fromMetric === null ? fromFile : Math.min(fromFile, fromMetric);
      from = metric === undefined || metric === null ? 'file' : 'file-and-metric';
    } else if (metric !== undefined && metric !== null) {
      limit = limitOf(metric);
      from = 'metric';
      if (metric === 0 && !infSeen) ambiguous.push(q);
    } else {
      // Nothing tells what it lends: it lends nothing counted, and what it borrows still counts.
      unknown.push(q);
      limit = 0;
      from = 'unknown';
    }
    const lendable = limit === null ? quota : Math.min(quota, limit);
    const kept = quota - lendable;
    const used = usage.get(q) ?? new Map<number, number>();
    const freeLine: Timeline = new Map();
    for (const [t, u] of used) {
      const free = lendable - Math.max(0, u - kept);
      freeLine.set(t, free);
      perTime.set(t, (perTime.get(t) ?? 0) + free);
      complete.set(t, (complete.get(t) ?? 0) + 1);
    }
    lenders.push({ queue: q, nominal: quota, lendingLimit: limit, limitFrom: from, free: filled(leastByDaySlot(freeLine)) });
  }
  if (ambiguous.length > 0) m.lack({ code: 'lending-limit-ambiguous', cohort: req.cohort, queues: ambiguous } satisfies MissingItem);
  if (unknown.length > 0) m.lack({ code: 'lending-limit-unknown', cohort: req.cohort, queues: unknown } satisfies MissingItem);
  if (lenders.length === 0) return null;
  // Times where some lender's usage is not reported are left out rather than read as zero.
  const total: Timeline = new Map();
  for (const [t, v] of perTime) if (complete.get(t) === lenders.length) total.set(t, Math.max(0, v));
  if (total.size === 0) return null;
  return { cohort: req.cohort, free: filled(leastByDaySlot(total)), lenders, evidence: [...evidence, ...uniqueRefs(fileEvidence)] };
}

/** A day profile with unknown slots read as nothing free. */
function filled(p: readonly (number | null)[]): number[] {
  const out = flatDay(0);
  for (let s = 0; s < DAY_SLOTS; s++) out[s] = Math.floor((p[s] ?? 0) + 1e-9);
  return out;
}

function uniqueRefs(e: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return e.filter((x) => !seen.has(x.ref) && (seen.add(x.ref), true));
}

/** Kueue v0.19 on reports an unset limit as +Inf: any such series of the cohort shows its zeros are real. */
function reportsUnsetAsInf(m: Measured, via: string): boolean {
  const answers = [
    m.peek(measureKey('cohort-lending-limit', `queue:${via}`)),
    m.peek(measureKey('cohort-borrowing-limit', `queue:${via}`)),
  ];
  return answers.some((a) => (a?.series ?? []).some((s) => s.samples.some((p) => p.v >= KUEUE_UNLIMITED_AT)));
}

/**
 * The borrower's borrowingLimit: its declaration at base (head for a new queue), so a PR cannot
 * lower it to make its request look needed, and `kueue_cluster_queue_borrowing_limit`, the lower
 * where both say; null when unset. A metric of 0 from a Kueue older than v0.19 may mean unset.
 */
export function borrowingLimitOf(change: CapacityChange, m: Measured): number | null {
  const decl = change.before ?? change.after;
  const fromFile = decl?.borrowingLimit ?? null;
  const a: TakenMeasurement | undefined = m.peek(measureKey('cohort-borrowing-limit', `queue:${change.name}`));
  const line = a ? timelinesBy(a, 'cluster_queue').get(change.name) : undefined;
  const metric = line === undefined ? null : minOf(line);
  const fromMetric = metric === null || (metric === 0 && !reportsUnsetAsInf(m, change.name)) ? null : limitOf(metric);
  if (fromFile === null) return fromMetric;
  return fromMetric === null ? fromFile : Math.min(fromFile, fromMetric);
}
