import type {
  CapacityChange,
  ChangeObservations,
  ChangeReview,
  Evidence,
  Finding,
  IdlePod,
  InferredWorkload,
  Lever,
  MissingEvidence,
  Policy,
  VerdictReason,
} from '../domain/index.js';
import { deadlineLadder } from './deadline-ladder.js';
import { idlePods } from './idle-pods.js';
import { borrowFinding } from './levers.js';
import type { BorrowShare } from './supply/share.js';
import type { Measured } from './measured.js';
import { withHeadroom } from './need.js';
import { reclaimFinding } from './reclaim.js';
import { DAY } from './stagger/circle.js';
import { planStagger } from './stagger/plan.js';

/**
 * An idle pod lowers the observed peak only when it held its GPUs through the window: one that
 * held them part of it may not have held them at the peak.
 */
const HELD_THROUGH = 0.99;

export interface InferredContext {
  change: CapacityChange;
  policy: Policy;
  infra: Evidence;
  /** The review's telemetry; null when it runs from the files alone. */
  m: Measured | null;
  observations: ChangeObservations | null;
  /** The change's workloads from the manifests and telemetry, merged. */
  workloads: InferredWorkload[];
  /** The missing-evidence line for the catalog itself. */
  catalog: MissingEvidence;
  /** The reason when nothing but a catalog would tell the need. */
  unknownReason: VerdictReason;
  catalogFile: string;
}

/** What telemetry says of the change before any quota is borrowed; null when it says too little. */
function observed(ctx: InferredContext) {
  const { change, policy, m, observations: obs } = ctx;
  if (m === null || obs === null) return null;
  const pods = idlePods(change, [], m, policy);
  const demand = obs.demand;
  if (demand === null) return { pods, demand: null };
  const reclaimable = pods.filter((p) => p.heldFraction >= HELD_THROUGH).reduce((s, p) => s + p.gpus, 0);
  const observedNeed = withHeadroom(demand.peakDemand, policy.headroom);
  const needAfterReclaim = withHeadroom(Math.max(0, demand.peakDemand - reclaimable), policy.headroom);
  const before = change.gpusBefore;
  // What the GPUs there leave for the request: with no lever, and with the idle pods reclaimed.
  return {
    pods,
    demand,
    reclaimable,
    observedNeed,
    needAfterReclaim,
    spare: before - observedNeed,
    spareReclaimed: before - needAfterReclaim,
  };
}

/**
 * GPUs the request leaves short once the idle pods are reclaimed: what the cohort would have to
 * lend for the observed peak and the request to fit. Null when the observed demand is unknown.
 */
export function inferredShortfall(ctx: InferredContext): number | null {
  const o = observed(ctx);
  if (o === null || o.demand === null) return null;
  return Math.max(0, ctx.change.delta - o.spareReclaimed);
}

/** The batch workloads' missing fields, as the checklist states them. */
function toConfirm(workloads: readonly InferredWorkload[], catalogFile: string): MissingEvidence[] {
  return workloads
    .filter((w) => w.type !== 'inference' && w.deadlineUtc.value === null)
    .map((w): MissingEvidence => ({ code: 'deadline', workload: w.name, catalogFile }));
}

/**
 * A change judged without a catalog, on what telemetry observed: the peak GPU demand on the pool
 * or queue, idle pods (reclaim) and the cohort's unused quota (borrow). The request is shown not
 * needed when today's GPUs, with the levers, hold the observed peak plus what it asks; otherwise
 * the need is unknown, and for batch jobs without a deadline the review shows what each deadline
 * would need. Pure.
 */
