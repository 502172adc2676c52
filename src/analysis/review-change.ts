import type {
  CapacityChange,
  ChangeObservations,
  ChangeReview,
  ChangeSharing,
  Diagnostic,
  Evidence,
  Finding,
  InferenceWorkload,
  InferredWorkload,
  JobWorkload,
  MissingEvidence,
  NeedParts,
  Policy,
  RejectedWorkload,
  ReviewMeasurements,
  StaggerPlan,
  Target,
  VerdictReason,
  Workload,
} from '../domain/index.js';
import { changeSharing, isJobWorkload } from '../domain/index.js';
import { inPhysicalGpus, inSchedulableGpus } from './sharing.js';
import { combine, type TermOption } from './combine.js';
import { inferredReview } from './inferred-review.js';
import { inferredWorkloads } from './inferred-workloads.js';
import { demandTerms, measuredEvidence, measuredFindings, runLevers, supplyLevers } from './levers.js';
import { Measured } from './measured.js';
import { linkHints } from './link-hints.js';
import { withHeadroom } from './need.js';
import { gpuStep, neededInSteps } from './node-step.js';
import { runtimeFinding } from './runtime-check.js';

export interface ChangeContext {
  change: CapacityChange;
  /** Every catalog workload; null when the catalog is missing or unreadable. */
  workloads: Workload[] | null;
  catalogFile: string;
  policy: Policy;
  /** What the cluster does now; null when the review runs from the files alone. */
  telemetry?: ReviewMeasurements | null;
  /** Catalog entries dropped for their errors: a need that leaves one out is known to be short. */
  rejected?: readonly RejectedWorkload[];
  /** Why the catalog could not be read at all, when it exists but is broken. */
  catalogError?: Diagnostic | null;
  /** With no catalog: the change's workloads from its manifests and telemetry, and what telemetry observed of it. */
  inferred?: { workloads: InferredWorkload[]; observations: ChangeObservations | null };
}

/** The workloads a change serves: same queue for a ClusterQueue, same pool for a node pool. */
function linkedWorkloads(change: CapacityChange, workloads: Workload[]): Workload[] {
  return change.kind === 'kueue-cluster-queue'
    ? workloads.filter((w) => w.queue === change.name)
    : workloads.filter((w) => w.pool === change.name);
}

function ref(file: string, line: number | null): string {
  return line === null ? file : `${file}:${line}`;
}

/**
 * Judges one capacity change against the need of the workloads it serves. Pure. A pool whose GPUs
 * are shared is judged in the shared GPUs its workloads request, and told in physical GPUs; one
 * whose sharing cannot be told is not judged on a count that may be several times the hardware.
 */
export function reviewChange(ctx: ChangeContext): ChangeReview {
  const { change } = ctx;
  const sharing = changeSharing(change);
  if (sharing?.state === 'shared')
    return inPhysicalGpus(reviewAsCounted({ ...ctx, change: inSchedulableGpus(change, sharing) }), change, sharing);
  const review = reviewAsCounted(ctx);
  if (sharing?.state === 'unknown') return unknownSharing(review, sharing);
  return sharing ? { ...review, sharing } : review;
}

