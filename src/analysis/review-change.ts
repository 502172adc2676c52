import type {
  CapacityChange,
  ChangeObservations,
  ChangeReview,
  ChangeSharing,
  CohortQueue,
  Diagnostic,
  Evidence,
  InferenceWorkload,
  InferredWorkload,
  MissingEvidence,
  Policy,
  RejectedWorkload,
  ReviewMeasurements,
  Target,
  VerdictReason,
  Workload,
} from '../domain/index.js';
import { changeSharing, isJobWorkload, runsIn, servedBy } from '../domain/index.js';
import { inPhysicalGpus, inSchedulableGpus } from './sharing.js';
import { needByDay, outcome } from './combine.js';
import { inferredReview, inferredShortfall } from './inferred-review.js';
import { demandTerms, runLevers } from './levers.js';
import { Measured } from './measured.js';
import { linkHints } from './link-hints.js';
import { flatDay } from './supply/day-profile.js';
import { finishCatalog, type CatalogState } from './catalog-review.js';
import { ref } from './file-ref.js';
import { shareCohorts, type BorrowRequest, type BorrowShare } from './supply/share.js';
import { itemAt } from '../util/indexed.js';
import { asNewModel, modelSwapOf } from './model-swap.js';

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

const targetOf = (change: CapacityChange): Target => servedBy(change);

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

/**
 * A swap to a model that asks (model-swap.ts) is judged as the head's GPUs on a pool or queue that
 * had none of that model; the review then tells the change as the PR declares it, with the swap.
 */
function prepare(ctx: ChangeContext): Prepared {
  const swap = modelSwapOf(ctx.change);
  if (swap === null) return prepareCounted(ctx);
  const declared = ctx.change;
  const inner = prepareCounted(swap.asks ? { ...ctx, change: asNewModel(declared) } : ctx);
  return { ...inner, wrap: (r) => ({ ...inner.wrap(r), change: declared, modelSwap: swap }) };
}

function prepareCounted(ctx: ChangeContext): Prepared {
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
      ...unknownNeed(change, infra, itemAt(fixRejected, 0, 'rejected-entries-not-empty'), { code: 'catalog-entries-invalid' }),
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
