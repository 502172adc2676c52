import { decodeOnce, identity, MAX_DEPTH } from './escape-readings.js';
import type { WideCharacters } from './escape-readings.js';
import { quotingReadings, withoutSoftBreaks } from './quoting-readings.js';
import { copyRun } from './reading.js';
import type { Reading } from './reading.js';

/**
 * Every reading of a text the redactor searches, in the order they are most likely to hold an
 * echoed secret, within a budget of characters: the text as written and plainly decoded first,
 * then those without what draws nothing or without line breaks, then quoting and dumps read off
 * them, then the other ways to read ambiguous escapes. Without a budget a text holding every
 * ambiguity at once gave a hundred readings, sixty times its length, two seconds for a 64 KB
 * comment on the App's thread; each reading is linear in the text, so the budget bounds the whole.
 */

/**
 * An HTML hex reference of more than two digits: `&#x2fd` may be `/d` (its `;` left out) and
 * `&#x326;` may be `2` before the secret's own `6;`.
 */
const AMBIGUOUS_HEX_REFERENCE = /&#[xX][0-9a-fA-F]{3}/;

/**
 * What a text holds where an ambiguous way reads it otherwise than the plain one: a bare
 * reference before an escape (every way but the plain one reads it extended, `&#10&#x30;`,
 * `&amp\x3b`); an escape's first character before another escape (`\\u0034`); a backslash
 * before a hex digit (CSS); a hex reference of three digits or more (`&#x2fd`); a backslash before
 * punctuation or a space (a secret's own `\` before `&`).
 */
const BARE_BEFORE_ESCAPE = '&[#0-9A-Za-z]{1,9}[%\\\\&=]';
const LATER_DIFFERS = new RegExp(`[%\\\\&=][%\\\\&=]|${BARE_BEFORE_ESCAPE}`);
const CSS_DIFFERS = new RegExp(`\\\\[0-9a-fA-F]|${BARE_BEFORE_ESCAPE}`);
const SHORT_DIFFERS = new RegExp(`&#[xX][0-9a-fA-F]{3}|${BARE_BEFORE_ESCAPE}`);
const LITERAL_DIFFERS = new RegExp(`\\\\[ !-/:-@[-\`{-~]|${BARE_BEFORE_ESCAPE}`);

/** Readings a plain chain starts from at most: the text, and ambiguous readings of it. */
const MAX_ROOTS = 4;

/**
 * Readings of one text at most by the ambiguous escape ways, besides the plain chains: each level
 * may multiply them where escapes are ambiguous.
 */
const MAX_ESCAPE_READINGS = 12;
/** Decodings made in looking for them, at most. */
const MAX_AMBIGUOUS_DECODES = 32;

/**
 * The characters of all readings of a text together, at most: this many times its length, and
 * never less than `READING_FLOOR` (a short text keeps every reading, as a long one does when it
 * holds few escapes).
 */
const READING_BUDGET = 16;
const READING_FLOOR = 1 << 18;

/**
 * What the secrets looked for hold, which some readings are made for alone: a backslash (only
 * then may one before punctuation be a secret's own), and the characters a bare hex reference of
 * three digits or more may spell (escape-readings.ts).
 */
export interface SecretTraits {
  backslash: boolean;
  wide: WideCharacters;
}
/** Traits of no secret known: every way is read. */
const ANY_SECRET: SecretTraits = { backslash: true, wide: new Set() };

/** What the readings of a text came to, for the benchmark. */
export interface ReadingsTally {
  kept: number;
  /** Readings left out for the budget. */
  dropped: number;
}

/**
 * The readings of `text`: as written, decoded once, twice…, up to `MAX_DEPTH` times, both ways
 * where an escape is ambiguous, through quoting and dumps, and without what draws nothing; the
 * same text is kept once, and readings past the budget are left out, the least likely last.
 */
