/**
 * The readings of a text through the escapes a secret may have gone through on the way out:
 * percent-encoding (`%2f`, `%2F`, UTF-8 byte runs), JSON, Go and JavaScript escapes (`\u0026`,
 * `\u{1F600}`, `\x26`, `\/`, `\n`), backslash-escaped punctuation (Markdown's `\*`) and HTML
 * character references (`&amp;`, `&#38;`, `&#x26;`, leading zeros too). Each reading decodes every
 * escape of the one before once, so `%2526` reads `%26` then `&`; characters written as themselves
 * stay. Every character of a reading knows the span of the original text it came from, so what is
 * found in a reading is masked in the original. Linear in the text's length per reading.
 */

import { itemAt } from './indexed.js';
import { copyRun } from './reading.js';
import type { Reading } from './reading.js';

/** What a read of `start`/`end` at a unit of the text (or of its `fold`) relies on. */
export const MAPPED = 'a reading has one start and one end per UTF-16 unit of its text';

/** HTML's named references for the characters a credential is likely to hold. */
const NAMED: Readonly<Record<string, string>> = {
  tab: '\t',
  newline: '\n',
  nbsp: ' ',
  excl: '!',
  quot: '"',
  num: '#',
  dollar: '$',
  percnt: '%',
  amp: '&',
  apos: "'",
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  lt: '<',
  equals: '=',
  gt: '>',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  bsol: '\\',
  rsqb: ']',
  rbrack: ']',
  hat: '^',
  lowbar: '_',
  underbar: '_',
  grave: '`',
  diacriticalgrave: '`',
  lcub: '{',
  lbrace: '{',
  verbar: '|',
  vert: '|',
  verticalline: '|',
  rcub: '}',
  rbrace: '}',
  tilde: '~',
};
const LONGEST_NAME = Math.max(...Object.keys(NAMED).map((n) => n.length));

const SHORT: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

const HEX = /^[0-9a-fA-F]+$/;
const NO_WIDE: WideCharacters = new Set();
const isHexUnit = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/** The original text as its own first reading. */
export function identity(text: string): Reading {
  const start = new Int32Array(text.length);
  const end = new Int32Array(text.length);
  for (let i = 0; i < text.length; i++) {
    start[i] = i;
    end[i] = i + 1;
  }
  return { text, start, end };
}

/** A code point spelled by `digits` in `radix`, or null if it is no character. */
function codePoint(digits: string, radix: number): string | null {
  const n = Number.parseInt(digits, radix);
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : null;
}

/**
 * How digits after an escape read: a backslash before them as an octal byte (C, Python, Go, PHP:
 * `\046`), or as CSS writes a code point (`\26 `, `\000026`: up to six hex digits and one
 * optional space after); with `short`, a backslash as octal and an HTML hex reference of more
 * than two digits as two (or as a wide character looked for, `WideCharacters`), the rest the
 * secret's own (`&#x2fd` as `/d`, where HTML reads one U+02FD; `&#x326;` as `2` before `6;`): a
 * writer that leaves out the `;` does not check what follows, and the `;` after may be the
 * secret's; with `literal`, digits as octal and a backslash before punctuation or a space as no
 * escape (a secret ending in `\` before an upstream's `&` or `<`).
 */
type Digits = 'octal' | 'css' | 'short' | 'literal';

/**
 * Characters of three to six hex digits a bare hex reference may stand for before more hex digits,
 * as `short` reads it (`&#x65e5a` for `日a`, where two digits would read `e5a`): the characters,
 * folded, of the secrets looked for. Each is tried, longest first, before two digits.
 */
export type WideCharacters = ReadonlySet<string>;

