import type { JobRun } from '../domain/index.js';
import { itemAt } from '../util/indexed.js';

const DAY_SECONDS = 86_400;

/**
 * Runs a CronJob or a Job made: by owner name, or by the Job's own name. A kind of null (a catalog
 * entry no manifest declares) takes the CronJob's runs when there are any, else the Job's.
 */
export function runsOf(w: { name: string; namespace: string | null; kind: string | null }, runs: readonly JobRun[]): JobRun[] {
  const sameNamespace = (r: JobRun) => w.namespace === null || r.namespace === w.namespace;
  const owned = runs.filter((r) => r.cronJob === w.name && sameNamespace(r));
  const alone = runs.filter((r) => r.cronJob === null && r.job === w.name && sameNamespace(r));
  if (w.kind === 'CronJob') return owned;
  if (w.kind === 'Job') return alone;
  return w.kind === null ? (owned.length > 0 ? owned : alone) : [];
}

/** Minutes each completed run took. */
function completedMinutes(runs: readonly JobRun[]): number[] {
  return runs.flatMap((r) => (r.completedAt === null ? [] : [(r.completedAt - r.startedAt) / 60]));
}

/** The longest completed run, minutes: the deadline a plan must meet is met by every run, not the average one. */
export function longestMinutes(runs: readonly JobRun[]): number | null {
  const done = completedMinutes(runs);
  return done.length === 0 ? null : Math.ceil(Math.max(...done));
}

/** Median, 90th percentile (nearest rank) and longest of the completed runs, whole minutes up; null when none completed. */
export function runtimeStats(runs: readonly JobRun[]): { completed: number; median: number; p90: number; longest: number } | null {
  const done = completedMinutes(runs).sort((a, b) => a - b);
  if (done.length === 0) return null;
  const at = (i: number) => itemAt(done, i, 'ranks-of-completed-runs-not-empty');
  const rank = (p: number) => Math.ceil(at(Math.max(0, Math.ceil(p * done.length) - 1)));
  return { completed: done.length, median: rank(0.5), p90: rank(0.9), longest: Math.ceil(at(done.length - 1)) };
}

/** Earliest time of day (UTC) a run started, minutes, on the whole minute. */
export function earliestStart(runs: readonly JobRun[]): number | null {
  if (runs.length === 0) return null;
  return Math.min(...runs.map((r) => Math.floor((((r.startedAt % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS) / 60)));
}

/** Runs a day over the days the runs span, rounded: a daily CronJob seen twice in two days runs once a day. */
export function runsPerDay(runs: readonly JobRun[], windowDays: number): number | null {
  if (runs.length === 0 || windowDays <= 0) return null;
  return Math.max(1, Math.round(runs.length / Math.max(1, Math.round(windowDays))));
}
