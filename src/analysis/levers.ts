import type {
  CapacityChange,
  Evidence,
  Finding,
  IdlePod,
  InferenceWorkload,
  JobWorkload,
  Lever,
  OutcomeCost,
  Policy,
  RuntimeCheck,
  ServingCapacity,
  StaggerPlan,
  UtilisationLadder,
  Workload,
} from '../domain/index.js';
import { cheaperDetail, cheaperModels, type CheaperOption } from './cheaper-model.js';
import type { DemandTerm, TermOption } from './combine.js';
import { capacityLadder, workloadLadder } from './ladder.js';
import type { Measured } from './measured.js';
import { idlePods } from './idle-pods.js';
import { idleHolders, reclaimFinding, serviceGpusFreed, type IdleHolder } from './reclaim.js';
import { observedRuntime, plannedRuntimes } from './runtime-check.js';
import { servingCapacity, servingSize } from './serving.js';
import { sliceReplicas, type Slices } from './slices.js';
import { jobsFromWorkloads, type ExpandProblem } from './stagger/expand.js';
import { planStagger } from './stagger/plan.js';
import { planDay } from './supply/day-profile.js';
import type { BorrowShare } from './supply/share.js';

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
  /** Services whose replicas could share GPUs (MIG or time-slicing), by name. */
  slices: Map<string, Slices>;
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
  const slices = new Map<string, Slices>();
  for (const s of m ? services : []) {
    const found = sliceReplicas(s, m as Measured, policy);
    if (found) slices.set(s.name, found);
  }
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
    slices,
  };
}

/** The runs as they start today: every run as its window opens, one piece each. */
function naiveSchedule(plan: StaggerPlan): StaggerPlan['schedule'] {
  return plan.schedule.map((run) => {
    const length = run.pieces.reduce((s, p) => s + p.end - p.start, 0);
    return run.release === undefined ? run : { ...run, pieces: [{ start: run.release, end: run.release + length }] };
  });
}

/**
 * The need as parts levers act on: the jobs' peak, then each service. Jobs carry the policy's
 * headroom; a service declared in the catalog its own `headroom` where it gives one (0 included),
 * the policy's otherwise; a service sized at its observed peak already includes it.
 */
export function demandTerms(services: InferenceWorkload[], r: LeverResults, policy: Pick<Policy, 'headroom'>): DemandTerm[] {
  const h = policy.headroom;
  const cycle = r.plan.cycle;
  const naive: TermOption = { lever: null, gpus: r.plan.naivePeakGpus, headroom: h, profile: planDay(naiveSchedule(r.plan), cycle) };
  const jobs: DemandTerm = {
    label: 'jobs',
    baseline: naive,
    options: [
      naive,
      { lever: 'stagger', gpus: r.plan.peakGpus, headroom: h, profile: planDay(r.plan.schedule, cycle) },
      // Reclaiming the idle jobs, their runs as they start today or staggered (both levers then).
      ...(r.planWithoutIdle
        ? [
            {
              lever: 'reclaim-idle' as const,
              gpus: r.planWithoutIdle.naivePeakGpus,
              headroom: h,
              profile: planDay(naiveSchedule(r.planWithoutIdle), r.planWithoutIdle.cycle),
            },
            {
              lever: 'reclaim-idle' as const,
              also: ['stagger' as const],
              gpus: r.planWithoutIdle.peakGpus,
              headroom: h,
              profile: planDay(r.planWithoutIdle.schedule, r.planWithoutIdle.cycle),
            },
          ]
        : []),
    ],
  };
  const perService = services.map((s): DemandTerm => {
    const own = s.headroom ?? h;
    const declared: TermOption = { lever: null, gpus: s.replicas * s.gpusPerReplica, headroom: own };
    const sized = r.serving.find((x) => x.workload === s.name)?.gpusNeeded ?? null;
    const alt = r.cheaper.get(s.name);
    const idle = r.idle.find((h) => h.workload.name === s.name);
    const slice = r.slices.get(s.name);
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
            headroom: 0,
            sized: true,
          };
    return {
      label: s.name,
      baseline: declared,
      options: [
        base,
        ...(alt && alt.sameType && alt.cost.gpus !== null
          ? [{ lever: 'cheaper-model' as const, gpus: alt.cost.gpus, headroom: 0, sized: true }]
          : []),
        // Its replicas as declared, several to a GPU: the slices count the service's headroom already.
        ...(slice ? [{ lever: slice.detail.code, gpus: slice.detail.gpusSliced, headroom: 0, sized: true }] : []),
        // An idle service keeps one replica: reclaiming the rest leaves it able to answer. It
        // lowers the need by what its pods held beyond that replica, never by declared replicas
        // that were not running: a lever that frees nothing must not be what meets the need.
        ...(idle && sized === null
          ? [
              {
                lever: 'reclaim-idle' as const,
                gpus: Math.max(s.gpusPerReplica, declared.gpus - serviceGpusFreed(idle)),
                headroom: own,
              },
            ]
          : []),
      ],
    };
  });
  return [jobs, ...perService];
}

