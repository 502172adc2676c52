import { missingKey, type FileCoverage, type MissingEvidence, type MissingItem } from '../domain/index.js';

/** Each missing item once: two changes served by the same workloads lack the same evidence. */
export function uniqueMissing(items: readonly MissingEvidence[]): MissingEvidence[] {
  const seen = new Set<string>();
  return items.filter((m) => {
    const key = missingKey(m);
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** Every thing not followed in the PR, as missing evidence, in file order. */
export function coverageEvidence(coverage: readonly FileCoverage[]): MissingItem[] {
  return coverage.flatMap((c) => (c.notFollowed ?? []).map((item): MissingItem => ({ code: 'not-followed', item })));
}