/** The escape that begins at `i` of `s`: what it decodes to and its length; null when none does. */
function escapeAt(s: string, i: number, digits: Digits = 'octal', wide?: WideCharacters): { chars: string; length: number } | null {
  const c = s[i];
  if (c === '%') return percentAt(s, i);
  if (c === '\\') {
    const next = s[i + 1] ?? '';
    if (digits === 'css' && isHexUnit(next.charCodeAt(0))) return cssAt(s, i);
    // Octal takes three digits, as Go, git's quoted paths and C's byte dumps write it: a shorter
    // run (`\1` in a regular expression's replacement) is too common to read as a byte.
    const o1 = s.charCodeAt(i + 1) - 0x30;
    const o2 = s.charCodeAt(i + 2) - 0x30;
    const o3 = s.charCodeAt(i + 3) - 0x30;
    if (o1 >= 0 && o1 <= 3 && o2 >= 0 && o2 <= 7 && o3 >= 0 && o3 <= 7)
      return { chars: String.fromCharCode(o1 * 64 + o2 * 8 + o3), length: 4 };
    if ((next === 'u' || next === 'U') && s[i + 2] === '{') {
      const close = s.slice(i + 3, i + 10).indexOf('}') + i + 3;
      const digits = close < i + 3 ? '' : s.slice(i + 3, close);
      const ch = digits.length > 0 && digits.length <= 6 && HEX.test(digits) ? codePoint(digits, 16) : null;
      return ch === null ? null : { chars: ch, length: close + 1 - i };
    }
    if (next === 'u' || next === 'U') {
      const digits = s.slice(i + 2, i + 6);
      return digits.length === 4 && HEX.test(digits) ? { chars: String.fromCharCode(Number.parseInt(digits, 16)), length: 6 } : null;
    }
    if (next === 'x' || next === 'X') {
      const digits = s.slice(i + 2, i + 4);
      return digits.length === 2 && HEX.test(digits) ? { chars: String.fromCharCode(Number.parseInt(digits, 16)), length: 4 } : null;
    }
    // A backslash before a line break: a shell's (and C's, Python's) continuation of the line. Read
    // as the break it escapes, so a secret an upstream wrapped there is still looked for across it.
    if (next === '\n') return { chars: '\n', length: 2 };
    if (next === '\r') return s[i + 2] === '\n' ? { chars: '\r\n', length: 3 } : { chars: '\r', length: 2 };
    const short = SHORT[next];
    if (short !== undefined) return { chars: short, length: 2 };
    // A shell escapes a space as it escapes punctuation (`pass\ word`). With `literal`, such a
    // backslash is the secret's own, before what an upstream wrote after it (`S\&next`, `Y\<`).
    if (digits === 'literal') return null;
    return PUNCTUATION.test(next) || next === ' ' ? { chars: next, length: 2 } : null;
  }
  if (c === '&') return referenceAt(s, i, digits === 'short' ? (wide ?? NO_WIDE) : null);
  if (c === '=') return quotedPrintableAt(s, i);
  return null;
}

/**
 * An HTML character reference at `i`: with its `;`, or without it as HTML reads a numeric one
 * (`&#x26s`, `&#38s`: the longest run of digits) and the legacy named ones (`&amps`, `&lt`).
 */
function referenceAt(s: string, i: number, short: WideCharacters | null): { chars: string; length: number } | null {
  const after = s.slice(i + 1, i + 10);
  const run = short === null ? undefined : /^#[xX]([0-9a-fA-F]{3,})/.exec(after)?.[1];
  if (short !== null && run !== undefined) {
    // The longest run of digits short of all of them that spells a character looked for, else two.
    let take = 2;
    for (let n = Math.min(6, run.length - 1); n > 2 && short.size > 0; n--) {
      const wanted = codePoint(run.slice(0, n), 16);
      if (wanted !== null && short.has(fold(wanted))) {
        take = n;
        break;
      }
    }
    const ch = codePoint(run.slice(0, take), 16);
    return ch === null ? null : { chars: ch, length: 3 + take };
  }
  // A reference is short: look for its `;` only that far.
  const semi = s.slice(i + 1, i + LONGEST_NAME + 3).indexOf(';') + i + 1;
  if (semi !== i) {
    const body = s.slice(i + 1, semi);
    const ch = /^#[xX][0-9a-fA-F]{1,8}$/.test(body)
      ? codePoint(body.slice(2), 16)
      : /^#[0-9]{1,10}$/.test(body)
        ? codePoint(body.slice(1), 10)
        : (NAMED[body.toLowerCase()] ?? null);
    if (ch !== null) return { chars: ch, length: semi + 1 - i };
  }
  const bare = /^#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}))|^(amp|lt|gt|quot|nbsp)/i.exec(after);
  if (bare === null) return null;
  const ch =
    bare[1] !== undefined
      ? codePoint(bare[1], 16)
      : bare[2] !== undefined
        ? codePoint(bare[2], 10)
        : (NAMED[bare[3]?.toLowerCase() ?? ''] ?? null);
  return ch === null ? null : { chars: ch, length: 1 + bare[0].length };
}

