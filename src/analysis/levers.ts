import type {
  CapacityChange,
  Evidence,
  Finding,
  IdlePod,
  InferenceWorkload,
  JobWorkload,
  OutcomeCost,
  Policy,
  RuntimeCheck,
  ServingCapacity,
  StaggerPlan,
  UtilisationLadder,
  Workload,
} from '../domain/index.js';
import { borrowableQuota, type Borrowable } from './borrow.js';
import { cheaperDetail, cheaperModels, type CheaperOption } from './cheaper-model.js';
import type { DemandTerm, SupplyLever, TermOption } from './combine.js';
import { capacityLadder, workloadLadder } from './ladder.js';
import type { Measured } from './measured.js';
import { idlePods } from './idle-pods.js';
import { idleHolders, reclaimFinding, serviceGpusFreed, type IdleHolder } from './reclaim.js';
import { observedRuntime, plannedRuntimes } from './runtime-check.js';
import { servingCapacity, servingSize } from './serving.js';
import { jobsFromWorkloads, type ExpandProblem } from './stagger/expand.js';
import { planStagger } from './stagger/plan.js';

/** Everything the levers found for one change; the telemetry parts are empty without telemetry. */
export interface LeverResults {
  plan: StaggerPlan;
  problems: ExpandProblem[];
  ladders: UtilisationLadder[];
  runtimes: RuntimeCheck[];
  serving: ServingCapacity[];
  costs: OutcomeCost[];
  cheaper: Map<string, CheaperOption>;
  idle: IdleHolder[];
  /** Idle pods of the changed pool that no catalog workload names. */
  idlePods: IdlePod[];
  /** Every catalog workload, linked or not. */
  catalog: Workload[];
  /** The staggered plan without the idle jobs; null when no job is idle. */
  planWithoutIdle: StaggerPlan | null;
  borrow: Borrowable | null;
}

/**
 * Runs every lever over the linked workloads: the stagger planner always, the rest on telemetry.
 * `catalog` (every workload, linked or not) keeps documented pods out of the idle pods.
 */
export function runLevers(
  change: CapacityChange,
  linked: Workload[],
  policy: Policy,
  m: Measured | null,
  catalog: Workload[] = linked,
): LeverResults {
  const jobs = linked.filter((w): w is JobWorkload => w.type === 'batch' || w.type === 'training');
  const services = linked.filter((w): w is InferenceWorkload => w.type === 'inference');
  const workloadLadders = m ? linked.flatMap((w) => workloadLadder(w, m, policy) ?? []) : [];
  const scopeLadder = m ? capacityLadder(change, m, workloadLadders, linked.length, policy) : null;
  const ladders = [...(scopeLadder ? [scopeLadder] : []), ...workloadLadders];
  const runtimes = m ? jobs.flatMap((w) => observedRuntime(w, m) ?? []) : [];
  const planned = plannedRuntimes(jobs, runtimes);
  const expanded = jobsFromWorkloads(planned);
  const plan = planStagger(expanded.jobs, { cycle: expanded.cycle });

  const idle = m ? idleHolders(linked, workloadLadders, m) : [];
  const pods = m ? idlePods(change, catalog, m, policy) : [];
  const idleJobs = new Set(idle.filter((h) => h.workload.type !== 'inference').map((h) => h.workload.name));
  // On the full plan's cycle, so that the two peaks compare like with like.
  const withoutIdle =
    idleJobs.size > 0
      ? jobsFromWorkloads(
          planned.filter((w) => !idleJobs.has(w.name)),
          expanded.cycle,
        )
      : null;
  const planWithoutIdle = withoutIdle ? planStagger(withoutIdle.jobs, { cycle: withoutIdle.cycle }) : null;

  const serving = m ? services.map((s) => servingCapacity(s, m, policy)) : [];
  const costs: OutcomeCost[] = [];
  const cheaper = new Map<string, CheaperOption>();
  if (m) {
    for (const s of services) {
      const peak = serving.find((x) => x.workload === s.name)?.peakRate ?? null;
      const r = cheaperModels(s, change, peak, m, policy);
      costs.push(...r.costs);
      if (r.best) cheaper.set(s.name, r.best);
    }
  }
  const borrow = m ? borrowableQuota(change, m) : null;
  return {
    plan,
    problems: expanded.problems,
    ladders,
    runtimes,
    serving,
    costs,
    cheaper,
    idle,
    idlePods: pods,
    catalog,
    planWithoutIdle,
    borrow,
  };
}