function reviewAsCounted(ctx: ChangeContext): ChangeReview {
  const { change, policy } = ctx;
  const infra: Evidence = { source: 'infra', ref: ref(change.file, change.line) };
  if (change.kind === 'gpu-sharing') return sharingReview(change, infra);
  if (ctx.catalogError) {
    const e = ctx.catalogError;
    return unknownNeed(
      change,
      infra,
      { code: 'catalog-unreadable', catalogFile: ctx.catalogFile, at: ref(e.file, e.line), message: e.message },
      { code: 'catalog-unreadable', catalogFile: ctx.catalogFile, at: ref(e.file, e.line) },
    );
  }
  if (ctx.workloads === null) {
    const catalog: MissingEvidence = { code: 'no-catalog', catalogFile: ctx.catalogFile, target: targetOf(change) };
    const unknownReason: VerdictReason = { code: 'no-catalog' };
    if (ctx.inferred) {
      const m = ctx.telemetry ? new Measured(ctx.telemetry) : null;
      return inferredReview(
        { change, policy, infra, m, observations: ctx.inferred.observations, workloads: ctx.inferred.workloads, catalog, unknownReason },
        ctx.catalogFile,
      );
    }
    return unknownNeed(change, infra, catalog, unknownReason);
  }

  const linked = linkedWorkloads(change, ctx.workloads);
  const rejected = (ctx.rejected ?? []).filter((w) => (change.kind === 'kueue-cluster-queue' ? w.queue : w.pool) === change.name);
  const fixRejected: MissingEvidence[] = rejected.map((w) => ({
    code: 'catalog-entry-invalid',
    workload: w.name,
    at: ref(w.problem.file, w.problem.line),
    message: w.problem.message,
    target: targetOf(change),
    ...(w.suggestion ? { suggestion: w.suggestion } : {}),
  }));
  if (linked.length === 0 && rejected.length > 0) {
    return {
      ...unknownNeed(change, infra, fixRejected[0] as MissingEvidence, { code: 'catalog-entries-invalid' }),
      missingEvidence: fixRejected,
    };
  }
  if (linked.length === 0) {
    return unknownNeed(
      change,
      infra,
      {
        code: 'no-linked-workloads',
        catalogFile: ctx.catalogFile,
        target: targetOf(change),
        hints: linkHints(change, ctx.workloads),
        emptyCatalog: ctx.workloads.length === 0,
      },
      { code: 'no-linked-workloads', catalogFile: ctx.catalogFile },
    );
  }

  const jobs = linked.filter(isJobWorkload);
  const services = linked.filter((w): w is InferenceWorkload => w.type === 'inference');
  const m = ctx.telemetry ? new Measured(ctx.telemetry) : null;
  const r = runLevers(change, linked, policy, m, ctx.workloads);
  const { plan } = r;
  const headroom = policy.headroom;
  const before = change.gpusBefore;
  const after = change.gpusAfter;
  const combo = combine(demandTerms(services, r), headroom, supplyLevers(r), before, change.delta);
  const need = combo.need;
  // The stagger finding compares like with like: services as declared, with and without it.
  const declaredServices = services.reduce((sum, s) => sum + s.gpusPerReplica * s.replicas, 0);
  const staggerNeed = withHeadroom(plan.peakGpus + declaredServices, headroom);
  const naiveNeed = withHeadroom(plan.naivePeakGpus + declaredServices, headroom);

  const evidence: Evidence[] = [
    infra,
    ...linked.map((w): Evidence => ({ source: 'catalog', ref: ref(w.source.file, w.source.line) })),
    { source: 'planner', ref: 'lower bound', proof: plan.boundProof },
    ...measuredEvidence(r),
  ];
  const missingEvidence: MissingEvidence[] = [
    ...fixRejected,
    ...r.problems.map(({ workload, ...problem }): MissingEvidence => ({ code: 'schedulable-window', workload, problem })),
  ];
  if (m) missingEvidence.push(...m.missing());
  else if (services.length > 0) {
    // Listed once for all the change's services: one telemetry source answers for all of them.
    missingEvidence.push({ code: 'service-capacity-unmeasured', services: services.map((s) => s.name) });
  }

  const needParts = describeNeed(plan, combo.chosen.slice(1), headroom, need);
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
    needWithoutLevers: combo.needWithoutLevers,
    // The same per-field view a catalog-free review gives, every field from the catalog.
    inferred: inferredWorkloads(linked, [], null, 0),
    ...measured,
  };

  if (change.delta <= 0) {
    return {
      ...common,
      verdict: 'justified',
      gpusNeeded: 0,
      findings: [],
      reason: { code: 'lowers-capacity', gpusAfter: after, need: needParts, fits: after >= need },
    };
  }

  // A job the planner had to leave out would only add to the need: short of that, a verdict
  // that finds fewer GPUs needed than asked for would rest on a need known to be too small.
  const unplanned = [
    ...rejected.map((w) => w.name ?? { entryAt: ref(w.problem.file, w.problem.line) }),
    ...r.problems.map((p) => p.workload),
  ];
  if (unplanned.length > 0 && combo.gpusNeeded < change.delta) {
    return {
      ...common,
      verdict: 'insufficient-evidence',
      gpusNeeded: null,
      findings: [],
      reason: { code: 'workloads-unplanned', workloads: unplanned },
    };
  }
  const met = combo.gpusNeeded === 0;
  const stagger = staggerFinding(jobs, plan, before, staggerNeed, naiveNeed, change.delta);
  const runtime = runtimeFinding(r.runtimes);
  const findings = [
    ...(stagger ? [stagger] : []),
    ...(runtime ? [runtime] : []),
    ...measuredFindings(change, r, combo.credited, met, need),
  ];
  const borrowed = combo.supplied.get('borrow-quota') ?? 0;
  // Staggering shows in the plan; the reason names the other levers it relies on.
  const levers = [...combo.credited].filter((l) => l !== 'stagger');

  if (met) {
    return {
      ...common,
      verdict: 'not-justified',
      gpusNeeded: 0,
      findings,
      reason: {
        code: 'capacity-meets-need',
        gpusBefore: before,
        borrowed,
        need: needParts,
        levers,
      },
    };
  }
  const inSteps = neededInSteps(combo.gpusNeeded, change);
  const step = gpuStep(change);
  if (inSteps < change.delta) {
    return {
      ...common,
      verdict: 'partially-justified',
      gpusNeeded: inSteps,
      findings,
      reason: {
        code: 'need-below-request',
        need: needParts,
        gpusNeeded: combo.gpusNeeded,
        inSteps,
        step,
        delta: change.delta,
        borrowed,
      },
    };
  }
  if (combo.gpusNeeded < change.delta) {
    // Fewer GPUs would do, but no smaller request exists: one node less falls short.
    return {
      ...common,
      verdict: 'justified',
      gpusNeeded: change.delta,
      findings,
      reason: { code: 'need-rounds-to-request', need: needParts, gpusNeeded: combo.gpusNeeded, step, delta: change.delta },
    };
  }
  return {
    ...common,
    verdict: 'justified',
    gpusNeeded: change.delta,
    findings,
    reason: plan.optimal
      ? { code: 'need-proven', need: needParts, bound: plan.boundProof }
      : { code: 'need-best-found', need: needParts, lowerBound: plan.lowerBound, bound: plan.boundProof },
  };
}