/**
 * Quoted-printable at `i` (a mail body, a MIME part an upstream quotes): `=26`, or a run of them
 * spelling one UTF-8 character. Its soft break (`=` ending a line) is left as it is here: a secret
 * ending in `=` split over two lines would lose its break, which the redactor looks across; a
 * reading of its own leaves soft breaks out (quoting-readings.ts).
 */
function quotedPrintableAt(s: string, i: number): { chars: string; length: number } | null {
  return bytesAt(s, i, 0x3d);
}

/** A CSS escape at `i`: a backslash, one to six hex digits, and one whitespace that ends it. */
function cssAt(s: string, i: number): { chars: string; length: number } | null {
  const run = /^[0-9a-fA-F]{1,6}/.exec(s.slice(i + 1, i + 7))?.[0] ?? '';
  const ch = run === '' ? null : codePoint(run, 16);
  if (ch === null) return null;
  const after = s[i + 1 + run.length];
  const space = after === ' ' || after === '\t' || after === '\n' ? 1 : after === '\r' ? (s[i + 2 + run.length] === '\n' ? 2 : 1) : 0;
  return { chars: ch, length: 1 + run.length + space };
}

/** `%XX`, or a run of them spelling one UTF-8 character. */
function percentAt(s: string, i: number): { chars: string; length: number } | null {
  return bytesAt(s, i, 0x25);
}

/** A byte written as `<mark>XX` (`%26`, `=26`), or a run of them spelling one UTF-8 character. */
function bytesAt(s: string, i: number, mark: number): { chars: string; length: number } | null {
  const byteAt = (at: number): number | null => markedByteAt(s, at, mark);
  const lead = byteAt(i);
  if (lead === null) return null;
  if (lead < 0x80) return { chars: String.fromCharCode(lead), length: 3 };
  const size = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  if (size === 0) return null;
  const bytes = [lead];
  for (let k = 1; k < size; k++) {
    const b = byteAt(i + 3 * k);
    if (b === null || b < 0x80 || b > 0xbf) return null;
    bytes.push(b);
  }
  const chars = Buffer.from(bytes).toString('utf8');
  return chars.includes('\uFFFD') ? null : { chars, length: 3 * size };
}

/** The byte a `%XX` (or `=XX`, as `mark` says) at `at` spells, or null. */
function markedByteAt(s: string, at: number, mark: number): number | null {
  return s.charCodeAt(at) === mark && isHexUnit(s.charCodeAt(at + 1)) && isHexUnit(s.charCodeAt(at + 2))
    ? Number.parseInt(s.slice(at + 1, at + 3), 16)
    : null;
}

/**
 * Whether the bare reference of `length` at `i` is followed by an escape of the `;` that would
 * close it, or (a numeric one) of a digit it would take, once that escape is decoded (with
 * `short`, a hex reference takes its digits anyway).
 */