export function readings(text: string, tally?: ReadingsTally, traits: SecretTraits = ANY_SECRET): Reading[] {
  const wide = traits.wide;
  const limit = Math.max(READING_FLOOR, READING_BUDGET * text.length);
  let used = 0;
  const out: Reading[] = [];
  const seen = new Set<string>();
  const keep = (r: Reading): boolean => {
    if (seen.has(r.text)) return false;
    if (used + r.text.length > limit) {
      if (tally) tally.dropped++;
      return false;
    }
    seen.add(r.text);
    used += r.text.length;
    out.push(r);
    if (tally) tally.kept++;
    return true;
  };
  // Whether a reading derived from `r` (never longer) may still fit: if not, it is not made.
  const room = (r: Reading): boolean => {
    if (used + r.text.length <= limit) return true;
    if (tally) tally.dropped++;
    return false;
  };
  const first = identity(text);
  keep(first);
  // The plain chain: every escape decoded the first way, once, twice, three times; from the text,
  // and from the text read where what a writer left out makes it ambiguous: without
  // quoted-printable's soft line breaks (a secret's own `=` may end a line), and with each HTML hex
  // reference that lacks its `;` before more hex digits read as two digits (HTML reads them all).
  // Either may be escaped itself (`=\r\n` in a JSON string, `\u0026#x2fd`): any step read so is
  // a root too, up to `MAX_ROOTS`.
  const roots = [first];
  const chain = new Set<string>();
  // Each step's plain decoding, which the ambiguous ways below start from again.
  const plainOf = new Map<Reading, Reading>();
  const steps: Reading[] = [];
  for (let k = 0; k < roots.length; k++) {
    const root = roots[k] as Reading;
    if (root !== first && !keep(root)) continue;
    chain.add(root.text);
    steps.push(root);
    let plain = root;
    for (let d = 0; ; d++) {
      const softless = withoutSoftBreaks(plain);
      if (softless !== plain && roots.length < MAX_ROOTS) roots.push(softless);
      if (AMBIGUOUS_HEX_REFERENCE.test(plain.text) && roots.length < MAX_ROOTS) roots.push(decodeOnce(plain, false, 'short', wide));
      if (d >= MAX_DEPTH || !room(plain)) break;
      const next = decodeOnce(plain);
      plainOf.set(plain, next);
      if (next === plain) break;
      plain = next;
      chain.add(plain.text);
      if (keep(plain)) steps.push(plain);
    }
  }
  // An upstream may wrap what it echoes (base64 at 76 columns, a long line broken for a log), or
  // colour it or slip something invisible inside (ANSI sequences, a zero-width space, a soft
  // hyphen): the text and every step of its plain decoding, also searched for a secret split over
  // two lines, are read again without what draws nothing and without line breaks and the
  // indentation after them. Every step, not the last alone: decoding may join what an escape left
  // with the secret's next characters into a new escape (`auth=` before `=30=39` reads `auth=09`,
  // then a tab), so a later step can lose what an earlier one shows.
  for (const r of steps) variants(r, true, keep, room);
  // Quoting that doubles a quote or reopens it (YAML, CSV, a shell command), hex dumps with
  // separators and JSON seams, off the text as written and plainly decoded (quoting-readings.ts);
  // all but the dumps are read, as the text is, for a secret split over two lines. Quoting may
  // wrap quoting (a shell-quoted word in a YAML single-quoted scalar doubles the shell's `'\''`)
  // and escapes (a quoted word echoed as JSON): each quoting reading is read once more through
  // its own quoting and once decoded, at most two levels, within the budget.
  // A reading met before by another way is read on all the same (`'\''` reads `'` both as shell
  // quoting and decoded): what it leads to is not.
  const expanded = new Set<string>();
  for (const r of steps) {
    if (!room(r)) continue;
    for (const q of quotingReadings(r, true)) {
      if (keep(q)) variants(q, !q.text.includes('\0'), keep, room);
      if (!seen.has(q.text) || q.text.includes('\0') || expanded.has(q.text)) continue;
      expanded.add(q.text);
      for (const inner of [...quotingReadings(q, false), decodeOnce(q)]) if (inner !== q && keep(inner)) variants(inner, false, keep, room);
    }
  }
  // The other readings of ambiguous escapes (`\\u0034`: an escaped backslash, or a backslash of
  // the secret before an escaped `4`?; a backslash before digits read as CSS writes it; a bare hex
  // reference as fewer digits; a backslash before punctuation kept, where a secret holds one),
  // level by level, each read through its quoting (an escape may hide a quote) and without what
  // draws nothing.
  const ambiguous: Reading[] = [];
  let level = roots.filter((r) => seen.has(r.text));
  // Each reading is decoded once whichever way led to it, and the decodings, each a pass over a
  // reading, are counted: with several roots a level would otherwise grow with every way.
  const visited = new Set(level.map((r) => r.text));
  let decodes = 0;
  for (let d = 0; d < MAX_DEPTH && level.length > 0; d++) {
    const next: Reading[] = [];
    // Each way but the first, with what a text must hold for it to read otherwise than the first
    // way: without that, it is not made (each is a pass over a long text, counted).
    const ways: [(r: Reading) => Reading, RegExp | null][] = [
      [(r) => plainOf.get(r) ?? decodeOnce(r), null],
      [(r) => decodeOnce(r, true), LATER_DIFFERS],
      [(r) => decodeOnce(r, false, 'css'), CSS_DIFFERS],
      [(r) => decodeOnce(r, false, 'short', wide), SHORT_DIFFERS],
    ];
    if (traits.backslash) ways.push([(r) => decodeOnce(r, false, 'literal'), LITERAL_DIFFERS]);
    for (const [way, differs] of ways) {
      for (const r of level) {
        if (ambiguous.length >= MAX_ESCAPE_READINGS || decodes >= MAX_AMBIGUOUS_DECODES || !room(r)) break;
        if (differs !== null && !differs.test(r.text)) continue;
        decodes++;
        const decoded = way(r);
        if (decoded === r) continue;
        // A way may leave quoted-printable soft breaks the plain chain never saw (`\3d \a ` read as
        // CSS writes it is `=` and a line break): the reading without them goes on too.
        const softless = withoutSoftBreaks(decoded);
        for (const d of softless === decoded ? [decoded] : [decoded, softless]) {
          if (visited.has(d.text)) continue;
          visited.add(d.text);
          // The plain chain is read already; its readings still lead on to the ambiguous ones.
          if (chain.has(d.text)) next.push(d);
          else if (keep(d)) {
            next.push(d);
            ambiguous.push(d);
          }
        }
      }
    }
    level = next;
  }
  for (const r of ambiguous) {
    variants(r, false, keep, room);
    if (room(r)) for (const q of quotingReadings(r, false)) if (keep(q)) variants(q, false, keep, room);
  }
  return out;
}

