import { reviewChange } from './analysis/review-change.js';
import { coverageEvidence, uniqueMissing } from './analysis/missing.js';
import { judgedCatalog, type JudgedCatalog } from './analysis/catalog-demand.js';
import { judgePr } from './analysis/review-pr.js';
import { withCost } from './detect/cost.js';
import { detectChanges } from './detect/detect-changes.js';
import type { ParseOffload } from './detect/parse-pool.js';
import { PARSERS } from './detect/registry.js';
import { inferredWorkloads } from './analysis/inferred-workloads.js';
import { fillUnknownFields } from './fill-unknown.js';
import type {
  CapacityChange,
  CatalogDemand,
  ChangeSet,
  Diagnostic,
  MeasurableWorkload,
  PartialJobWorkload,
  MissingItem,
  Policy,
  ReviewResult,
  Workload,
} from './domain/index.js';
import { collectTelemetry, type ReviewTelemetry, type TelemetryInput } from './telemetry/collect.js';
import { toMeasurements } from './telemetry/measure/to-measurements.js';
import { parseCatalog, type RejectedWorkload } from './workloads/catalog.js';
import { withTrustedQueries } from './workloads/trusted-queries.js';
import { observationsFor } from './telemetry/observations.js';
import { scopeForChange } from './telemetry/scopes.js';
import { draftEntries } from './workloads/draft-entries.js';
import { declaredInTree } from './workloads/manifests/read-tree.js';

export const POLICY_PATHS = ['.github/gpu-justify.yml', '.github/gpu-justify.yaml'] as const;

export interface LoadedPolicy {
  policy: Policy;
  diagnostics: Diagnostic[];
  /** Where it was read from; null when defaults apply. */
  file: string | null;
}

export interface ReviewInput {
  changes: ChangeSet;
  policy: LoadedPolicy;
  headSha?: string;
  /** A catalog given outright (the CLI's `--catalog`), instead of the one in the head side. */
  catalog?: { file: string; text: string };
  /** What the cluster does now; without it the review judges from the files alone. */
  telemetry?: TelemetryInput;
  /** Where large files are parsed off this thread (the App's workers); in-process without it. */
  offload?: ParseOffload;
}

/**
 * The one review shared by the CLI, the Action and the App: detect → workloads → analysis.
 * Bad user input becomes diagnostics; only I/O failures of the readers propagate.
 */
