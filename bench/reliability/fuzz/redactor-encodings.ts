import fc from 'fast-check';
import { Redactor } from '../../../src/util/redact.js';

/**
 * The redactor against secrets an upstream echoes back in whatever escaping it applies: random
 * credentials from the characters that encode differently (`& < > ' " / + = % \ : @ #`, a space,
 * non-ASCII), written through random chains of percent-encoding (either case, `+` for a space, some
 * characters only), JSON, Go and JavaScript escapes, HTML entities (named, decimal, hex, leading
 * zeros), Markdown escapes, octal and CSS escapes (`\\046`, `\\26 `), fullwidth forms, invisible
 * characters or ANSI colours between its characters and case changes, or as base64 and base64url
 * (alone, of `user:password`, inside a longer base64 text, of its own base64, then escaped again),
 * broken over two lines with a logger's prefix before the rest (8 characters and more), inside an
 * error text. After redaction no
 * decoding of the text, however deep, gives the secret back; and a text holding no secret comes
 * out as it went in.
 */

const HOSTILE = [...'&<>\'"/+=%\\:@#;?~ !*()[]{}|`$,'];
const PLAIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const WIDE = ['é', 'ß', '€', '日', '😀'];

const secretArb = fc
  .tuple(
    fc.array(fc.constantFrom(...PLAIN, ...PLAIN, ...HOSTILE, ...WIDE), { minLength: 5, maxLength: 24 }),
    fc.constantFrom(...HOSTILE),
    fc.nat(),
    fc.constantFrom('', '', '', '', '\\'),
  )
  // At least one character that some encoding changes, so every case tests an escape; some end in
  // a backslash, which may read as escaping what the upstream writes after it (`\\&next`).
  .map(([chars, hostile, at, last]) => {
    chars.splice(at % (chars.length + 1), 0, hostile);
    return chars.join('') + last;
  });

type Encoder = (s: string, mask: readonly boolean[]) => string;

/** What draws nothing, slipped between a secret's characters: zero-width and format characters, ANSI colours. */
const INVISIBLE = ['\u200b', '\u2060', '\ufeff', '\u00ad', '\u200d', '\u{e0041}', '\x1b[31m', '\x1b[0m', '\x1b[1;32m'];

/** What a logger or an upstream writes before the rest of a line it wrapped. */
const LINE_PREFIXES = ['', '    ', 'error: ', '2026-12-07T05:00:00Z ERROR ', 'level=error msg="'];

const bytesOf = (ch: string) => [...Buffer.from(ch)];
const hex2 = (n: number, upper: boolean) => {
  const h = n.toString(16).padStart(2, '0');
  return upper ? h.toUpperCase() : h;
};
/** Applies `f` to the characters the mask picks (all when it is empty), the others as they are. */
const some = (s: string, mask: readonly boolean[], f: (ch: string, i: number) => string): string =>
  [...s].map((ch, i) => (mask.length === 0 || mask[i % mask.length] ? f(ch, i) : ch)).join('');
const utf16 = (ch: string) => ch.split('').map((u) => u.charCodeAt(0));

/**
 * Quoted-printable as a mail body wraps it: lower-case hex as some encoders write it, and a soft
 * line break (`=` ending a line) between escapes where the mask says, CRLF or LF.
 */
const qpWrapped: Encoder = (s, mask) =>
  [...s]
    .map((ch, i) => {
      const escaped = /[A-Za-z0-9 ]/.test(ch)
        ? ch
        : bytesOf(ch)
            .map((b) => `=${hex2(b, i % 2 === 0)}`)
            .join('');
      return mask.length > 0 && mask[i % mask.length] && i > 0 ? `=${i % 3 === 0 ? '\n' : '\r\n'}${escaped}` : escaped;
    })
    .join('');
// CSS escapes a backslash always (a bare one would start an escape): the others as the mask picks.
const cssEscaped: Encoder = (s, mask) =>
  [...s]
    .map((ch, i) => {
      if (ch !== '\\' && mask.length > 0 && !mask[i % mask.length]) return ch;
      const h = (ch.codePointAt(0) ?? 0).toString(16);
      return i % 2 === 0 ? `\\${h} ` : `\\${h.padStart(6, '0')}`;
    })
    .join('');
// Hex references without their `;` even where a hex digit follows (`&#x2fd` for `/d`), as a
// writer that does not look ahead leaves them: characters of two hex digits, the others closed.
const hexBare: Encoder = (s, mask) =>
  some(s, mask, (ch) => {
    const h = (ch.codePointAt(0) ?? 0).toString(16).padStart(2, '0');
    return h.length === 2 ? `&#x${h}` : `&#x${h};`;
  });
