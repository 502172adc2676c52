import type {
  CapacityChange,
  ChangeReview,
  Evidence,
  Finding,
  InferenceWorkload,
  JobWorkload,
  Lever,
  MissingEvidence,
  NeedParts,
  Policy,
  RejectedWorkload,
  StaggerPlan,
  Workload,
} from '../domain/index.js';
import { needOf, outcome, smallestCombination, type Allowed, type DemandTerm, type TermOption } from './combine.js';
import { inferredWorkloads } from './inferred-workloads.js';
import { borrowFinding, measuredEvidence, measuredFindings, type LeverResults } from './levers.js';
import type { Measured } from './measured.js';
import { gpuStep, neededInSteps } from './node-step.js';
import { runtimeFinding } from './runtime-check.js';
import type { BorrowShare } from './supply/share.js';
import { ref } from './file-ref.js';

// A catalog review finished once the supply the changes share is known: the need with every lever
// and without each, each lever's finding, and the verdict.

/** Levers in the order a combination names them. */
const LEVER_ORDER: readonly Lever[] = ['stagger', 'reclaim-idle', 'batching', 'cheaper-model', 'mig', 'time-slicing', 'borrow-quota'];

/** Everything a catalog review weighs before the shared supply is known. */
export interface CatalogState {
  change: CapacityChange;
  policy: Policy;
  infra: Evidence;
  catalogFile: string;
  linked: Workload[];
  jobs: JobWorkload[];
  services: InferenceWorkload[];
  rejected: RejectedWorkload[];
  fixRejected: MissingEvidence[];
  m: Measured | null;
  r: LeverResults;
  terms: DemandTerm[];
  /** GPUs idle pods outside the catalog hold: counted in the GPUs there only once reclaimed. */
  podGpus: number;
}

/**
 * Judges one capacity change against the need of the workloads it serves, with what its cohort
 * lends it (`share`, allocated across the review). A pool whose GPUs are shared is judged in the
 * shared GPUs its workloads request, and told in physical GPUs (see `prepare`).
 */
export function finishCatalog(st: CatalogState, share: BorrowShare | null): ChangeReview {
  const { change, policy, r, terms, m, linked, jobs, services } = st;
  const { plan } = r;
  const before = change.gpusBefore;
  const delta = change.delta;
  const supply = share ? { lever: 'borrow-quota' as const, free: share.free } : null;
  // Idle pods outside the catalog hold part of the GPUs there: without reclaiming them, that part is not free.
  const usable = (levers: Allowed) => (levers === 'all' || levers.has('reclaim-idle') ? before : before - st.podGpus);
  const outcomeWith = (levers: Allowed) => outcome(terms, levers, usable(levers), delta, supply);
  const gpusNeededWith = (levers: ReadonlySet<Lever>) => outcomeWith(levers).gpusNeeded;
  const all = outcomeWith('all');
  const need = all.need;
  const met = all.gpusNeeded === 0;
  const levers =
    delta > 0 ? smallestCombination(candidatesOf(terms, supply !== null, st.podGpus), gpusNeededWith, (l) => outcomeWith(l).need) : [];
  const together = levers.length > 0 ? outcomeWith(new Set(levers)) : null;
  // A lever meets the need alone when, with no other, it turns a shortfall into none: where the
  // GPUs there meet the need with no lever at all, no lever is what meets it.
  const short = delta > 0 && gpusNeededWith(new Set()) > 0;
  const alone = (lever: Lever): boolean => short && gpusNeededWith(new Set([lever])) === 0;

  const evidence: Evidence[] = [
    st.infra,
    ...linked.map((w): Evidence => ({ source: 'catalog', ref: ref(w.source.file, w.source.line) })),
    { source: 'planner', ref: 'lower bound', proof: plan.boundProof },
    ...measuredEvidence(r),
    ...(share ? share.supply.evidence : []),
  ];
  const missingEvidence: MissingEvidence[] = [
    ...st.fixRejected,
    ...r.problems.map(({ workload, ...problem }): MissingEvidence => ({ code: 'schedulable-window', workload, problem })),
  ];
  if (m) missingEvidence.push(...m.missing());
  else if (services.length > 0) {
    // Listed once for all the change's services: one telemetry source answers for all of them.
    missingEvidence.push({ code: 'service-capacity-unmeasured', services: services.map((s) => s.name) });
  }

  const needParts = describeNeed(plan, all.chosen.slice(1), policy.headroom, need);
  // By completeness of the evidence alone, so that taking evidence away can only lower it.
  // A source that answered nothing measured nothing: as low as no source at all. A field the
  // catalog left unknown and the review took from a manifest or observed runs is inferred.
  const filled = jobs.some((w) => w.filled !== undefined && Object.keys(w.filled).length > 0);
  const confidence: ChangeReview['confidence'] =
    m === null || m.answeredNothing ? 'low' : filled ? 'inferred' : missingEvidence.length === 0 ? 'high' : 'medium';
  const measured = m
    ? {
        ladders: r.ladders,
        serving: r.serving,
        costs: r.costs,
        runtimes: r.runtimes,
        ...(r.idlePods.length > 0 ? { idlePods: r.idlePods } : {}),
      }
    : {};
  const common = {
    change,
    workloads: linked.map((w) => w.name),
    need,
    plan,
    evidence,
    missingEvidence,
    confidence,
    needWithoutLevers: needOf(terms.map((t) => t.baseline)),
    ...(together ? { combination: { levers, meetsNeed: together.gpusNeeded === 0 } } : {}),
    // The same per-field view a catalog-free review gives, every field from the catalog.
    inferred: inferredWorkloads(linked, [], null, 0),
    ...measured,
  };

  if (delta <= 0) {
    return {
      ...common,
      verdict: 'justified',
      gpusNeeded: 0,
      findings: [],
      reason: { code: 'lowers-capacity', gpusAfter: change.gpusAfter, need: needParts, fits: change.gpusAfter >= need },
    };
  }

  // A job the planner had to leave out would only add to the need: short of that, a verdict
  // that finds fewer GPUs needed than asked for would rest on a need known to be too small.
  const unplanned = [
    ...st.rejected.map((w) => w.name ?? { entryAt: ref(w.problem.file, w.problem.line) }),
    ...r.problems.map((p) => p.workload),
  ];
  if (unplanned.length > 0 && all.gpusNeeded < delta) {
    return {
      ...common,
      verdict: 'insufficient-evidence',
      gpusNeeded: null,
      findings: [],
      reason: { code: 'workloads-unplanned', workloads: unplanned },
    };
  }
  const stagger = staggerFinding(jobs, plan, delta, outcomeWith(new Set()).need, outcomeWith(new Set(['stagger'])).need, alone('stagger'));
  const runtime = runtimeFinding(r.runtimes);
  const borrowed = together !== null && levers.includes('borrow-quota') ? together.borrowed : 0;
  const findings = [
    ...(stagger ? [stagger] : []),
    ...(runtime ? [runtime] : []),
    ...measuredFindings(change, r, alone, met, need),
    ...(share && share.reachWithoutLimit > 0 ? [borrowFinding(change, { ...share, borrowed }, alone('borrow-quota'))] : []),
  ];
  // Staggering shows in the plan; the reason names the other levers it relies on.
  const named = levers.filter((l) => l !== 'stagger');

  if (met) {
    return {
      ...common,
      verdict: 'not-justified',
      gpusNeeded: 0,
      findings,
      reason: { code: 'capacity-meets-need', gpusBefore: before, borrowed, need: needParts, levers: named },
    };
  }
  const inSteps = neededInSteps(all.gpusNeeded, change);
  const step = gpuStep(change);
  if (inSteps < delta) {
    return {
      ...common,
      verdict: 'partially-justified',
      gpusNeeded: inSteps,
      findings,
      reason: { code: 'need-below-request', need: needParts, gpusNeeded: all.gpusNeeded, inSteps, step, delta, borrowed },
    };
  }
  if (all.gpusNeeded < delta) {
    // Fewer GPUs would do, but no smaller request exists: one node less falls short.
    return {
      ...common,
      verdict: 'justified',
      gpusNeeded: delta,
      findings,
      reason: { code: 'need-rounds-to-request', need: needParts, gpusNeeded: all.gpusNeeded, step, delta },
    };
  }
  return {
    ...common,
    verdict: 'justified',
    gpusNeeded: delta,
    findings,
    reason: plan.optimal
      ? { code: 'need-proven', need: needParts, bound: plan.boundProof }
      : { code: 'need-best-found', need: needParts, lowerBound: plan.lowerBound, bound: plan.boundProof },
  };
}

