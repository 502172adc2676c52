import { coverageEvidence, uniqueMissing } from '../analysis/index.js';
import type { DetectedChanges } from '../detect/index.js';
import type { CapacityChange, Diagnostic, MissingItem, Policy, ReviewResult } from '../domain/index.js';
import type { ReviewTelemetry } from '../telemetry/index.js';
import type { CatalogState } from './catalog-state.js';
import type { Judged } from './judge.js';
import { POLICY_PATHS, type ReviewInput } from './input.js';

export interface Assembly {
  input: ReviewInput;
  paths: readonly string[];
  policy: Policy;
  policyErrors: Diagnostic[];
  changes: CapacityChange[];
  detected: DetectedChanges;
  catalog: CatalogState;
  diagnostics: Diagnostic[];
  judged: Judged;
  telemetry: ReviewTelemetry | null;
}

/**
 * The review's result: the PR's verdict (no confident one when a capacity file could not be read
 * or a changed file not followed: either might hide a GPU change), every missing item once, and
 * the context the report needs.
 */
export function assemble(a: Assembly): ReviewResult {
  const { detected, judged, policy, telemetry } = a;
  const unreadable = detected.diagnostics.filter((d) => d.severity === 'error');
  const notFollowed = detected.coverage.filter((c) => c.state === 'not-followed');
  const blind = unreadable.length > 0 || notFollowed.length > 0;
  const pr = blind ? { ...judged.pr, verdict: 'insufficient-evidence' as const, gpusNeeded: null } : judged.pr;
  // What the files leave unknown stays unknown, whatever the catalog says.
  const catalogDemand =
    judged.catalogDemand && blind
      ? { ...judged.catalogDemand, gpusNeededWithHeadEntries: null, verdictWithHeadEntries: 'insufficient-evidence' as const }
      : judged.catalogDemand;
  const missingEvidence = uniqueMissing([
    ...unreadable.map((d): MissingItem => ({
      code: 'file-unreadable',
      file: d.file,
      at: d.line === null ? d.file : `${d.file}:${d.line}`,
      message: d.message,
    })),
    // Files that could not be read have their item above.
    ...coverageEvidence(notFollowed.map((c) => ({ ...c, notFollowed: (c.notFollowed ?? []).filter((n) => n.reason !== 'unreadable') }))),
    ...judged.reviews.flatMap((r) => r.missingEvidence),
    ...judged.unsupported,
    ...(telemetry?.loadTestNotes ?? []),
  ]);
  const policyChangedInPr = a.paths.some((p) => (POLICY_PATHS as readonly string[]).includes(p));
  const catalogChangedInPr = (a.catalog.kind === 'read' || a.catalog.kind === 'unreadable') && a.catalog.changedInPr;
  return {
    ...pr,
    changes: a.changes,
    reviews: judged.reviews,
    findings: judged.reviews.flatMap((r) => r.findings),
    missingEvidence,
    diagnostics: a.diagnostics,
    ...(catalogDemand ? { catalogDemand } : {}),
    coverage: detected.coverage,
    context: {
      mode: policy.mode,
      headroom: policy.headroom,
      catalogFile: a.catalog.file,
      catalogChangedInPr,
      policyChangedInPr,
      ...(a.policyErrors.length > 0 ? { policyErrors: a.policyErrors } : {}),
      ...(a.input.policy.unread?.length ? { policyUnread: a.input.policy.unread } : {}),
      overrides: policy.overrides,
      ...(a.input.headSha === undefined ? {} : { headSha: a.input.headSha }),
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
      baseLabel: a.input.changes.base.label,
      headLabel: a.input.changes.head.label,
      ...(a.input.baseBranch === undefined ? {} : { baseBranch: a.input.baseBranch }),
    },
  };
}