/** Sharing changes how many schedulable GPUs each physical GPU advertises; nothing is bought. */
function sharingReview(change: CapacityChange, infra: Evidence): ChangeReview {
  return {
    change,
    verdict: 'justified',
    need: null,
    gpusNeeded: 0,
    workloads: [],
    findings: [],
    missingEvidence: [],
    reason: { code: 'sharing-factor-change', factorBefore: change.gpusBefore, factorAfter: change.gpusAfter },
    evidence: [infra],
  };
}

/**
 * A count that may be shared GPUs: an increase is not judged (it may be a fraction of the
 * hardware it looks like), and the confidence is low whatever else the review had.
 */
function unknownSharing(review: ChangeReview, s: Extract<ChangeSharing, { state: 'unknown' }>): ChangeReview {
  const missing: MissingEvidence = {
    code: 'sharing-factor-unknown',
    target: targetOf(review.change),
    sharingCode: s.code,
    source: { name: s.source.name, at: ref(s.source.file, s.source.line) },
  };
  const grows = review.change.delta > 0;
  return {
    ...review,
    verdict: grows ? 'insufficient-evidence' : review.verdict,
    gpusNeeded: grows ? null : review.gpusNeeded,
    missingEvidence: [missing, ...review.missingEvidence],
    evidence: [...review.evidence, { source: 'infra', ref: ref(s.source.file, s.source.line) }],
    confidence: 'low',
    ...(grows ? { reason: { code: 'sharing-unknown', sharingCode: s.code } satisfies VerdictReason } : {}),
    sharing: s,
  };
}

/** Without the workloads the need is unknown: an increase cannot be judged, a decrease asks nothing. */
function unknownNeed(change: CapacityChange, infra: Evidence, missing: MissingEvidence, reason: VerdictReason): ChangeReview {
  return {
    change,
    verdict: change.delta > 0 ? 'insufficient-evidence' : 'justified',
    need: null,
    gpusNeeded: null,
    workloads: [],
    findings: [],
    missingEvidence: [missing],
    reason,
    evidence: [infra],
  };
}

function targetOf(change: CapacityChange): Target {
  return { kind: change.kind === 'kueue-cluster-queue' ? 'queue' : 'pool', name: change.name };
}

function describeNeed(plan: StaggerPlan, services: readonly TermOption[], headroom: number, need: number): NeedParts {
  return {
    gpus: need,
    // A pool of services alone has no runs to stagger: a "0 GPUs at the staggered peak" says nothing.
    staggeredPeak: plan.schedule.length > 0 ? plan.peakGpus : null,
    declaredServices: services.filter((o) => !o.headroomIncluded).reduce((s, o) => s + o.gpus, 0),
    sizedServices: services.filter((o) => o.headroomIncluded).reduce((s, o) => s + o.gpus, 0),
    headroom,
  };
}

/** The stagger lever: what starting runs apart does, compared with starting them all at once. */
function staggerFinding(
  jobs: JobWorkload[],
  plan: StaggerPlan,
  before: number,
  need: number,
  naiveNeed: number,
  delta: number,
): Finding | null {
  if (jobs.length === 0 || plan.schedule.length === 0) return null;
  const meetsNeed = need <= before;
  const gpusFreed = Math.max(0, Math.min(delta, naiveNeed - need));
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
