import { type ChangeContext, gpusAskedBy, inferredWorkloads, type JudgedCatalog, judgePr, reviewChanges } from '../analysis/index.js';
import type {
  CapacityChange,
  CatalogDemand,
  ChangeReview,
  CohortQueue,
  Diagnostic,
  DraftEntry,
  MissingItem,
  Policy,
  ReviewMeasurements,
  Verdict,
} from '../domain/index.js';
import { runsIn, servedBy } from '../domain/index.js';
import { observationsFor, type ReviewTelemetry } from '../telemetry/index.js';
import { partialsOf, type CatalogState } from './catalog-state.js';
import { fillUnknownFields } from './fill.js';
import { entriesServing } from './measure.js';

/**
 * The catalog with its `unknown` runtimes and starts filled from manifests and observed runs, as
 * far as they can be; the diagnostics with each filled field's warning replaced by a note.
 */
export function fillCatalog(
  catalog: CatalogState,
  ctx: { changes: readonly CapacityChange[]; declared: readonly DraftEntry[]; telemetry: ReviewTelemetry | null; policy: Policy },
  diagnostics: Diagnostic[],
): { catalog: CatalogState; diagnostics: Diagnostic[] } {
  if (catalog.kind !== 'read' || partialsOf(catalog).length === 0) return { catalog, diagnostics };
  const { telemetry } = ctx;
  const days = (telemetry?.windowMinutes ?? ctx.policy.window) / 1440;
  const fill = fillUnknownFields(
    catalog.rejected,
    ctx.declared,
    (p) => {
      const change = ctx.changes.find((c) => runsIn(servedBy(c), p));
      return change && telemetry ? (observationsFor(change, telemetry).jobRuns ?? null) : null;
    },
    days,
  );
  return {
    catalog: {
      ...catalog,
      workloads: [...catalog.workloads, ...fill.workloads],
      rejected: fill.rejected,
    },
    diagnostics: diagnostics.map((d) => fill.replaced.get(d) ?? d),
  };
}

export interface Judged {
  reviews: ChangeReview[];
  pr: { verdict: Verdict; gpusRequested: number; gpusNeeded: number | null };
  /** The catalog's weighing, for the report; null when the PR raised and added nothing. */
  catalogDemand: CatalogDemand | null;
  /** Each entry the PR declares for a change that adds GPUs, which nothing measured. */
  unsupported: MissingItem[];
}

export interface JudgeInput {
  changes: CapacityChange[];
  catalog: CatalogState;
  declared: readonly DraftEntry[];
  telemetry: ReviewTelemetry | null;
  measured: ReviewMeasurements | null;
  policy: Policy;
  /** Cohort queues the PR's files declare, as the base branch has them. */
  cohortQueues: readonly CohortQueue[];
}

/** Each change judged against the catalog's workloads (or, with none, what telemetry observed), then the PR. */
export function judge(input: JudgeInput): Judged {
  const { changes, catalog, telemetry, policy } = input;
  const contexts = (workloads: ChangeContext['workloads']): ChangeContext[] =>
    changes.map((change) => ({
      change,
      workloads,
      catalogFile: catalog.file,
      policy,
      telemetry: input.measured,
      rejected: catalog.kind === 'read' ? catalog.rejected : [],
      catalogError: catalog.kind === 'unreadable' ? catalog.error : null,
      cohortQueues: input.cohortQueues,
      ...(catalog.kind === 'absent' ? { inferred: inferredFor(change, input.declared, telemetry, policy) } : {}),
    }));
  const workloads = catalog.kind === 'read' ? catalog.workloads : catalog.kind === 'unreadable' ? [] : null;
  const reviews = reviewChanges(contexts(workloads));
  const pr = judgePr(changes, reviews);
  const judged = catalog.kind === 'read' ? catalog.judged : null;
  if (judged === null || judged.declared.length === 0) return { reviews, pr, catalogDemand: null, unsupported: [] };
  const { raised, declaredInPr, declared } = judged;
  // What the entries the PR declares would have made of it, taken as written, so the comment can show it.
  const written = judgePr(changes, reviewChanges(contexts(judged.asWritten)));
  return {
    reviews,
    pr,
    catalogDemand: {
      raised,
      declaredInPr,
      declared,
      gpusNeededWithHeadEntries: written.gpusNeeded,
      verdictWithHeadEntries: written.verdict,
    },
    unsupported: unsupportedDemand(judged, reviews, catalog.file),
  };
}

/**
 * The evidence each entry the PR declares lacks, when it links to a change that adds GPUs: what
 * nothing measured does not count, and says so where the review lists what is missing.
 */
function unsupportedDemand(judged: JudgedCatalog, reviews: readonly ChangeReview[], catalogFile: string): MissingItem[] {
  // What asks for GPUs: what adds them, and a swap to a model that asks for its head's GPUs.
  const growing = reviews.filter((r) => gpusAskedBy(r) > 0).map((r) => r.change);
  const byName = new Map(judged.asWritten.map((w) => [w.name, w]));
  return judged.declared.flatMap((d): MissingItem[] => {
    const w = byName.get(d.workload);
    if (d.support !== null || w === undefined || !growing.some((c) => runsIn(servedBy(c), w))) return [];
    const type = w.type === 'inference' ? 'service' : 'job';
    return [{ code: 'declared-demand', workload: d.workload, change: d.change, type, gpus: d.gpus, catalogFile }];
  });
}

function inferredFor(change: CapacityChange, declared: readonly DraftEntry[], telemetry: ReviewTelemetry | null, policy: Policy) {
  const observations = telemetry ? observationsFor(change, telemetry) : null;
  const days = (telemetry?.windowMinutes ?? policy.window) / 1440;
  return { workloads: inferredWorkloads([], entriesServing(declared, change), observations?.jobRuns ?? null, days), observations };
}
