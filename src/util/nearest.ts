import { itemAt } from './indexed.js';

/** Both rows hold one cell per character of `b` and one more. */
const ROW = 'a row has b.length + 1 cells';

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next.push(Math.min(itemAt(row, j, ROW) + 1, itemAt(next, j - 1, ROW) + 1, itemAt(row, j - 1, ROW) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    row = next;
  }
  return itemAt(row, b.length, ROW);
}

/**
 * The candidate a mistyped name most likely meant: equal but for case, or within two edits (one
 * for names of four characters or fewer, where two edits reach unrelated words). Null when none
 * is that near, so a "did you mean" is only offered when it is likely right.
 */
export function nearest(input: string, candidates: Iterable<string>): string | null {
  if (input.length > 100) return null;
  const typed = input.toLowerCase();
  const reach = typed.length <= 4 ? 1 : 2;
  let best: { value: string; distance: number } | null = null;
  for (const value of candidates) {
    if (value === input) continue;
    const distance = value.toLowerCase() === typed ? 0 : editDistance(typed, value.toLowerCase());
    if (distance <= reach && (best === null || distance < best.distance)) best = { value, distance };
  }
  return best?.value ?? null;
}