/**
 * Findings of the measured levers. `alone(lever)` tells whether that lever alone meets the need
 * with the capacity before; `met` whether the verdict does; `need` the need the levers leave.
 */
export function measuredFindings(
  change: CapacityChange,
  r: LeverResults,
  alone: (lever: Lever) => boolean,
  met: boolean,
  need: number,
): Finding[] {
  const out: Finding[] = [];
  for (const s of r.serving) {
    if (s.gpusNeeded === null && s.limit === null) continue;
    out.push({
      lever: 'batching',
      gpusFreed: s.gpusNeeded === null ? 0 : Math.max(0, s.declaredGpus - s.gpusNeeded),
      meetsNeed: alone('batching'),
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
      meetsNeed: alone('cheaper-model') && best.sameType,
      detail: cheaperDetail(name, current, best),
      evidence: [...(current?.evidence ?? []), ...best.cost.evidence],
      // Its outcomes are projected from its evaluated quality, not measured in production.
      confidence: 'medium',
    });
  }
  for (const slice of r.slices.values()) {
    out.push({
      lever: slice.detail.code,
      gpusFreed: slice.detail.gpusFreed,
      meetsNeed: alone(slice.detail.code),
      detail: slice.detail,
      evidence: slice.evidence,
      confidence: slice.confidence,
    });
  }
  const reclaim = reclaimFinding(change, r, alone('reclaim-idle'), met, need);
  if (reclaim) out.push(reclaim);
  return out;
}

/** The borrow lever: quota the cohort's other queues leave unused at the hours the queue needs it, within every limit. */
export function borrowFinding(change: CapacityChange, share: BorrowShare, meetsNeed: boolean): Finding {
  const { supply } = share;
  const head = change.after?.borrowingLimit;
  return {
    lever: 'borrow-quota',
    gpusFreed: share.reach,
    meetsNeed,
    detail: {
      code: 'borrow-quota',
      queue: change.name,
      cohort: supply.cohort,
      gpus: share.reach,
      lenders: supply.lenders.map((l) => ({
        queue: l.queue,
        unused: Math.max(0, Math.min(...l.free)),
        lendingLimit: l.lendingLimit,
        limitFrom: l.limitFrom,
      })),
      ...(head === undefined ? {} : { borrowingLimit: head }),
      ...(share.borrowed > 0 ? { borrowed: share.borrowed } : {}),
      ...(share.limit === null ? {} : { limitJudged: share.limit }),
      ...(share.reachWithoutLimit > share.reach ? { withoutLimit: share.reachWithoutLimit } : {}),
      ...(share.sharedWith.length > 0 ? { sharedWith: share.sharedWith } : {}),
    },
    evidence: supply.evidence,
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
    ...[...r.slices.values()].flatMap((x) => x.evidence),
    ...r.idlePods.flatMap((p) => p.evidence),
  ];
  const seen = new Set<string>();
  return all.filter((e) => {
    const key = `${e.source}|${e.ref}|${e.window ?? ''}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}
