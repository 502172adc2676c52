/**
 * Characters that change what a reader sees without being seen: bidirectional controls (U+202A–
 * U+202E, U+2066–U+2069, U+200E/F, U+061C), which reorder the text around them (`8 → 4` shown as
 * `4 → 8`); zero-width and other invisible characters (U+200B–U+200D, U+2060–U+2064, U+FEFF,
 * U+180E, the Hangul fillers), which hide or join what looks apart; tag characters (U+E0000–
 * U+E007F); variation selectors; every other format character (Cf) and control character (Cc),
 * and the line and paragraph separators. That is Unicode's `Default_Ignorable_Code_Point` with
 * `Cf` and `Cc`: none of them belongs in a name a reviewer must read as it is. Braille's blank
 * pattern (U+2800), a graphic character that every font draws as nothing, hides alike.
 *
 * Tab, line feed and carriage return are left to the caller (Markdown and logs treat them).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\u2028\u2029\u2800]/gu;
const KEPT_CONTROLS = new Set(['\t', '\n', '\r']);

/** An emoji a variation selector may follow, or that a zero-width joiner may join. */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const VS15 = '\uFE0E';
const VS16 = '\uFE0F';
const ZWJ = '\u200D';

/** How an invisible character is written where a reader can see it: `⟨U+202E⟩`. */
function codePointLabel(char: string): string {
  return `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** The character before `offset` in `text`, whole (a surrogate pair too). */
function before(text: string, offset: number): string {
  const low = text.charCodeAt(offset - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && offset >= 2;
  return text.slice(pair ? offset - 2 : offset - 1, offset);
}

/**
 * Emoji keep what makes them emoji: a variation selector right after a pictograph, a zero-width
 * joiner between two (👩‍💻). Anywhere else either is one more invisible character.
 */
function emojiPart(char: string, text: string, offset: number): boolean {
  if (char === VS15 || char === VS16) return PICTOGRAPH.test(before(text, offset));
  if (char !== ZWJ) return false;
  const previous = before(text, offset);
  const next = String.fromCodePoint(text.codePointAt(offset + 1) ?? 0);
  return (PICTOGRAPH.test(previous) || previous === VS16) && PICTOGRAPH.test(next);
}

/**
 * Right-to-left characters: every code point whose bidi class is R or AL, assigned or not (the
 * blocks Unicode reserves for right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, NKo …, their
 * presentation forms, and the historic and Adlam planes). One in a name makes a browser lay out
 * the numbers and punctuation that follow it right to left too: `קו: 8 → 4` shows as `4 → 8 :קו`
 * with no control character at all.
 */
const RTL = '\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}';
/**
 * A run of right-to-left text: its characters and what lies between them short of a letter, a
 * digit or a line break, so a phrase keeps its own order but a number beside it stays outside.
 */
const RTL_RUN = new RegExp(`[${RTL}](?:[^\\p{L}\\p{N}\\r\\n]*[${RTL}])*`, 'gu');
/** First strong isolate and pop directional isolate: Unicode's way to keep a run's direction in. */
const FSI = '\u2068';
const PDI = '\u2069';
/** A run as `visible` writes it: kept whole when met again, so `visible` is idempotent. */
const ISOLATED = new RegExp(`${FSI}(${RTL_RUN.source})${PDI}`, 'gu');

/**
 * `text` with every invisible character written visibly (`⟨U+202E⟩`), so what the reader sees is
 * what the text holds, in the order it holds it, and each run of right-to-left text isolated
 * (`⁨…⁩`, U+2068 … U+2069) so it cannot carry what follows it into its own direction. Other
 * visible characters are untouched.
 */
export function visible(text: string): string {
  let out = '';
  let at = 0;
  // Runs isolated already (this text was made visible before) stay as they are.
  for (const m of text.matchAll(ISOLATED)) {
    out += visibleRuns(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + visibleRuns(text.slice(at));
}

/**
 * `text`, cut from a longer one made visible, with each isolate the cut left open closed: an open
 * one would take in everything after it to the end of its paragraph.
 */
export function closeIsolates(text: string): string {
  let open = 0;
  for (const ch of text) {
    if (ch === FSI) open++;
    else if (ch === PDI && open > 0) open--;
  }
  return text + PDI.repeat(open);
}

function visibleRuns(text: string): string {
  return text
    .replace(INVISIBLE, (char: string, offset: number) =>
      KEPT_CONTROLS.has(char) || emojiPart(char, text, offset) ? char : codePointLabel(char),
    )
    .replace(RTL_RUN, (run) => `${FSI}${run}${PDI}`);
}

/**
 * JSON text (as `JSON.stringify` writes it) with each invisible character as a `\uXXXX` escape:
 * the same data to a parser, and nothing hidden or reordered on a terminal. Outside strings such
 * JSON holds only spaces and line breaks, so every character replaced is inside a string.
 */
export function jsonWithVisibleEscapes(json: string): string {
  return json.replace(INVISIBLE, (char: string) =>
    KEPT_CONTROLS.has(char)
      ? char
      : char
          .split('')
          .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
          .join(''),
  );
}

/** Whether `text` holds a character `visible` would write out. */
export function hasInvisible(text: string): boolean {
  return visible(text) !== text;
}

/** A copy of a JSON-like value with every string made visible (log fields). */
export function visibleDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return visible(value) as T;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => visibleDeep(v, depth + 1)) as T;
  if (value instanceof Error || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[visible(k)] = visibleDeep(v, depth + 1);
  return out as T;
}