/**
 * `r` without what draws nothing, and with `lined` also without line breaks; `r` and the first
 * of those are then searched for a secret split over two lines.
 */
function variants(r: Reading, lined: boolean, keep: (r: Reading) => boolean, room: (r: Reading) => boolean): void {
  if (lined) r.lines = true;
  if (!room(r)) return;
  const visible = left(r, DRAWS_NOTHING_G);
  if (visible !== r) keep(visible);
  if (!lined) return;
  visible.lines = true;
  if (!room(r)) return;
  const joined = left(r, BREAKS_AND_NOTHING);
  if (joined !== r) keep(joined);
}

/**
 * What a terminal or a browser draws as nothing: ANSI escape sequences (CSI such as a colour, OSC
 * such as a title or a link, and two-character ones), other C0 and C1 controls but tab and line
 * breaks, and format and default-ignorable characters (zero-width, bidi, soft hyphen, variation
 * selectors, tags). A run of those stops before an escape character, so a sequence written right
 * after a zero-width character is still taken whole.
 */
const DRAWS_NOTHING =
  // eslint-disable-next-line no-control-regex -- the escape sequences and controls are what this finds.
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9a\x9c-\x9f\p{Cf}\p{Default_Ignorable_Code_Point}]+|[\x1b\x9b]/u;
const DRAWS_NOTHING_G = new RegExp(DRAWS_NOTHING.source, 'gu');
/** Line breaks and the spaces or tabs after each, and what draws nothing. */
const BREAKS_AND_NOTHING = new RegExp(`\\r?\\n[\\r\\n \\t]*|\\r[\\r\\n \\t]*|${DRAWS_NOTHING.source}`, 'gu');

/** `r` without what `pattern` (global) matches; `r` itself when it matches nothing. */
function left(r: Reading, pattern: RegExp): Reading {
  const s = r.text;
  const breaks = [...s.matchAll(pattern)];
  if (breaks.length === 0) return r;
  const start = new Int32Array(s.length);
  const end = new Int32Array(s.length);
  const parts: string[] = [];
  let n = 0;
  let copied = 0;
  for (const b of [...breaks, { index: s.length, 0: '' }]) {
    parts.push(s.slice(copied, b.index));
    copyRun(start, r.start, copied, b.index, n);
    copyRun(end, r.end, copied, b.index, n);
    n += b.index - copied;
    copied = b.index + b[0].length;
  }
  return { text: parts.join(''), start: start.subarray(0, n), end: end.subarray(0, n) };
}
