import type { DraftEntry, JobRun, ObservedForDraft, ObservedGpuJobs, ObservedWorkload } from '../domain/index.js';
import { earliestStart, runsOf, runsPerDay, runtimeStats } from './job-runs.js';

function observed(namespace: string, name: string, kind: 'CronJob' | 'Job', runs: readonly JobRun[], jobs: ObservedGpuJobs, days: number) {
  const gpus = runs.flatMap((r) => jobs.gpus.filter((g) => g.namespace === r.namespace && g.job === r.job).map((g) => g.gpus));
  return {
    namespace,
    name,
    kind,
    runs: runs.length,
    runtime: runtimeStats(runs),
    earliestStartUtc: earliestStart(runs),
    runsPerDay: runsPerDay(runs, days),
    // Whole GPUs: a request is a count, and the catalog takes no fraction of one.
    gpusPerRun: gpus.length === 0 ? null : Math.ceil(Math.max(...gpus)),
  } satisfies ObservedWorkload;
}

/**
 * What telemetry saw of a draft's workloads: each declared CronJob or Job matched to its runs as a
 * review matches them (by owner, or by the Job's own name, in its namespace), and every GPU
 * workload whose runs no declared one claims: a CronJob's runs as one, a Job of no CronJob alone.
 * Each run counts for one workload. Pure.
 */
export function observedForDraft(entries: readonly DraftEntry[], jobs: ObservedGpuJobs, windowDays: number): ObservedForDraft {
  const declared = new Map<string, ObservedWorkload>();
  const claimed = new Set<JobRun>();
  for (const e of entries) {
    const w = e.workload;
    const mine = runsOf(w, jobs.runs.runs).filter((r) => !claimed.has(r));
    if (mine.length === 0) continue;
    for (const r of mine) claimed.add(r);
    const kind = w.kind === 'CronJob' ? 'CronJob' : 'Job';
    declared.set(e.name, observed(w.namespace ?? mine[0]?.namespace ?? '', w.name, kind, mine, jobs, windowDays));
  }
  const groups = new Map<string, { namespace: string; name: string; kind: 'CronJob' | 'Job'; runs: JobRun[] }>();
  for (const r of jobs.runs.runs) {
    if (claimed.has(r)) continue;
    const [name, kind] = r.cronJob === null ? [r.job, 'Job' as const] : [r.cronJob, 'CronJob' as const];
    const key = `${r.namespace}\u0000${kind}\u0000${name}`;
    const g = groups.get(key) ?? { namespace: r.namespace, name, kind, runs: [] };
    g.runs.push(r);
    groups.set(key, g);
  }
  const undeclared = [...groups.values()]
    .map((g) => observed(g.namespace, g.name, g.kind, g.runs, jobs, windowDays))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return { declared, undeclared };
}
