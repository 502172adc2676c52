import type { DetectedChanges } from '../detect/index.js';
import type { ChangeSet, FileCoverage } from '../domain/index.js';
import { readOrWhy } from '../domain/index.js';
import { namedLoadTests, parseCatalog, withOwnInputs } from '../workloads/index.js';
import { POLICY_PATHS } from './input.js';

/**
 * Detection's coverage with the review's own inputs — the catalog, the policy and the load tests
 * the catalog names — read rather than not followed, where each side is wholly such an input. The
 * catalog is the policy's path even when one is given outright (the CLI's `--catalog`): a catalog
 * is demand, never capacity, and the given one's load tests are the ones read.
 */
export async function ownCoverage(
  changes: ChangeSet,
  catalogFile: string,
  detected: DetectedChanges,
  given?: { text: string; base?: string | null },
): Promise<FileCoverage[]> {
  const loadTests = await catalogLoadTests(changes, catalogFile, detected.coverage, given);
  return withOwnInputs(detected.coverage, { catalog: catalogFile, policies: POLICY_PATHS, loadTests }, changes);
}

/**
 * The load tests the catalog names at either side, read only when a changed file is not followed
 * (most reviews need none of this). A catalog given outright (the CLI's `--catalog`) is both
 * sides, or its head, beside the base side's copy, when it is the repository's own.
 */
async function catalogLoadTests(
  changes: ChangeSet,
  catalogFile: string,
  coverage: readonly FileCoverage[],
  given: { text: string; base?: string | null } | undefined,
): Promise<string[]> {
  if (!coverage.some((c) => c.state === 'not-followed' && c.file !== catalogFile)) return [];
  const texts = given
    ? [given.text, given.base]
    : await Promise.all([readOrWhy(changes.base, catalogFile), readOrWhy(changes.head, catalogFile)]);
  return texts.flatMap((t) => (typeof t !== 'string' ? [] : namedLoadTests(parseCatalog(catalogFile, t).workloads)));
}
