import type { MissingEvidence } from '../domain/index.js';

/** Each missing item once: two changes served by the same workloads lack the same evidence. */
export function uniqueMissing(items: readonly MissingEvidence[]): MissingEvidence[] {
  const seen = new Set<string>();
  return items.filter((m) => {
    const key = `${m.what}\n${m.how}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}
