/**
 * A secret an upstream or a caller cut into two fields of one value (a log line's `user` and
 * `detail`, two strings of a list): each string alone holds only part of it, so the redactor,
 * which reads one string at a time, finds neither. Each string is read joined to the next in the
 * value's order, as JSON writes them; a secret found across the join is masked in both.
 */

/** Spans `[from, to)` of a text where the redactor finds a secret. */
export type SpansOf = (text: string) => readonly (readonly [number, number])[];

interface Leaf {
  holder: Record<string | number, unknown>;
  key: string | number;
  text: string;
}

/** Every string of `value` (plain objects and arrays, up to `maxDepth`), in the order JSON writes them. */
function leavesOf(value: unknown, maxDepth: number, out: Leaf[] = [], depth = 0): Leaf[] {
  if (value === null || typeof value !== 'object' || depth > maxDepth) return out;
  const holder = value as Record<string | number, unknown>;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    const v = holder[key];
    if (typeof v === 'string') out.push({ holder, key, text: v });
    else leavesOf(v, maxDepth, out, depth + 1);
  }
  return out;
}

/**
 * Masks, in place, each secret of at least `minLength` units that `spansOf` finds across the join
 * of two neighbouring strings of `value`, reading `width` units either side of the join (the
 * longest form of a secret); `masked` stands for each part.
 */
export function maskAcrossFields(
  value: unknown,
  spansOf: SpansOf,
  opts: { minLength: number; width: number; maxDepth: number; masked: string },
): void {
  const leaves = leavesOf(value, opts.maxDepth);
  for (let i = 0; i + 1 < leaves.length; i++) {
    const a = leaves[i] as Leaf;
    const b = leaves[i + 1] as Leaf;
    const tail = a.text.slice(-opts.width);
    const joined = tail + b.text.slice(0, opts.width);
    let cutA = a.text.length;
    let cutB = 0;
    for (const [from, to] of spansOf(joined)) {
      if (from >= tail.length || to <= tail.length || to - from < opts.minLength) continue;
      cutA = Math.min(cutA, a.text.length - tail.length + from);
      cutB = Math.max(cutB, to - tail.length);
    }
    if (cutB === 0) continue;
    a.text = a.text.slice(0, cutA) + opts.masked;
    b.text = opts.masked + b.text.slice(cutB);
    a.holder[a.key] = a.text;
    b.holder[b.key] = b.text;
  }
}