export async function runReview(input: ReviewInput): Promise<ReviewResult> {
  const { changes: changeSet, policy: loaded } = input;
  const policyErrors = loaded.diagnostics.filter((d) => d.severity === 'error');
  // An invalid policy fails closed: whatever it meant to say, it is judged as enforce.
  const policy: Policy = policyErrors.length > 0 ? { ...loaded.policy, mode: 'enforce' } : loaded.policy;
  const [paths, detected] = await Promise.all([
    changeSet.changedPaths(),
    detectChanges(changeSet, PARSERS, input.offload ? { offload: input.offload } : {}),
  ]);
  // Priced here, not in detect/, because the policy's prices override the catalog's defaults.
  const changes = detected.changes.map((c) => withCost(c, policy.prices));
  const diagnostics: Diagnostic[] = [...loaded.diagnostics, ...detected.diagnostics];

  const catalogFile = input.catalog?.file ?? policy.catalog;
  let workloads: Workload[] | null = null;
  let rejected: RejectedWorkload[] = [];
  let catalogError: Diagnostic | null = null;
  let measurable: MeasurableWorkload[] | null = null;
  let catalogChangedInPr = false;
  let judged: JudgedCatalog | null = null;
  let headWorkloads: Workload[] | null = null;
  let noCatalog = false;
  // The catalog is read only when there is something to judge: most PRs touch no GPUs.
  if (changes.length > 0) {
    const [headText, baseText] = input.catalog
      ? [input.catalog.text, input.catalog.text]
      : await Promise.all([changeSet.head.read(catalogFile), changeSet.base.read(catalogFile)]);
    catalogChangedInPr = headText !== null && headText !== baseText;
    noCatalog = headText === null;
    if (headText !== null) {
      const catalog = parseCatalog(catalogFile, headText);
      diagnostics.push(...catalog.diagnostics);
      workloads = catalog.workloads;
      rejected = catalog.rejected;
      catalogError = catalog.unreadable;
      const baseWorkloads = !catalogChangedInPr
        ? catalog.workloads
        : baseText === null
          ? null
          : parseCatalog(catalogFile, baseText).workloads;
      if (policy.mode === 'enforce' && catalogChangedInPr) {
        // The PR may document new workloads, not inflate the ones it is judged against.
        judged = judgedCatalog(baseWorkloads ?? [], catalog.workloads);
        headWorkloads = catalog.workloads;
        workloads = judged.workloads;
      }
      if (input.telemetry) {
        // Entries with an `unknown` runtime or start are measured too: their runs may fill them.
        const trusted = withTrustedQueries([...workloads, ...partialsOf(rejected)], baseWorkloads, catalogFile);
        diagnostics.push(...trusted.diagnostics);
        measurable = trusted.workloads;
      }
    }
  }

  // With no catalog, the workloads come from the repository's manifests and telemetry instead; an
  // entry that leaves its runtime or start `unknown` is filled from them.
  const partials = partialsOf(rejected);
  const declared =
    noCatalog || partials.length > 0 ? draftEntries(await declaredInTree(changeSet.head, paths), input.telemetry?.at ?? new Date()) : [];
  const linkedEntries = (change: CapacityChange) =>
    declared.filter((e) => (change.kind === 'kueue-cluster-queue' ? e.workload.clusterQueue?.name : e.workload.pool?.name) === change.name);
  const linkedPartials = (change: CapacityChange) =>
    partials.filter((p) => (change.kind === 'kueue-cluster-queue' ? p.queue : p.pool) === change.name);
  const runNamespaces = (change: CapacityChange): string[] =>
    noCatalog
      ? linkedEntries(change).flatMap((e) => (e.workload.namespace === null ? [] : [e.workload.namespace]))
      : linkedPartials(change).flatMap((p) => {
          const ns = p.selector?.['namespace'] ?? declared.find((e) => e.name === p.name)?.workload.namespace;
          return ns === undefined || ns === null ? [] : [ns];
        });
  // Measured when there is something to judge: the catalog's workloads, or with none the changes themselves.
  const measuring = input.telemetry !== undefined && (measurable !== null || noCatalog) && changes.length > 0;
  const telemetry: ReviewTelemetry | null =
    input.telemetry && measuring
      ? await collectTelemetry(input.telemetry, {
          changes,
          workloads: measurable ?? [],
          windowMinutes: policy.window,
          repo: changeSet.head,
          ...(noCatalog || partials.length > 0 ? { inferred: jobNamespaces(changes, runNamespaces) } : {}),
        })
      : null;
  if (workloads !== null && partials.length > 0) {
    const days = (telemetry?.windowMinutes ?? policy.window) / 1440;
    const fill = fillUnknownFields(
      rejected,
      declared,
      (p) => {
        const change = changes.find((c) => linkedPartials(c).includes(p));
        return change && telemetry ? (observationsFor(change, telemetry).jobRuns ?? null) : null;
      },
      days,
    );
    workloads = [...workloads, ...fill.workloads];
    if (headWorkloads !== null) headWorkloads = [...headWorkloads, ...fill.workloads];
    rejected = fill.rejected;
    for (const [i, d] of diagnostics.entries()) diagnostics[i] = fill.replaced.get(d) ?? d;
  }
  const inferredFor = (change: CapacityChange) => {
    const observations = telemetry ? observationsFor(change, telemetry) : null;
    const days = (telemetry?.windowMinutes ?? policy.window) / 1440;
    return { workloads: inferredWorkloads([], linkedEntries(change), observations?.jobRuns ?? null, days), observations };
  };
  // Analysis reads measurements, each with its evidence, never the queries that took them.
  const measured = telemetry === null ? null : toMeasurements(telemetry);
  const reviews = changes.map((change) =>
    reviewChange({
      change,
      workloads,
      catalogFile,
      policy,
      telemetry: measured,
      rejected,
      catalogError,
      ...(noCatalog ? { inferred: inferredFor(change) } : {}),
    }),
  );
  // A capacity file that cannot be read, or one whose effect was not followed, might hide a GPU
  // change: no confident verdict then.
  const unreadable = detected.diagnostics.filter((d) => d.severity === 'error');
  const notFollowed = detected.coverage.filter((c) => c.state === 'not-followed');
  const verdict = judgePr(changes, reviews);
  const pr =
    unreadable.length > 0 || notFollowed.length > 0 ? { ...verdict, verdict: 'insufficient-evidence' as const, gpusNeeded: null } : verdict;
  // What the head's raised entries would have made needed, so the comment can show it.
  const withHeadEntries = (): number | null =>
    judgePr(
      changes,
      changes.map((change) =>
        reviewChange({ change, workloads: headWorkloads, catalogFile, policy, telemetry: measured, rejected, catalogError }),
      ),
    ).gpusNeeded;
  const catalogDemand = judged ? demandOf(judged, withHeadEntries) : null;
  const missingEvidence = uniqueMissing([
    ...unreadable.map((d): MissingItem => ({
      code: 'file-unreadable',
      file: d.file,
      at: d.line === null ? d.file : `${d.file}:${d.line}`,
      message: d.message,
    })),
    // Files that could not be read have their item above.
    ...coverageEvidence(notFollowed.map((c) => ({ ...c, notFollowed: (c.notFollowed ?? []).filter((n) => n.reason !== 'unreadable') }))),
    ...reviews.flatMap((r) => r.missingEvidence),
  ]);
  const policyChangedInPr = paths.some((p) => (POLICY_PATHS as readonly string[]).includes(p));

  return {
    ...pr,
    changes,
    reviews,
    findings: reviews.flatMap((r) => r.findings),
    missingEvidence,
    diagnostics,
    ...(catalogDemand ? { catalogDemand } : {}),
    coverage: detected.coverage,
    context: {
      mode: policy.mode,
      headroom: policy.headroom,
      catalogFile,
      catalogChangedInPr,
      policyChangedInPr,
      ...(policyErrors.length > 0 ? { policyErrors } : {}),
      overrides: policy.overrides,
      ...(input.headSha === undefined ? {} : { headSha: input.headSha }),
      ...(telemetry === null
        ? {}
        : {
            telemetry: {
              source: telemetry.source,
              at: telemetry.at,
              windowMinutes: telemetry.windowMinutes,
              ...(telemetry.evidence.down === undefined ? {} : { outage: telemetry.evidence.down }),
            },
          }),
      baseLabel: changeSet.base.label,
      headLabel: changeSet.head.label,
    },
  };
}

/** The catalog entries a review may fill: an `unknown` runtime or start, the deadline stated. */
function partialsOf(rejected: readonly RejectedWorkload[]): PartialJobWorkload[] {
  return rejected.flatMap((r) => (r.partial ? [r.partial.workload] : []));
}

/** Per changed scope (`pool:<name>`, `queue:<name>`), the namespaces whose Job runs are asked for. */
function jobNamespaces(changes: readonly CapacityChange[], namespaces: (c: CapacityChange) => string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of changes) {
    const scope = scopeForChange(c);
    if (scope === null) continue;
    const ns = namespaces(c);
    out.set(`${scope.kind}:${scope.name}`, [...new Set([...(out.get(`${scope.kind}:${scope.name}`) ?? []), ...ns])].sort());
  }
  return out;
}

/** The catalog's weighing, for the report; null when the PR raised and added nothing. */
function demandOf(judged: JudgedCatalog, withHeadEntries: () => number | null): CatalogDemand | null {
  if (judged.raised.length === 0 && judged.declaredInPr.length === 0) return null;
  const { raised, declaredInPr } = judged;
  return { raised, declaredInPr, gpusNeededWithHeadEntries: raised.length > 0 ? withHeadEntries() : null };
}
