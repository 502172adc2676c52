import { reviewChange } from './analysis/review-change.js';
import { coverageEvidence, uniqueMissing } from './analysis/missing.js';
import { judgeCatalog, measuredEntries, splitCatalog, type CatalogSplit, type JudgedCatalog } from './analysis/catalog-demand.js';
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
  FileCoverage,
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
import { namedLoadTests, withOwnInputs } from './workloads/own-inputs.js';
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
  /**
   * Policy files the chain names that could not be read whole (absent, not visible to the App,
   * refused, invalid YAML, a loop): the policy is not known, so no override is accepted under it.
   */
  unread?: string[];
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
  let split: CatalogSplit | null = null;
  let judged: JudgedCatalog | null = null;
  let headWorkloads: Workload[] | null = null;
  /** Entries the base branch's catalog has, whole or with `unknown` fields: a filled one of these is not the PR's. */
  let baseNames = new Set<string>();
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
      const baseCatalog = !catalogChangedInPr ? catalog : baseText === null ? null : parseCatalog(catalogFile, baseText);
      const baseWorkloads = baseCatalog?.workloads ?? null;
      baseNames = new Set([...(baseWorkloads ?? []), ...partialsOf(baseCatalog?.rejected ?? [])].map((w) => w.name));
      if (catalogChangedInPr) {
        // The PR may document new workloads, not write the demand that justifies it: what it adds
        // or raises is measured, as the base has it where it has it, and judged once measured.
        split = splitCatalog(baseWorkloads ?? [], catalog.workloads);
        workloads = measuredEntries(split);
      }
      if (input.telemetry) {
        // Entries with an `unknown` runtime or start are measured too: their runs may fill them.
        const trusted = withTrustedQueries([...workloads, ...partialsOf(rejected)], baseWorkloads, catalogFile);
        diagnostics.push(...trusted.diagnostics);
        measurable = trusted.workloads;
      }
    }
  }

  // With no catalog, the workloads come from the repository's manifests and telemetry instead (they
  // never justify an increase by themselves). An entry that leaves its runtime or start `unknown` is
  // filled from the manifests as the base branch has them: a manifest the PR adds or edits cannot set
  // the start (a CronJob's schedule) or the namespace measured for the entry it is judged by.
  const partials = partialsOf(rejected);
  const declaredOn = noCatalog ? changeSet.head : partials.length > 0 ? changeSet.base : null;
  const declared = declaredOn === null ? [] : draftEntries(await declaredInTree(declaredOn, paths), input.telemetry?.at ?? new Date());
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
          base: changeSet.base,
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
    rejected = fill.rejected;
    for (const [i, d] of diagnostics.entries()) diagnostics[i] = fill.replaced.get(d) ?? d;
  }
  // Analysis reads measurements, each with its evidence, never the queries that took them.
  const measured = telemetry === null ? null : toMeasurements(telemetry);
  if (split !== null && workloads !== null) {
    const filled = workloads.slice(split.entries.length);
    judged = judgeCatalog(split, measured, policy, { workloads: filled, baseNames });
    workloads = judged.workloads;
    headWorkloads = judged.asWritten;
  }
  const inferredFor = (change: CapacityChange) => {
    const observations = telemetry ? observationsFor(change, telemetry) : null;
    const days = (telemetry?.windowMinutes ?? policy.window) / 1440;
    return { workloads: inferredWorkloads([], linkedEntries(change), observations?.jobRuns ?? null, days), observations };
  };
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
  const coverage = await withOwnInputs(
    detected.coverage,
    { catalog: catalogFile, policies: POLICY_PATHS, loadTests: await catalogLoadTests(changeSet, catalogFile, detected.coverage) },
    changeSet,
  );
  const notFollowed = coverage.filter((c) => c.state === 'not-followed');
  const verdict = judgePr(changes, reviews);
  const pr =
    unreadable.length > 0 || notFollowed.length > 0 ? { ...verdict, verdict: 'insufficient-evidence' as const, gpusNeeded: null } : verdict;
  // What the entries the PR declares would have made of it, taken as written, so the comment can show it.
  const withHeadEntries = (): { verdict: ReviewResult['verdict']; gpusNeeded: number | null } => {
    const written = judgePr(
      changes,
      changes.map((change) =>
        reviewChange({ change, workloads: headWorkloads, catalogFile, policy, telemetry: measured, rejected, catalogError }),
      ),
    );
    // What the files leave unknown stays unknown, whatever the catalog says.
    return unreadable.length > 0 || notFollowed.length > 0 ? { verdict: 'insufficient-evidence', gpusNeeded: null } : written;
  };
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
    ...(judged ? unsupportedDemand(judged, changes, catalogFile) : []),
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
    coverage,
    context: {
      mode: policy.mode,
      headroom: policy.headroom,
      catalogFile,
      catalogChangedInPr,
      policyChangedInPr,
      ...(policyErrors.length > 0 ? { policyErrors } : {}),
      ...(loaded.unread?.length ? { policyUnread: loaded.unread } : {}),
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
function demandOf(
  judged: JudgedCatalog,
  withHeadEntries: () => { verdict: ReviewResult['verdict']; gpusNeeded: number | null },
): CatalogDemand | null {
  if (judged.declared.length === 0) return null;
  const { raised, declaredInPr, declared } = judged;
  const written = withHeadEntries();
  return { raised, declaredInPr, declared, gpusNeededWithHeadEntries: written.gpusNeeded, verdictWithHeadEntries: written.verdict };
}

/**
 * The evidence each entry the PR declares lacks, when it links to a change that adds GPUs: what
 * nothing measured does not count, and says so where the review lists what is missing.
 */
function unsupportedDemand(judged: JudgedCatalog, changes: readonly CapacityChange[], catalogFile: string): MissingItem[] {
  const growing = changes.filter((c) => c.delta > 0 && c.kind !== 'gpu-sharing');
  const linked = (w: Workload): boolean => growing.some((c) => (c.kind === 'kueue-cluster-queue' ? w.queue : w.pool) === c.name);
  const byName = new Map(judged.asWritten.map((w) => [w.name, w]));
  return judged.declared.flatMap((d): MissingItem[] => {
    const w = byName.get(d.workload);
    if (d.support !== null || w === undefined || !linked(w)) return [];
    return [
      {
        code: 'declared-demand',
        workload: d.workload,
        change: d.change,
        type: w.type === 'inference' ? 'service' : 'job',
        gpus: d.gpus,
        catalogFile,
      },
    ];
  });
}

/**
 * The load tests the catalog names at either side, read only when a changed file is not followed
 * (most reviews need none of this).
 */
async function catalogLoadTests(changeSet: ChangeSet, catalogFile: string, coverage: readonly FileCoverage[]): Promise<string[]> {
  if (!coverage.some((c) => c.state === 'not-followed' && c.file !== catalogFile)) return [];
  const texts = await Promise.all([changeSet.base.read(catalogFile), changeSet.head.read(catalogFile)]);
  return texts.flatMap((t) => (t === null ? [] : namedLoadTests(parseCatalog(catalogFile, t).workloads)));
}
