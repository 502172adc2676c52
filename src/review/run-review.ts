import { withManifestLocations } from './manifest-locations.js';
import { detectChanges, PARSERS, withCost } from '../detect/index.js';
import type { Policy, ReviewResult } from '../domain/index.js';
import { toMeasurements } from '../telemetry/index.js';
import { assemble } from './assemble.js';
import { readCatalogState, weighCatalog } from './catalog-state.js';
import { cohortMembersAtHead, cohortQueuesOf } from './cohort-queues.js';
import { fillCatalog, judge } from './judge.js';
import { declaredEntries, measure } from './measure.js';
import { ownCoverage } from './own-coverage.js';
import { withContentDigests } from './content-digest.js';
import type { ReviewInput } from './input.js';

/**
 * The one review shared by the CLI, the Action and the App: detect → catalog → measure → fill →
 * judge → assemble. Bad user input becomes diagnostics; only I/O failures of the readers propagate.
 */
export async function runReview(input: ReviewInput): Promise<ReviewResult> {
  const { changes: changeSet, policy: loaded } = input;
  const policyErrors = loaded.diagnostics.filter((d) => d.severity === 'error');
  // An invalid policy fails closed: whatever it meant to say, it is judged as enforce.
  const policy: Policy = policyErrors.length > 0 ? { ...loaded.policy, mode: 'enforce' } : loaded.policy;

  const [paths, detected] = await Promise.all([changeSet.changedPaths(), detectChanges(changeSet, PARSERS)]);
  // Priced here, not in detect/, because the policy's prices override the catalog's defaults.
  const changes = detected.changes.map((c) => withCost(c, policy.prices));

  const catalog = await readCatalogState({
    ...(input.catalog ? { given: input.catalog } : {}),
    changes: changeSet,
    policy,
    needed: changes.length > 0,
  });
  const declared = await declaredEntries(changeSet, paths, catalog, input.telemetry?.at ?? new Date());
  const measured = await measure(input.telemetry, { changes, catalog, declared, policy, repo: changeSet });
  const diagnostics = [
    ...loaded.diagnostics,
    ...detected.diagnostics,
    ...(catalog.kind === 'read' || catalog.kind === 'unreadable' ? catalog.diagnostics : []),
    ...measured.diagnostics,
  ];
  const filled = fillCatalog(catalog, { changes, declared, telemetry: measured.telemetry, policy }, diagnostics);
  // Analysis reads measurements, each with its evidence, never the queries that took them.
  const measurements = measured.telemetry === null ? null : toMeasurements(measured.telemetry);
  const weighed = weighCatalog(filled.catalog, measurements, policy);

  const judged = judge({
    changes,
    catalog: weighed,
    declared,
    telemetry: measured.telemetry,
    measured: measurements,
    policy,
    cohortQueues: cohortQueuesOf(detected.declarations),
  });
  const assembled = assemble({
    input,
    paths,
    policy,
    policyErrors,
    changes,
    detected: {
      ...detected,
      coverage: await withContentDigests(changeSet, await ownCoverage(changeSet, policy.catalog, detected, input.catalog)),
    },
    catalog: weighed,
    diagnostics: filled.diagnostics,
    judged,
    telemetry: measured.telemetry,
  });
  // With no catalog the head's manifests were read already (declaredEntries): not read again.
  const headManifests = catalog.kind === 'absent' ? declared.map((e) => e.workload) : null;
  const members = cohortMembersAtHead(detected.declarations);
  return withManifestLocations(members.length === 0 ? assembled : { ...assembled, cohortMembers: members }, {
    head: changeSet.head,
    paths,
    read: headManifests,
  });
}
