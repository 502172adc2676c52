import type {
  CapacityChange,
  ChangeObservations,
  ChangeReview,
  ChangeSharing,
  CohortQueue,
  Diagnostic,
  Evidence,
  Finding,
  InferenceWorkload,
  InferredWorkload,
  JobWorkload,
  Lever,
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
import { changeSharing, isJobWorkload, runsIn, servedBy } from '../domain/index.js';
import { inPhysicalGpus, inSchedulableGpus } from './sharing.js';
import { needByDay, needOf, outcome, smallestCombination, type Allowed, type DemandTerm, type TermOption } from './combine.js';
import { inferredReview, inferredShortfall } from './inferred-review.js';
import { inferredWorkloads } from './inferred-workloads.js';
import { borrowFinding, demandTerms, measuredEvidence, measuredFindings, runLevers, type LeverResults } from './levers.js';
import { Measured } from './measured.js';
import { linkHints } from './link-hints.js';
import { gpuStep, neededInSteps } from './node-step.js';
import { runtimeFinding } from './runtime-check.js';
import { flatDay } from './supply/day-profile.js';
import { shareCohorts, type BorrowRequest, type BorrowShare } from './supply/share.js';

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
  /** Cohort queues the PR's files declare (their lending and borrowing limits). */
  cohortQueues?: readonly CohortQueue[];
}

function ref(file: string, line: number | null): string {
  return line === null ? file : `${file}:${line}`;
}

const targetOf = (change: CapacityChange): Target => servedBy(change);

/** Levers in the order a combination names them. */
const LEVER_ORDER: readonly Lever[] = ['stagger', 'reclaim-idle', 'batching', 'cheaper-model', 'mig', 'time-slicing', 'borrow-quota'];

/** A change judged up to what a shared supply gives it. */
interface Prepared {
  /** The change as judged (in shared GPUs for a pool of shared GPUs). */
  change: CapacityChange;
  m: Measured | null;
  body:
    | { kind: 'done'; review: ChangeReview }
    | { kind: 'catalog'; state: CatalogState }
    | { kind: 'inferred'; ctx: Parameters<typeof inferredReview>[0] };
  /** Back to what the PR declares: physical GPUs, the sharing named. */
  wrap: (review: ChangeReview) => ChangeReview;
}

/**
 * Judges every change of a review. Levers that draw on a supply the changes share — quota a cohort
 * lends — are allocated once across them: two queues short at the same hours never borrow the
 * same GPUs. Pure.
 */
export function reviewChanges(contexts: readonly ChangeContext[]): ChangeReview[] {
  const prepared = contexts.map(prepare);
  const shares = shareCohorts(
    prepared.map((p, i) => ({ index: i, change: p.change, m: p.m, request: requestOf(p), files: contexts[i]?.cohortQueues ?? [] })),
  );
  return prepared.map((p, i) => withFindingConfidence(p.wrap(finish(p, shares.get(i) ?? null))));
}

/** One change judged alone: what a review with a single change gives. */
export function reviewChange(ctx: ChangeContext): ChangeReview {
  const [review] = reviewChanges([ctx]);
  return review as ChangeReview;
}

function prepare(ctx: ChangeContext): Prepared {
  const { change } = ctx;
  const sharing = changeSharing(change);
  const m = ctx.telemetry ? new Measured(ctx.telemetry) : null;
  if (sharing?.state === 'shared') {
    const counted = inSchedulableGpus(change, sharing);
    return { change: counted, m, body: prepareBody({ ...ctx, change: counted }, m), wrap: (r) => inPhysicalGpus(r, change, sharing) };
  }
  const wrap = (r: ChangeReview): ChangeReview =>
    sharing?.state === 'unknown' ? unknownSharing(r, sharing) : sharing ? { ...r, sharing } : r;
  return { change, m, body: prepareBody(ctx, m), wrap };
}

function finish(p: Prepared, share: BorrowShare | null): ChangeReview {
  switch (p.body.kind) {
    case 'done':
      return p.body.review;
    case 'inferred':
      return inferredReview(p.body.ctx, share);
    case 'catalog':
      return finishCatalog(p.body.state, share);
  }
}

/** What a growing ClusterQueue is short of at each hour, for its cohort to lend; null for anything else. */
function requestOf(p: Prepared): Omit<BorrowRequest, 'key' | 'limit'> | null {
  if (p.m === null || p.change.delta <= 0 || servedBy(p.change).kind !== 'queue') return null;
  if (p.body.kind === 'inferred') {
    const short = inferredShortfall(p.body.ctx);
    return short === null ? null : { short: flatDay(short), delta: p.change.delta, allOrNothing: true };
  }
  if (p.body.kind !== 'catalog') return null;
  const { terms, change } = p.body.state;
  const byDay = needByDay(outcome(terms, 'all', change.gpusBefore, change.delta, null).chosen);
  return { short: byDay.map((v) => Math.max(0, v - change.gpusBefore)), delta: change.delta, allOrNothing: false };
}