/** The levers that could enter a combination: those some part of the need has an option for, and the supplies. */
function candidatesOf(terms: readonly DemandTerm[], borrowing: boolean, podGpus: number): Lever[] {
  const present = new Set<Lever>();
  for (const t of terms) for (const o of t.options) if (o.lever !== null) present.add(o.lever);
  if (borrowing) present.add('borrow-quota');
  if (podGpus > 0) present.add('reclaim-idle');
  return LEVER_ORDER.filter((l) => present.has(l));
}

function describeNeed(plan: StaggerPlan, services: readonly TermOption[], headroom: number, need: number): NeedParts {
  const declared = services.filter((o) => o.sized !== true);
  const own = declared.filter((o) => Math.abs(o.headroom - headroom) > 1e-9);
  return {
    gpus: need,
    // A pool of services alone has no runs to stagger: a "0 GPUs at the staggered peak" says nothing.
    staggeredPeak: plan.schedule.length > 0 ? plan.peakGpus : null,
    declaredServices: declared.filter((o) => !own.includes(o)).reduce((s, o) => s + o.gpus, 0),
    ...(own.length > 0 ? { ownHeadroom: own.map((o) => ({ gpus: o.gpus, headroom: o.headroom })) } : {}),
    sizedServices: services.filter((o) => o.sized === true).reduce((s, o) => s + o.gpus, 0),
    headroom,
  };
}

/**
 * The stagger lever: what starting runs apart does, compared with starting them all at once,
 * every other lever off. `meetsNeed` is for staggering alone.
 */
function staggerFinding(
  jobs: JobWorkload[],
  plan: StaggerPlan,
  delta: number,
  naiveNeed: number,
  staggerNeed: number,
  meetsNeed: boolean,
): Finding | null {
  if (jobs.length === 0 || plan.schedule.length === 0) return null;
  const gpusFreed = Math.max(0, Math.min(delta, naiveNeed - staggerNeed));
  return {
    lever: 'stagger',
    gpusFreed: meetsNeed ? delta : gpusFreed,
    meetsNeed,
    detail: { code: 'stagger', runs: plan.schedule.length, peak: plan.peakGpus, naivePeak: plan.naivePeakGpus },
    confidence: plan.optimal ? 'high' : 'medium',
    evidence: [
      ...jobs.map((w): Evidence => ({
        source: 'catalog',
        ref: ref(w.source.file, w.source.line),
      })),
      { source: 'planner', ref: plan.optimal ? 'optimal' : 'best found', proof: plan.boundProof },
    ],
  };
}
