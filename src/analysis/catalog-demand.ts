import type { InferenceWorkload, JobWorkload, RaisedDemand, Workload } from '../domain/index.js';

/** The catalog a review judges by, when the PR's head changes it. */
export interface JudgedCatalog {
  workloads: Workload[];
  raised: RaisedDemand[];
  declaredInPr: string[];
}

/**
 * A PR cannot raise the demand it is judged by: an entry the base branch already has is taken as
 * the head has it only when the head asks for no more in any way (fewer or equal runs, GPUs, time,
 * a window as wide, the same queue or pool); otherwise the base's entry is judged, and what grew is
 * named. Entries only the head has count (the PR declares them), named too. Pure.
 */
export function judgedCatalog(base: readonly Workload[], head: readonly Workload[]): JudgedCatalog {
  const before = new Map(base.map((w) => [w.name, w]));
  const raised: RaisedDemand[] = [];
  const declaredInPr: string[] = [];
  const workloads = head.map((entry): Workload => {
    const old = before.get(entry.name);
    if (!old) {
      declaredInPr.push(entry.name);
      return entry;
    }
    const fields = grown(old, entry);
    if (fields.length === 0) return entry;
    raised.push({ workload: entry.name, fields });
    return old;
  });
  return { workloads, raised, declaredInPr };
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
  return out;
}

const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

function isJob(w: Workload): w is JobWorkload {
  return w.type === 'batch' || w.type === 'training';
}

/** Minutes from the earliest start to the deadline, the next day when it is not later. */
function windowMinutes(w: JobWorkload): number {
  const span = w.window.deadline - w.window.earliestStart;
  return span > 0 ? span : span + 24 * 60;
}
