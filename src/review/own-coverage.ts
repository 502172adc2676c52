import type { DetectedChanges } from '../detect/detect-changes.js';
import type { ChangeSet, FileCoverage } from '../domain/index.js';
import { parseCatalog } from '../workloads/catalog.js';
import { namedLoadTests, withOwnInputs } from '../workloads/own-inputs.js';
import { POLICY_PATHS } from './input.js';

/**
 * Detection's coverage with the review's own inputs — the catalog, the policy and the load tests
 * the catalog names — read rather than not followed, where each side is wholly such an input.
 */
export async function ownCoverage(changes: ChangeSet, catalogFile: string, detected: DetectedChanges): Promise<FileCoverage[]> {
  const loadTests = await catalogLoadTests(changes, catalogFile, detected.coverage);
  return withOwnInputs(detected.coverage, { catalog: catalogFile, policies: POLICY_PATHS, loadTests }, changes);
}

/**
 * The load tests the catalog names at either side, read only when a changed file is not followed
 * (most reviews need none of this).
 */
async function catalogLoadTests(changes: ChangeSet, catalogFile: string, coverage: readonly FileCoverage[]): Promise<string[]> {
  if (!coverage.some((c) => c.state === 'not-followed' && c.file !== catalogFile)) return [];
  const texts = await Promise.all([changes.base.read(catalogFile), changes.head.read(catalogFile)]);
  return texts.flatMap((t) => (t === null ? [] : namedLoadTests(parseCatalog(catalogFile, t).workloads)));
}
