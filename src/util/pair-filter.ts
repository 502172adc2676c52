/**
 * A quick test of whether a text may hold a key, before searching it: the pairs of neighbouring
 * characters a text holds, hashed into a table, against each key's pairs. A key whose pair is
 * missing is not in the text, and its search (a pass over the text) is skipped; hashing may only
 * keep a key that is absent, never drop one that is there. The redactor searches every reading of
 * a long comment for some two hundred keys (each secret's forms): a text of escapes holds few
 * pairs, so most of those passes are skipped.
 */

const TABLE = 1 << 16;
/** Pairs of a key looked up at most: enough to rule out a key, cheap for a private key's lines. */
const PAIRS_CHECKED = 24;

const pairOf = (s: string, i: number): number => (s.charCodeAt(i) * 31 + s.charCodeAt(i + 1)) & (TABLE - 1);

/** The hashed pairs of `key` looked up, spread over it, each once. */
export function keyPairs(key: string): Uint16Array {
  const pairs = new Set<number>();
  const count = key.length - 1;
  const step = Math.max(1, Math.floor(count / PAIRS_CHECKED));
  for (let i = 0; i < count && pairs.size < PAIRS_CHECKED; i += step) pairs.add(pairOf(key, i));
  // Its last pair too, which the steps may pass over.
  if (count > 0) pairs.add(pairOf(key, count - 1));
  return Uint16Array.from(pairs);
}

/** The pairs a text holds; `table` is reused across texts to spare the collector. */
export function textPairs(text: string, table: Uint8Array = new Uint8Array(TABLE)): Uint8Array {
  table.fill(0);
  for (let i = 0; i + 1 < text.length; i++) table[pairOf(text, i)] = 1;
  return table;
}

/** Whether a text with `table`'s pairs may hold a key with `pairs`. */
export function mayHold(table: Uint8Array, pairs: Uint16Array): boolean {
  for (const p of pairs) if (table[p] === 0) return false;
  return true;
}