function extendedBy(s: string, i: number, length: number, digits: Digits): boolean {
  const numeric = s[i + 1] === '#';
  const hex = numeric && (s[i + 2] === 'x' || s[i + 2] === 'X');
  if (hex && digits === 'short') return false;
  const after = escapeAt(s, i + length, digits)?.chars ?? '';
  // Its `;` escaped closes it the same way, a numeric one (`&#74&#x3b`) or a legacy named one a
  // JSON or URL encoder wrote after HTML's (`&amp\x3b`, `&lt\u003b`, `&gt%3b`).
  if (after === ';') return true;
  if (!numeric) return false;
  return hex ? isHexUnit(after.charCodeAt(0)) : after >= '0' && after <= '9' && after.length === 1;
}

/**
 * Every escape of `r` decoded once; the same reading when it holds none. Where an escape's first
 * character is itself followed by an escape (`\\u0034`: an escaped backslash, or a backslash of
 * the secret before an escaped `4`?), `later` takes the second reading.
 */
export function decodeOnce(r: Reading, later = false, digits: Digits = 'octal', wide?: WideCharacters): Reading {
  const s = r.text;
  // A decoded escape is never longer than the escape: the original's length bounds the reading's.
  const start = new Int32Array(s.length);
  const end = new Int32Array(s.length);
  const parts: string[] = [];
  let n = 0;
  let copied = 0;
  const copy = (upTo: number): void => {
    if (upTo <= copied) return;
    parts.push(s.slice(copied, upTo));
    copyRun(start, r.start, copied, upTo, n);
    copyRun(end, r.end, copied, upTo, n);
    n += upTo - copied;
    copied = upTo;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Every escape begins with `%`, `\`, `&` or `=`.
    if (c !== 0x25 && c !== 0x5c && c !== 0x26 && c !== 0x3d) continue;
    if (later && escapeAt(s, i + 1, digits, wide) !== null) continue;
    const esc = escapeAt(s, i, digits, wide);
    if (esc === null) continue;
    // A reference without its `;` before an escape of a digit or `;` (`&#10&#x30;`): HTML's `&#10`
    // then a `0`, or `&#100` once the escape after it is decoded? The other ways take the second: a
    // decimal one in every other way, a hex one but where hex references are read as two digits.
    if (c === 0x26 && (later || digits !== 'octal') && s[i + esc.length - 1] !== ';' && extendedBy(s, i, esc.length, digits)) continue;
    copy(i);
    parts.push(esc.chars);
    for (let k = 0; k < esc.chars.length; k++, n++) {
      start[n] = itemAt(r.start, i, MAPPED);
      end[n] = itemAt(r.end, i + esc.length - 1, MAPPED);
    }
    copied = i + esc.length;
    i = copied - 1;
  }
  if (parts.length === 0) return r;
  copy(s.length);
  return { text: parts.join(''), start: start.subarray(0, n), end: end.subarray(0, n) };
}

/** How many times escapes may wrap each other: `%252F` is two. */
export const MAX_DEPTH = 3;

/** `s` decoded once (a secret that itself looks escaped: `p%41ss`). */
export function decodedOnce(s: string): string {
  return decodeOnce(identity(s)).text;
}

/** Fullwidth forms of ASCII (`ｐａｓｓ`, U+FF01–U+FF5E) and the ideographic space. */
const FULLWIDTH = /[\uff01-\uff5e\u3000]/g;
const halfwidth = (c: string): string => (c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 0xfee0));

/**
 * The comparison key of a text, the same length: letters in lower case (so `%2f` and `%2F`,
 * `Basic` and `basic`, are one), fullwidth forms as the ASCII they stand for (one UTF-16 unit
 * each), and a space as `+` (form encoding writes one for the other).
 */
export function fold(s: string): string {
  const lower = s.toLowerCase().replace(FULLWIDTH, halfwidth);
  if (lower.length === s.length) return lower.replaceAll(' ', '+');
  let out = '';
  for (const unit of s) {
    const low = unit.toLowerCase().replace(FULLWIDTH, halfwidth);
    const kept = low.length === unit.length ? low : unit;
    out += kept === ' ' ? '+' : kept;
  }
  return out;
}
