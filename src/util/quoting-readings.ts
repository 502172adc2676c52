import { copyRun } from './reading.js';
import type { Reading } from './reading.js';

/**
 * Readings of a text through quoting that writes a character twice or around itself rather than
 * behind an escape, and through hex dumps that put something between the bytes:
 * - a quote doubled inside a quoted string: YAML's single-quoted scalars (`'it''s'`), CSV and SQL
 *   (`"say ""hi"""`);
 * - a single quote closed, escaped and reopened, as a shell command is echoed (`'it'\''s'`);
 * - hex bytes written with separators or prefixes (`70 26 73`, `70:26:73`, `0x70,0x26`), as
 *   `xxd`, Go's `% x` and byte-array dumps write them, and UTF-16 units the same way (`0070 0026`);
 * - two JSON strings read as one across the seam between them (`"p&s","b":"w/d"`), as a secret an
 *   upstream cut into two fields is read;
 * - quoted-printable's soft line breaks (`=` at a line's end) left out, a reading apart.
 * Each maps every character back to the span of the text it came from, as escape-readings.ts does.
 */

/**
 * A run of eight hex bytes or more with a separator or a `0x` before each (`70 26 …`,
 * `0x70,0x26,…`, `70:26:…`): the redactor looks for a secret as hex only from 8 characters on.
 */
const HEX_DUMP = /(?<![0-9A-Za-z])(?:0[xX])?[0-9a-fA-F]{2}(?:(?:, ?|[ :.-])(?:0[xX])?[0-9a-fA-F]{2}){7,}(?![0-9A-Za-z])/g;
/**
 * A run of eight UTF-16 units or more written as four hex digits each with a separator or a `0x`
 * before some or each (`0070 0026 …`, `0x0070, 0x0026`, `00700026 0073`): a string's units dumped
 * as a debugger shows them, or a surrogate pair's two units written together. A run with no
 * separator at all is the text itself, read already.
 */
const UNIT_DUMP = /(?<![0-9A-Za-z])(?:0[xX])?[0-9a-fA-F]{4}(?:(?:, ?|[ :.-])?(?:0[xX])?[0-9a-fA-F]{4}){7,}(?![0-9A-Za-z])/g;
const ALL_HEX = /^[0-9a-fA-F]+$/;
/** Within a run: what is not a hex digit of a byte or a unit. */
const NOT_BYTE = /0[xX](?=[0-9a-fA-F]{2})|, ?|[ :.-]/g;
/**
 * Where one JSON string ends and the next begins, in an object (`","b":"`) or a list (`", "`): a
 * secret an upstream cut into two fields is read with the seam left out. A key is short and plain.
 */
const JSON_SEAM = /"\s*,\s*"(?:[\w.@$-]{0,64}"\s*:\s*")?/g;
/**
 * Quoted-printable's soft line break (`=` ending a line, which the decoder drops): a mail body or
 * MIME part wraps at 76 columns, anywhere in a secret's escapes. Read apart from the escapes, as a
 * secret's own `=` at the end of a line is not one.
 */
const SOFT_BREAK = /=\r?\n/g;
/**
 * A single quote in a single-quoted shell word: `'\''` (the last quote kept, standing for the
 * one the shell writes) and `'"'"'` (the middle one kept).
 */
const SHELL_QUOTE = /'\\'(?=')|'"(?='"')|(?<="')"'/g;

/**
 * The readings of `r` through each quoting and hex dump it holds, and with `whole` (the text or a
 * step of its plain decoding) through its JSON seams; none when it holds none.
 */
export function quotingReadings(r: Reading, whole: boolean): Reading[] {
  const out: Reading[] = [];
  for (const quote of ["'", '"']) {
    if (r.text.includes(quote + quote)) out.push(cut(r, secondsOfPairs(r.text, quote)));
  }
  if (r.text.includes("'")) out.push(cut(r, matched(r.text, SHELL_QUOTE)));
  // Seams, like dumps, only off the text and its plain decoding (a JSON body inside a JSON string
  // reads plain once decoded): every reading would double the cost of a long comment.
  if (whole && r.text.includes('"')) out.push(cut(r, matched(r.text, JSON_SEAM)));
  // Dumps off every reading: a dump may be written inside an escape (each digit CSS- or
  // percent-escaped) that only an ambiguous reading undoes; reading the dumps alone stays cheap.
  const hex = hexDumps(r);
  if (hex !== null) out.push(hex);
  return out.filter((q) => q !== r);
}

/** `r` without quoted-printable's soft line breaks; `r` itself when it has none. */
export function withoutSoftBreaks(r: Reading): Reading {
  return r.text.includes('=\n') || r.text.includes('=\r\n') ? cut(r, matched(r.text, SOFT_BREAK)) : r;
}

/**
 * The hex dumps of `r` alone, each without its separators and prefixes, one after another with a
 * NUL between them (no secret spans two dumps); null when there are none. Only the dumps are read
 * again, not the whole text: a long comment costs one more pass over its dumps, not over itself.
 */
function hexDumps(r: Reading): Reading | null {
  const parts: Reading[] = [];
  for (const run of [...r.text.matchAll(HEX_DUMP), ...r.text.matchAll(UNIT_DUMP)]) {
    if (ALL_HEX.test(run[0])) continue;
    const from = run.index;
    const to = from + run[0].length;
    const sub: Reading = { text: run[0], start: r.start.subarray(from, to), end: r.end.subarray(from, to) };
    parts.push(cut(sub, matched(run[0], NOT_BYTE)));
  }
  if (parts.length === 0) return null;
  const length = parts.reduce((n, p) => n + p.text.length + 1, 0);
  const start = new Int32Array(length);
  const end = new Int32Array(length);
  let n = 0;
  for (const p of parts) {
    start.set(p.start, n);
    end.set(p.end, n);
    n += p.text.length;
    // The NUL stands at the end of its dump.
    start[n] = p.end[p.text.length - 1] ?? 0;
    end[n] = start[n] ?? 0;
    n++;
  }
  return { text: parts.map((p) => p.text).join('\0') + '\0', start, end };
}

/** The second of each pair of `quote` (`''` reads `'`), pairs taken left to right, as [from, to) ranges. */
function secondsOfPairs(s: string, quote: string): [number, number][] {
  const out: [number, number][] = [];
  for (let i = s.indexOf(quote + quote); i >= 0; i = s.indexOf(quote + quote, i + 2)) out.push([i + 1, i + 2]);
  return out;
}

/** What `pattern` (global) matches in `s`, as [from, to) ranges in order. */
function matched(s: string, pattern: RegExp): [number, number][] {
  return [...s.matchAll(pattern)].filter((m) => m[0].length > 0).map((m) => [m.index, m.index + m[0].length]);
}

/** `r` without the ranges given (in order, not overlapping); `r` itself when there are none. */
function cut(r: Reading, ranges: readonly [number, number][]): Reading {
  if (ranges.length === 0) return r;
  const s = r.text;
  const start = new Int32Array(s.length);
  const end = new Int32Array(s.length);
  const parts: string[] = [];
  let n = 0;
  let copied = 0;
  for (const [from, to] of [...ranges, [s.length, s.length] as const]) {
    parts.push(s.slice(copied, from));
    copyRun(start, r.start, copied, from, n);
    copyRun(end, r.end, copied, from, n);
    n += from - copied;
    copied = to;
  }
  return { text: parts.join(''), start: start.subarray(0, n), end: end.subarray(0, n) };
}
