import type { CapacityChange, Evidence, Finding, IdlePod, StaggerPlan, UtilisationLadder, Workload } from '../domain/index.js';
import { measureKey } from '../domain/index.js';
import { HELD_MOST, unmatchable } from './idle-pods.js';
import type { Measured } from './measured.js';
import { migRequestedLine } from './mig.js';
import { maxOf, timeline } from './series.js';

/** A linked workload whose allocation sat idle over the window, and the GPUs it holds when it runs. */
export interface IdleHolder {
  workload: Workload;
  ladder: UtilisationLadder;
  /** Most GPUs its pods requested at once. */
  heldGpus: number;
  evidence: Evidence[];
}

/**
 * The linked workloads flagged idle by their ladder (busy under the policy's `idleBelow`): their
 * GPUs are the ones the need is made of, so reclaiming them lowers that need. Idle pods outside
 * the catalog are found per pod (idle-pods.ts).
 */
export function idleHolders(linked: readonly Workload[], ladders: readonly UtilisationLadder[], m: Measured): IdleHolder[] {
  const out: IdleHolder[] = [];
  for (const w of linked) {
    const ladder = ladders.find((l) => l.scope === 'workload' && l.name === w.name);
    if (ladder === undefined || !ladder.flags.some((f) => f.kind === 'idle')) continue;
    const a = m.peek(measureKey('gpu-requests', `workload:${w.name}`));
    // MIG devices count as their share of a GPU, never rounded up to a whole one.
    const mig = migRequestedLine(m, w.name, a);
    if (mig !== null) {
      const held = maxOf(mig.line);
      if (held !== null && held > 0)
        out.push({ workload: w, ladder, heldGpus: held, evidence: [...ladder.evidence, ...(a ? [a.evidence] : [])] });
      continue;
    }
    const held = a === undefined ? null : maxOf(timeline(a));
    if (a === undefined || held === null || held <= 0) continue;
    out.push({ workload: w, ladder, heldGpus: Math.round(held), evidence: [...ladder.evidence, a.evidence] });
  }
  return out;
}

/**
 * GPUs reclaiming an idle service gives back: what its pods held beyond the one replica it keeps
 * to answer. Measured, not declared: a service declaring 4 replicas whose pods held 1 GPU frees
 * nothing by being shrunk to one.
 */
export function serviceGpusFreed(h: IdleHolder): number {
  return h.workload.type === 'inference' ? Math.max(0, h.heldGpus - h.workload.gpusPerReplica) : 0;
}

export interface ReclaimInput {
  plan: StaggerPlan;
  /** The staggered plan without the idle jobs; null when no job is idle. */
  planWithoutIdle: StaggerPlan | null;
  idle: readonly IdleHolder[];
  idlePods: readonly IdlePod[];
  /** Every catalog workload, to say when some cannot be told apart from the pods listed. */
  catalog: readonly Workload[];
}

/** What an idle service's entry declares when its pods held otherwise; null for jobs and when the same. */
function declaredWhenDiffers(h: IdleHolder): number | null {
  const w = h.workload;
  if (w.type !== 'inference') return null;
  const declared = w.replicas * w.gpusPerReplica;
  return declared === h.heldGpus ? null : declared;
}

/** Pods named in the finding's sentence; the report's table lists the rest. */
const NAMED_PODS = 3;

/**
 * The reclaim lever: idle catalog workloads (their GPUs lower the need) and idle pods outside the
 * catalog (their GPUs are already among the pool's, so they never lower the need; the verdict
 * relies on them when the need fits the GPUs there but not without theirs). The two sets are
 * disjoint: a pod a catalog workload's selector names is never listed as outside it. `alone`
 * tells whether reclaiming alone meets the need with the GPUs there; `met` whether the verdict does.
 */
export function reclaimFinding(change: CapacityChange, r: ReclaimInput, alone: boolean, met: boolean, need: number): Finding | null {
  if (r.idle.length === 0 && r.idlePods.length === 0) return null;
  const jobsFreed = r.planWithoutIdle ? Math.max(0, r.plan.peakGpus - r.planWithoutIdle.peakGpus) : 0;
  const servicesFreed = r.idle.reduce((s, h) => s + serviceGpusFreed(h), 0);
  const podGpus = r.idlePods.reduce((s, p) => s + p.gpus, 0);
  const relies = met && podGpus > 0 && need > change.gpusBefore - podGpus;
  const gpusFreed = jobsFreed + servicesFreed + podGpus;
  // The idle pods rest on one query and window (two with MIG instances): cite each once.
  const podQuery = uniqueEvidence(r.idlePods.flatMap((p) => p.evidence));
  return {
    lever: 'reclaim-idle',
    gpusFreed,
    meetsNeed: gpusFreed > 0 && alone,
    detail: {
      code: 'reclaim-idle',
      target: change.name,
      gpusBefore: change.gpusBefore,
      idle: r.idle.map((h) => ({
        workload: h.workload.name,
        heldGpus: h.heldGpus,
        declaredGpus: declaredWhenDiffers(h),
        busyFraction: h.ladder.busyFraction ?? 0,
      })),
      pods: r.idlePods.slice(0, NAMED_PODS).map((p) => ({
        namespace: p.namespace,
        pod: p.pod,
        gpus: p.gpus,
        ...(p.slices === undefined ? {} : { slices: p.slices }),
        busyFraction: p.busyFraction,
      })),
      podCount: r.idlePods.length,
      podGpus,
      relies,
      unmatchable: unmatchable(r.catalog).map((w) => w.name),
      heldMost: HELD_MOST,
      gpusFreed,
      need,
    },
    evidence: [...r.idle.flatMap((h) => h.evidence), ...podQuery],
    confidence: 'high',
  };
}

function uniqueEvidence(all: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return all.filter((e) => {
    const key = `${e.source}|${e.ref}|${e.window ?? ''}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}