/** The need as parts levers act on: the jobs' peak, then each service. */
export function demandTerms(services: InferenceWorkload[], r: LeverResults): DemandTerm[] {
  const naive = { lever: null, gpus: r.plan.naivePeakGpus, headroomIncluded: false };
  const jobs: DemandTerm = {
    label: 'jobs',
    baseline: naive,
    options: [
      naive,
      { lever: 'stagger', gpus: r.plan.peakGpus, headroomIncluded: false },
      ...(r.planWithoutIdle ? [{ lever: 'reclaim-idle' as const, gpus: r.planWithoutIdle.peakGpus, headroomIncluded: false }] : []),
    ],
  };
  const perService = services.map((s): DemandTerm => {
    const declared: TermOption = { lever: null, gpus: s.replicas * s.gpusPerReplica, headroomIncluded: false };
    const sized = r.serving.find((x) => x.workload === s.name)?.gpusNeeded ?? null;
    const alt = r.cheaper.get(s.name);
    const idle = r.idle.find((h) => h.workload.name === s.name);
    // Measured, the service needs what its peak and load test say, more or less than declared.
    // When it fits in what is declared while requests queue behind a batch or memory limit, the
    // configuration change is what lets today's GPUs serve the peak: that is the lever.
    const limited = r.serving.find((x) => x.workload === s.name)?.limit ?? null;
    const base: TermOption =
      sized === null
        ? declared
        : {
            lever: sized < declared.gpus || (limited !== null && sized <= declared.gpus) ? 'batching' : null,
            gpus: sized,
            headroomIncluded: true,
          };
    return {
      label: s.name,
      baseline: declared,
      options: [
        base,
        ...(alt && alt.sameType && alt.cost.gpus !== null
          ? [{ lever: 'cheaper-model' as const, gpus: alt.cost.gpus, headroomIncluded: true }]
          : []),
        // An idle service keeps one replica: reclaiming the rest leaves it able to answer. It
        // lowers the need by what its pods held beyond that replica, never by declared replicas
        // that were not running: a lever that frees nothing must not be what meets the need.
        ...(idle && sized === null
          ? [
              {
                lever: 'reclaim-idle' as const,
                gpus: Math.max(s.gpusPerReplica, declared.gpus - serviceGpusFreed(idle)),
                headroomIncluded: false,
              },
            ]
          : []),
      ],
    };
  });
  return [jobs, ...perService];
}

export function supplyLevers(r: LeverResults): SupplyLever[] {
  return r.borrow && r.borrow.gpus > 0 ? [{ lever: 'borrow-quota', gpus: r.borrow.gpus }] : [];
}

/** Findings of the measured levers; `credited` levers are the ones the verdict rests on, `need` the need they leave. */
export function measuredFindings(
  change: CapacityChange,
  r: LeverResults,
  credited: ReadonlySet<string>,
  met: boolean,
  need: number,
): Finding[] {
  const out: Finding[] = [];
  const meets = (lever: string) => met && credited.has(lever);
  for (const s of r.serving) {
    if (s.gpusNeeded === null && s.limit === null) continue;
    out.push({
      lever: 'batching',
      gpusFreed: s.gpusNeeded === null ? 0 : Math.max(0, s.declaredGpus - s.gpusNeeded),
      meetsNeed: meets('batching'),
      detail: { code: 'serving-size', serving: servingSize(s) },
      evidence: s.evidence,
      confidence: s.gpusNeeded === null ? 'low' : 'high',
    });
  }
  for (const [name, best] of r.cheaper) {
    const current = r.costs.find((c) => c.workload === name && c.option === 'current');
    out.push({
      lever: 'cheaper-model',
      gpusFreed: best.gpusFreed,
      meetsNeed: meets('cheaper-model') && best.sameType,
      detail: cheaperDetail(name, current, best),
      evidence: [...(current?.evidence ?? []), ...best.cost.evidence],
      // Its outcomes are projected from its evaluated quality, not measured in production.
      confidence: 'medium',
    });
  }
  const reclaim = reclaimFinding(change, r, credited, met, need);
  if (reclaim) out.push(reclaim);
  if (r.borrow && r.borrow.gpus > 0) out.push(borrowFinding(change, r.borrow, meets('borrow-quota')));
  return out;
}

/** The borrow lever: quota the cohort's other queues left unused, and what the queue must say to use it. */
export function borrowFinding(change: CapacityChange, borrow: Borrowable, meetsNeed: boolean): Finding {
  return {
    lever: 'borrow-quota',
    gpusFreed: borrow.gpus,
    meetsNeed,
    detail: {
      code: 'borrow-quota',
      queue: change.name,
      cohort: borrow.cohort,
      gpus: borrow.gpus,
      lenders: borrow.lenders.filter((l) => l.unused > 0).map((l) => ({ queue: l.queue, unused: l.unused })),
      ...(change.after?.borrowingLimit === undefined ? {} : { borrowingLimit: change.after.borrowingLimit }),
    },
    evidence: borrow.evidence,
    confidence: 'medium',
  };
}

/** Evidence lines of every measurement the change rests on, deduplicated. */
export function measuredEvidence(r: LeverResults): Evidence[] {
  const all = [
    ...r.ladders.flatMap((l) => l.evidence),
    ...r.runtimes.flatMap((c) => c.evidence),
    ...r.serving.flatMap((s) => s.evidence),
    ...r.costs.flatMap((c) => c.evidence),
    ...(r.borrow?.evidence ?? []),
    ...r.idlePods.flatMap((p) => p.evidence),
  ];
  const seen = new Set<string>();
  return all.filter((e) => {
    const key = `${e.source}|${e.ref}|${e.window ?? ''}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}