/** Everything a catalog review weighs before the shared supply is known. */
interface CatalogState {
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

function prepareBody(ctx: ChangeContext, m: Measured | null): Prepared['body'] {
  const { change, policy } = ctx;
  const infra: Evidence = { source: 'infra', ref: ref(change.file, change.line) };
  const done = (review: ChangeReview): Prepared['body'] => ({ kind: 'done', review });
  if (change.kind === 'gpu-sharing') return done(sharingReview(change, infra));
  if (ctx.catalogError) {
    const e = ctx.catalogError;
    return done(
      unknownNeed(
        change,
        infra,
        { code: 'catalog-unreadable', catalogFile: ctx.catalogFile, at: ref(e.file, e.line), message: e.message },
        { code: 'catalog-unreadable', catalogFile: ctx.catalogFile, at: ref(e.file, e.line) },
      ),
    );
  }
  if (ctx.workloads === null) {
    const catalog: MissingEvidence = { code: 'no-catalog', catalogFile: ctx.catalogFile, target: targetOf(change) };
    const unknownReason: VerdictReason = { code: 'no-catalog' };
    if (ctx.inferred) {
      return {
        kind: 'inferred',
        ctx: {
          change,
          policy,
          infra,
          m,
          observations: ctx.inferred.observations,
          workloads: ctx.inferred.workloads,
          catalog,
          unknownReason,
          catalogFile: ctx.catalogFile,
        },
      };
    }
    return done(unknownNeed(change, infra, catalog, unknownReason));
  }

  const target = targetOf(change);
  const linked = ctx.workloads.filter((w) => runsIn(target, w));
  const rejected = (ctx.rejected ?? []).filter((w) => runsIn(target, w));
  const fixRejected: MissingEvidence[] = rejected.map((w) => ({
    code: 'catalog-entry-invalid',
    workload: w.name,
    at: ref(w.problem.file, w.problem.line),
    message: w.problem.message,
    target,
    ...(w.suggestion ? { suggestion: w.suggestion } : {}),
  }));
  if (linked.length === 0 && rejected.length > 0) {
    return done({
      ...unknownNeed(change, infra, fixRejected[0] as MissingEvidence, { code: 'catalog-entries-invalid' }),
      missingEvidence: fixRejected,
    });
  }
  if (linked.length === 0) {
    return done(
      unknownNeed(
        change,
        infra,
        {
          code: 'no-linked-workloads',
          catalogFile: ctx.catalogFile,
          target,
          hints: linkHints(change, ctx.workloads),
          emptyCatalog: ctx.workloads.length === 0,
        },
        { code: 'no-linked-workloads', catalogFile: ctx.catalogFile },
      ),
    );
  }
  const jobs = linked.filter(isJobWorkload);
  const services = linked.filter((w): w is InferenceWorkload => w.type === 'inference');
  const r = runLevers(change, linked, policy, m, ctx.workloads);
  return {
    kind: 'catalog',
    state: {
      change,
      policy,
      infra,
      catalogFile: ctx.catalogFile,
      linked,
      jobs,
      services,
      rejected,
      fixRejected,
      m,
      r,
      terms: demandTerms(services, r, policy),
      podGpus: r.idlePods.reduce((s, p) => s + p.gpus, 0),
    },
  };
}

/**
 * Judges one capacity change against the need of the workloads it serves, with what its cohort
 * lends it (`share`, allocated across the review). A pool whose GPUs are shared is judged in the
 * shared GPUs its workloads request, and told in physical GPUs (see `prepare`).
 */
function finishCatalog(st: CatalogState, share: BorrowShare | null): ChangeReview {
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

const RANK = { low: 0, medium: 1, high: 2 } as const;

/**
 * A finding is never surer than the evidence under the review it belongs to: one from the files
 * alone, or from a source that answered nothing (`low`), cannot hold a `high` finding, and one that
 * inferred the workloads holds at most `medium`. A review short of some other measurement keeps
 * each finding's own confidence: what is missing is listed, and may not concern that lever.
 */
function withFindingConfidence(review: ChangeReview): ChangeReview {
  const cap: 'low' | 'medium' | null = review.confidence === 'low' ? 'low' : review.confidence === 'inferred' ? 'medium' : null;
  if (cap === null) return review;
  const findings = review.findings.map((f) =>
    f.confidence !== undefined && RANK[f.confidence] > RANK[cap] ? { ...f, confidence: cap } : f,
  );
  return { ...review, findings };
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