const markdownEscaped = (s: string): string => s.replace(/([\\`*_[\]#!~|])/g, '\\$1');
const namedWithSemicolons = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** A `;` as JavaScript, Go, JSON and a URL escape it. */
const SEMICOLONS = ['\\x3b', '\\u003b', '%3b', '%3B', '\\u003B'];

const ENCODERS: Readonly<Record<string, Encoder>> = {
  percentUpper: (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${hex2(c.charCodeAt(0), true)}`),
  percentLower: (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  percentSome: (s, mask) =>
    some(s, mask, (ch, i) =>
      bytesOf(ch)
        .map((b) => `%${hex2(b, i % 2 === 0)}`)
        .join(''),
    ),
  form: (s) => new URLSearchParams({ x: s }).toString().slice(2),
  json: (s) => JSON.stringify(s).slice(1, -1),
  goJson: (s) => JSON.stringify(s).slice(1, -1).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e'),
  slashes: (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/'),
  unicodeSome: (s, mask) =>
    some(s, mask, (ch, i) =>
      utf16(ch)
        .map((u) => `\\u${i % 2 === 0 ? u.toString(16).padStart(4, '0') : u.toString(16).padStart(4, '0').toUpperCase()}`)
        .join(''),
    ),
  hexEscapes: (s, mask) => some(s, mask, (ch) => (ch.charCodeAt(0) < 0x100 ? `\\x${hex2(ch.charCodeAt(0), false)}` : ch)),
  htmlNamed: (s) =>
    s
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
      .replace(/\//g, '&sol;'),
  htmlDecimal: (s, mask) => some(s, mask, (ch, i) => `&#${'0'.repeat(i % 3)}${ch.codePointAt(0)};`),
  htmlHex: (s, mask) => some(s, mask, (ch, i) => `&#${i % 2 === 0 ? 'x' : 'X'}${(ch.codePointAt(0) ?? 0).toString(16)};`),
  markdown: markdownEscaped,
  octal: (s, mask) => some(s, mask, (ch) => (ch.charCodeAt(0) < 0x100 ? `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}` : ch)),
  css: cssEscaped,
  fullwidth: (s) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000'),
  invisible: (s, mask) => some(s, mask, (ch, i) => `${INVISIBLE[i % INVISIBLE.length] ?? ''}${ch}`),
  // Quoting that writes a quote twice or around itself: YAML single quotes, CSV, a shell's word.
  yamlSingle: (s) => s.replace(/'/g, "''"),
  csvQuoted: (s) => s.replace(/"/g, '""'),
  shellSingle: (s, mask) => some(s, mask, (ch, i) => (ch === "'" ? (i % 2 === 0 ? `'\\''` : `'"'"'`) : ch)),
  // UTF-16 units as hex (a debugger's dump, big- or little-endian), quoted-printable, HTML numeric
  // references without their `;`, a shell's backslash before a space.
  unitHex: (s, mask) =>
    some(s, mask, (ch, i) =>
      utf16(ch)
        .map((u) => u.toString(16).padStart(4, '0'))
        .join(i % 2 === 0 ? '' : ' '),
    ),
  unitDump: (s) => [...s].flatMap((ch) => utf16(ch).map((u) => u.toString(16).padStart(4, '0'))).join(' '),
  unitHexLittle: (s) => Buffer.from(s, 'utf16le').toString('hex'),
  quotedPrintable: (s, mask) =>
    some(s, mask, (ch) =>
      bytesOf(ch)
        .map((b) => `=${hex2(b, true)}`)
        .join(''),
    ),
  quotedPrintableWrapped: qpWrapped,
  htmlHexBare: hexBare,
  // Without `;` only where no digit follows, which HTML would read as part of the number.
  htmlBare: (s) => {
    const chars = [...s];
    return chars.map((ch, i) => `&#${ch.codePointAt(0)}${/[0-9]/.test(chars[i + 1] ?? '') ? ';' : ''}`).join('');
  },
  // Hex references of every character without their `;`, a wide one's three to six digits too
  // (`&#x65e5a` for `日a`), as a writer that never closes them leaves them; at least two digits (a
  // line break's `&#xa` before the next line's digits is not read so).
  htmlHexBareWide: (s, mask) =>
    some(s, mask, (ch, i) => `&#${i % 2 === 0 ? 'x' : 'X'}${(ch.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`),
  // HTML's named references with their `;` escaped again by a JSON, Go or JavaScript writer or a
  // URL's (`&amp\x3b`, `&lt\u003b`, `&gt%3b`).
  htmlNamedSemicolonEscaped: (s, mask) =>
    namedWithSemicolons(s).replace(/;/g, () => SEMICOLONS[mask.filter(Boolean).length % SEMICOLONS.length] ?? ';'),
  // Compositions a fuzz run found past the readings: quoted-printable wrapped twice (the first
  // decoding holds soft breaks again), under CSS escapes, and under Markdown-escaped bare references.
  quotedPrintableTwice: (s, mask) => qpWrapped(qpWrapped(s, mask), mask),
  quotedPrintableUnderCss: (s, mask) => cssEscaped(qpWrapped(s, mask), []),
  quotedPrintableUnderMarkdownReferences: (s, mask) => markdownEscaped(hexBare(qpWrapped(s, mask), [])),
  shellBackslash: (s) => s.replace(/[^A-Za-z0-9]/g, (c) => (c.charCodeAt(0) < 0x80 ? `\\${c}` : c)),
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
};

const base64Of = (s: string, url: boolean) => Buffer.from(s).toString(url ? 'base64url' : 'base64');

/** One case: the secrets the process knows, and the text an upstream sent back. */
interface RedactorCase {
  secrets: string[];
  user: string | null;
  text: string;
  /** A text with no secret in it, which must come out unchanged. */
  innocent: string;
}

/**
 * Encoders a secret split over two lines is not written through: CSS escapes, read only by an
 * ambiguous way whose readings are not joined across lines, and the compositions of two escapes
 * (a split secret is looked for in the text and its plain decoding).
 */
const COMPOSITIONS = [
  'htmlNamedSemicolonEscaped',
  'quotedPrintableTwice',
  'quotedPrintableUnderCss',
  'quotedPrintableUnderMarkdownReferences',
];
const NOT_SPLIT = ['css', ...COMPOSITIONS];

const chainArb = fc.array(fc.constantFrom(...Object.keys(ENCODERS)), { minLength: 1, maxLength: 3 });
const maskArb = fc.array(fc.boolean(), { maxLength: 7 });

const caseArb: fc.Arbitrary<RedactorCase> = fc
  .record({
    secret: secretArb,
    user: fc.option(fc.stringMatching(/^[a-z][a-z0-9._-]{2,10}$/), { nil: null }),
    base64: fc.constantFrom('none', 'none', 'secret', 'pair', 'inside', 'twice'),
    split: fc.option(fc.tuple(fc.nat(), fc.constantFrom(...LINE_PREFIXES)), { nil: null, freq: 3 }),
    url: fc.boolean(),
    padding: fc.string({ unit: fc.constantFrom(...PLAIN), maxLength: 4 }),
    chain: chainArb,
    mask: maskArb,
    before: fc.constantFrom('error: ', '{"error":"', 'denied for ', '<p>', 'auth=', ''),
    after: fc.constantFrom('"}', ' (401)', '</p>', '&next=1', ''),
    innocent: fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 .,'), maxLength: 200 }),
  })
  .map((c) => {
    const pair = c.user === null ? c.secret : `${c.user}:${c.secret}`;
    // A secret under 8 characters is not looked for in two parts (they would be too common), nor is
    // one holding a backslash (which of its escapes is the upstream's is then ambiguous); and a
    // stylesheet's escapes are not a wrapped log line.
    const split =
      c.split !== null &&
      c.secret.length >= 8 &&
      !c.secret.includes('\\') &&
      !NOT_SPLIT.includes(c.chain.find((n) => COMPOSITIONS.includes(n)) ?? c.chain[0] ?? '');
    let form = c.secret;
    if (c.base64 === 'secret') form = base64Of(c.secret, c.url);
    else if (c.base64 === 'pair') form = base64Of(pair, c.url);
    else if (c.base64 === 'inside') form = base64Of(`${c.padding}${pair}!`, c.url);
    else if (c.base64 === 'twice') form = base64Of(base64Of(pair, false), c.url);
    // Broken over two lines, the second begun with what the upstream writes there, before any escape.
    const chars = [...form];
    if (split && c.split !== null) {
      const at = 1 + (c.split[0] % (chars.length - 1));
      form = `${chars.slice(0, at).join('')}\n${c.split[1]}${chars.slice(at).join('')}`;
    }
    // Base64 is then escaped too (a Basic header in Go's JSON); the secret itself through the chain;
    // a secret split over lines through one escape (it is looked for in its plain decoding).
    // A composition of two or three escapes is written alone: the readings follow `MAX_DEPTH` (3).
    const composed = c.chain.find((n) => COMPOSITIONS.includes(n));
    const chain = composed !== undefined ? [composed] : split ? c.chain.slice(0, 1) : c.chain;
    // UTF-16 hex is looked for of the secret and its base64 (not its base64 twice), from 8
    // characters on (as any hex: shorter runs of digits turn up by chance).
    const units = ['unitHex', 'unitDump', 'unitHexLittle'];
    const notOfBase64 = ['upper', 'lower', ...(c.base64 === 'twice' ? units : [])];
    const encoders = [...c.secret].length < 8 ? chain.filter((n) => !units.includes(n)) : chain;
    for (const name of c.base64 === 'none' ? encoders : encoders.filter((n) => !notOfBase64.includes(n)).slice(0, 1)) {
      form = (ENCODERS[name] as Encoder)(form, c.mask);
    }
    return { secrets: [c.secret], user: c.user, text: `${c.before}${form}${c.after}`, innocent: c.innocent };
  });

/** The fuzz harness hands text around: each case travels as JSON. */
export function redactorInputs(): fc.Arbitrary<string> {
  return caseArb.map((c) => JSON.stringify(c));
}

/**
 * Every decoding the matcher claims to see through, applied until nothing changes: each round reads
 * a backslash before digits as octal and, apart, as CSS writes a code point.
 */
function decodeDeep(text: string, wide: ReadonlySet<string>): string[] {
  let level = new Set([text]);
  const all = new Set([text]);
  for (let round = 0; round < 6 && all.size < 64; round++) {
    const next = new Set<string>();
    for (const t of level)
      for (const d of [decodeRound(t, 'octal'), decodeRound(t, 'css'), decodeRound(t, 'short', wide)]) if (!all.has(d)) next.add(d);
    for (const d of next) all.add(d);
    level = next;
  }
  // What draws nothing left out, fullwidth forms read as ASCII, and lines joined past what a logger adds.
  return [...all].flatMap((t) => {
    const plain = t
      // eslint-disable-next-line no-control-regex -- the ANSI sequences and controls an upstream slips in.
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '')
      .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/\u3000/g, ' ');
    const joined = LINE_PREFIXES.filter((p) => p !== '').reduce(
      (j, p) => j.split(`\n${p}`).join(''),
      plain.replace(/\n[ \t]*(?=\n)/g, '\n'),
    );
    // Two JSON strings read as one across their seam; UTF-16 units written as hex read as text.
    const seamless = t.replace(/"\s*,\s*"(?:[\w.@$-]{0,64}"\s*:\s*")?/g, '');
    return [t, plain, joined.replace(/\r?\n[ \t]*/g, ''), seamless, ...unitsRead(t)];
  });
}

/** Runs of UTF-16 units written as four hex digits each (separated or not), read both ways round. */
function unitsRead(text: string): string[] {
  return [...text.matchAll(/(?:[0-9a-f]{4}[ :,]?){4,}/gi)].flatMap((m) => {
    const hex = m[0].replace(/[ :,]/g, '');
    const big = Buffer.from(hex.slice(0, hex.length - (hex.length % 4)), 'hex');
    return [Buffer.from(big).swap16().toString('utf16le'), big.toString('utf16le'), Buffer.from(hex.slice(2), 'hex').toString('utf16le')];
  });
}

/**
 * One round of every decoding, a backslash before digits read as octal or as CSS; with `short`, a
 * hex reference without its `;` read as two digits where more follow (`&#x2fd` as `/d`).
 */
function decodeRound(out: string, way: 'octal' | 'css' | 'short', wide: ReadonlySet<string> = new Set()): string {
  const cssFirst =
    way === 'css'
      ? out.replace(/\\([0-9a-f]{1,6})(?:\r\n|[ \t\n\r])?/gi, (_, h: string) => safeCodePoint(Number.parseInt(h, 16)))
      : out.replace(/\\([0-7]{1,3})/g, (m, o: string) => (Number.parseInt(o, 8) > 0xff ? m : String.fromCharCode(Number.parseInt(o, 8))));
  return (
    cssFirst
      .replace(/'\\'(?=')|'"'"(?=')/g, '')
      .replace(/''/g, "'")
      .replace(/""/g, '"')
      .replace(/\\u\{([0-9a-f]+)\}/gi, (_, h: string) => safeCodePoint(Number.parseInt(h, 16)))
      .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\([nrtbf])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' })[c] ?? c)
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/\\ /g, ' ')
      .replace(way === 'short' ? /&#x([0-9a-f]{3,})/gi : /&#x([0-9a-f]+);?/gi, (m, h: string) =>
        way === 'short' ? shortReference(h, wide) : safeCodePoint(Number.parseInt(h, 16)),
      )
      .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => safeCodePoint(Number.parseInt(h, 16)))
      .replace(/&#([0-9]+);?/g, (_, d: string) => safeCodePoint(Number.parseInt(d, 10)))
      // Quoted-printable's soft line breaks, then its escapes.
      .replace(/=\r?\n/g, '')
      .replace(/(?:=[0-9a-f]{2})+/gi, (m) => {
        try {
          return decodeURIComponent(m.replace(/=/g, '%'));
        } catch {
          return m;
        }
      })
      .replace(
        /&(amp|lt|gt|quot|apos|sol|plus|equals|percnt|num|colon|commat|excl|quest|semi|bsol);/gi,
        (_, n: string) => NAMED[n.toLowerCase()] ?? '',
      )
      .replace(/(?:%[0-9a-f]{2})+/gi, (m) => {
        try {
          return decodeURIComponent(m);
        } catch {
          return m;
        }
      })
  );
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  plus: '+',
  equals: '=',
  percnt: '%',
  num: '#',
  colon: ':',
  commat: '@',
  excl: '!',
  quest: '?',
  semi: ';',
  bsol: '\\',
};

/**
 * A bare hex reference's digits before more hex digits, read as the secret's own character of
 * three to six digits where one fits (`65e5a` as `日a`), else as two digits.
 */
function shortReference(digits: string, wide: ReadonlySet<string>): string {
  for (let n = Math.min(6, digits.length - 1); n > 2; n--) {
    const ch = safeCodePoint(Number.parseInt(digits.slice(0, n), 16));
    if (wide.has(ch)) return ch + digits.slice(n);
  }
  return safeCodePoint(Number.parseInt(digits.slice(0, 2), 16)) + digits.slice(2);
}

function safeCodePoint(n: number): string {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

/** Base64 runs of the text decoded at each alignment, in both alphabets. */
function base64Decodings(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}={0,2}/g) ?? []) {
    for (let skip = 0; skip < 4; skip++) {
      const part = run.slice(skip);
      out.push(
        Buffer.from(part, 'base64').toString('utf8'),
        Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'),
      );
    }
  }
  return out;
}

/**
 * Whether `secret` can be read back from `text`: in any case, after any depth of the decodings the
 * redactor claims to see through, or base64-decoded at any alignment.
 */
export function secretReadable(text: string, secret: string): boolean {
  const wanted = secret.toLowerCase();
  // Form encoding's `+` may stand for a space: neither reading may give the secret back.
  // Characters a hex reference writes with three digits or more, which a bare one may spell.
  const wide = new Set([...wanted].filter((c) => (c.codePointAt(0) ?? 0) >= 0x100));
  const all = decodeDeep(text, wide).flatMap((decoded) => {
    const once = base64Decodings(decoded);
    // Base64 of base64: each decoding read as base64 again.
    return [decoded, decoded.replace(/\+/g, ' '), ...once, ...once.flatMap(base64Decodings)];
  });
  return all.some((reading) => reading.toLowerCase().includes(wanted));
}

/** A case of `redactorInputs`, or any other text (the harness's fixed attacks) to redact as it is. */
function asCase(input: string): RedactorCase {
  try {
    const parsed = JSON.parse(input) as Partial<RedactorCase> | null;
    if (parsed && Array.isArray(parsed.secrets) && typeof parsed.text === 'string' && typeof parsed.innocent === 'string') {
      return { secrets: parsed.secrets, user: parsed.user ?? null, text: parsed.text, innocent: parsed.innocent };
    }
  } catch {
    // Not a case: the text itself, against a credential it does not hold.
  }
  return { secrets: ["p&<>'/+= x"], user: 'reader', text: input, innocent: '' };
}

/** What went wrong with one case: a secret that got through, or innocent text that changed. */
export function redactorProblems(input: string): string[] {
  const c = asCase(input);
  const redactor = new Redactor();
  for (const s of c.secrets) {
    if (c.user === null) redactor.add(s);
    else redactor.addBasic(c.user, s);
  }
  const out = redactor.redact(c.text);
  const problems: string[] = [];
  for (const secret of c.secrets) {
    if (secretReadable(out, secret)) problems.push(`secret ${JSON.stringify(secret)} readable in ${JSON.stringify(out.slice(0, 300))}`);
  }
  const innocent = redactor.redact(c.innocent);
  if (innocent !== c.innocent) problems.push(`innocent text changed: ${JSON.stringify(c.innocent)} → ${JSON.stringify(innocent)}`);
  return problems;
}