export function inferredReview(ctx: InferredContext, share: BorrowShare | null): ChangeReview {
  const { change, m, observations: obs, catalogFile } = ctx;
  const ladder = deadlineLadder(ctx.workloads, change.gpusBefore);
  const deadlines = toConfirm(ctx.workloads, catalogFile);
  const base = {
    change,
    workloads: ctx.workloads.map((w) => w.name),
    findings: [] as Finding[],
    inferred: ctx.workloads,
    ...(ladder ? { deadlines: ladder } : {}),
  };
  const unknown = (reason: VerdictReason, missing: MissingEvidence[], extra: Partial<ChangeReview> = {}): ChangeReview => ({
    ...base,
    verdict: change.delta > 0 ? 'insufficient-evidence' : 'justified',
    need: null,
    gpusNeeded: null,
    missingEvidence: [...missing, ...deadlines, ctx.catalog],
    reason,
    evidence: [ctx.infra],
    ...extra,
  });
  const o = observed(ctx);
  if (m === null || obs === null || o === null) return unknown(ctx.unknownReason, []);
  const missing = [...obs.missing];
  const { pods, demand } = o;
  missing.push(...m.missing());
  const confidence = m.answeredNothing ? ('low' as const) : ('inferred' as const);
  if (demand === null) return unknown(ctx.unknownReason, missing, { confidence, ...(pods.length > 0 ? { idlePods: pods } : {}) });

  const { reclaimable, observedNeed, needAfterReclaim, spare, spareReclaimed } = o as Required<typeof o>;
  // What the cohort lends at the request's hours, after the review's other queues drew theirs.
  const borrowed = share?.reach ?? 0;
  const before = change.gpusBefore;
  const covers = change.delta <= 0 || spareReclaimed + borrowed >= change.delta;
  const credited = new Set<Lever>();
  if (covers && change.delta > 0 && spare < change.delta) {
    if (reclaimable > 0 && spare + borrowed < change.delta) credited.add('reclaim-idle');
    if (borrowed > 0 && spareReclaimed < change.delta) credited.add('borrow-quota');
  }
  const need = credited.has('reclaim-idle') ? needAfterReclaim : observedNeed;
  const evidence = uniqueEvidence([ctx.infra, ...demand.evidence, ...pods.flatMap((p) => p.evidence), ...(share?.supply.evidence ?? [])]);
  const alone = { reclaim: spareReclaimed >= change.delta, borrow: spare + borrowed >= change.delta };
  const findings = leverFindings(
    change,
    pods,
    reclaimable,
    share ? { ...share, borrowed: credited.has('borrow-quota') ? borrowed : 0 } : null,
    alone,
    covers,
    observedNeed,
  );
  const measured = {
    demand,
    confidence,
    ...(pods.length > 0 ? { idlePods: pods } : {}),
    needWithoutLevers: observedNeed,
    ...(credited.size > 0 ? { combination: { levers: [...credited], meetsNeed: covers } } : {}),
  };

  if (change.delta <= 0) {
    return {
      ...base,
      ...measured,
      verdict: 'justified',
      need,
      gpusNeeded: 0,
      findings,
      missingEvidence: missing,
      reason: { code: 'observed-lowers-capacity', gpusAfter: change.gpusAfter, observedNeed },
      evidence,
    };
  }
  if (covers) {
    const levers = [...credited];
    return {
      ...base,
      ...measured,
      verdict: 'not-justified',
      need,
      gpusNeeded: 0,
      findings,
      // The catalog and the deadlines would make the review precise; the verdict does not wait on them.
      missingEvidence: [...missing, ...deadlines, ctx.catalog],
      reason: {
        code: 'observed-peak-fits',
        gpusBefore: before,
        borrowed: credited.has('borrow-quota') ? borrowed : 0,
        peak: demand.peakDemand,
        reclaimed: credited.has('reclaim-idle') ? reclaimable : 0,
        need,
        delta: change.delta,
        levers,
      },
      evidence,
    };
  }
  return unknown(
    { code: 'observed-peak-exceeds', gpusBefore: before, borrowable: borrowed, peak: demand.peakDemand, need, delta: change.delta },
    missing,
    { ...measured, need, findings, evidence },
  );
}

function leverFindings(
  change: CapacityChange,
  pods: readonly IdlePod[],
  reclaimable: number,
  share: BorrowShare | null,
  alone: { reclaim: boolean; borrow: boolean },
  met: boolean,
  need: number,
): Finding[] {
  const out: Finding[] = [];
  const reclaim = reclaimFinding(
    change,
    { plan: planStagger([], { cycle: DAY }), planWithoutIdle: null, idle: [], idlePods: pods, catalog: [] },
    alone.reclaim,
    met,
    need,
  );
  // Only pods held through the window lower the observed peak; the finding frees what it credits.
  if (reclaim) out.push({ ...reclaim, gpusFreed: reclaimable, meetsNeed: reclaimable > 0 && alone.reclaim });
  if (share && share.reachWithoutLimit > 0) out.push(borrowFinding(change, share, alone.borrow));
  return out;
}

function uniqueEvidence(all: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return all.filter((e) => {
    const key = `${e.source}|${e.ref}|${e.window ?? ''}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}
