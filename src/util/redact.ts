import { decodedOnce, fold, MAPPED, MAX_DEPTH } from './escape-readings.js';
import { readings } from './text-readings.js';
import type { SecretTraits } from './text-readings.js';
import type { Reading } from './reading.js';
import { itemAt } from './indexed.js';
import { maskAcrossFields } from './split-fields.js';
import { keyPairs, mayHold, textPairs } from './pair-filter.js';

/**
 * One redactor for every secret the process holds (telemetry credentials, the App's key and
 * webhook secret, a GitHub token) in every form it could take on the way out, in either case:
 * as written, percent-encoded (`%2f` or `%2F`, `+` for a space, some characters only),
 * JSON-, Go- and JavaScript-escaped (`\u0026`, `\/`), Markdown-escaped, as HTML entities (named,
 * decimal, hex), those escapes nested in each other, and base64 or base64url (inside a longer
 * base64 text too, and of `user:password` as a `Basic` credential carries it). Every output
 * surface (comments, checks, logs, CLI output, error messages, GitHub request bodies) passes
 * through it.
 */

/** What a secret becomes in output. */
export const REDACTED = '***';

/** A query parameter named like a credential. */
const SECRET_PARAM = /key|token|secret|pass|auth|sig|cred|session|jwt/i;

/** Shorter values are too common to scrub (a `:`, a digit) and protect nothing. */
const MIN_SECRET = 3;

/** A key split over two lines is looked for by its first `HEAD` characters, when it has `MIN_SPLIT`. */
const HEAD = 4;
const MIN_SPLIT = 8;

/** Readings longer than this are first checked for the pairs of characters each key needs. */
const PAIR_FILTER_FROM = 4096;

/** How deep `redactDeep` walks a value; deeper, the rest is redacted as JSON text. */
const DEEPEST = 8;
/** How far either side of the join of two strings of a value a secret cut between them is looked for. */
const JOIN_WIDTH = 4096;

/** Shorter secrets are not looked for as hex: 16 hex digits and more do not occur by chance. */
const MIN_HEX_SECRET = 8;
/** Longer secrets (a private key) are not looked for as UTF-16 hex. */
const MAX_UNIT_HEX_SECRET = 256;

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

/**
 * The base64 characters that encode `secret` wherever it sits in a longer text, at each of the
 * three byte alignments, in both alphabets: the characters a neighbour's bits also shape are left off.
 */
function base64Inside(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const out: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = b64(Buffer.concat([Buffer.alloc(pad), bytes])).replace(/=+$/, '');
    // Leading characters mix the padding's bits; the last one may mix a following byte's.
    const start = Math.ceil((pad * 8) / 6);
    const end = Math.floor(((pad + bytes.length) * 8) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= 4) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * The forms of one secret, longest first: as written, base64 in both alphabets (alone and inside
 * longer base64), and a PEM key's lines. Each is then found through any escaping of its
 * characters (escape-readings.ts): a `Basic` credential whose `/` a JSON encoder wrote `\/`, say.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET) return [];
  const forms = new Set<string>([secret]);
  const add = (s: string) => void (s.length >= MIN_SECRET && forms.add(s));
  add(b64(secret));
  add(b64(secret).replace(/=+$/, ''));
  add(Buffer.from(secret).toString('base64url'));
  for (const core of base64Inside(secret)) add(core);
  // Its base64 so far (alone and inside longer base64), which a dump of UTF-16 units may hold.
  const base64 = [...forms].filter((f) => f !== secret);
  // Base64 of the base64 (a Basic credential or a token an upstream encodes once more, a secret
  // manifest's data echoed encoded): alone and inside longer base64 text.
  const twice = b64(b64(secret));
  add(twice);
  add(twice.replace(/=+$/, ''));
  for (const core of base64Inside(b64(secret))) add(core);
  // Base64 of the secret as a JSON or Go encoder writes it inside a string (a registry password in
  // a `.dockerconfigjson`, a JSON body encoded once more): inside longer base64 text.
  for (const escaped of jsonEscaped(secret)) for (const core of base64Inside(escaped)) add(core);
  // As hex, which a byte dump or Go's `%x` writes: only for secrets long enough that their hex
  // cannot turn up by chance in a commit id or a digest (case is folded when compared).
  // UTF-16 units as hex too (a string's units dumped, big- or little-endian), for a credential of
  // a line's length: a key's every line as four digits a character would only lengthen the search.
  if (secret.length >= MIN_HEX_SECRET) add(Buffer.from(secret).toString('hex'));
  if (secret.length >= MIN_HEX_SECRET && secret.length <= MAX_UNIT_HEX_SECRET) {
    const unitHex = (s: string) => {
      add(Buffer.from(s, 'utf16le').swap16().toString('hex'));
      add(Buffer.from(s, 'utf16le').toString('hex'));
    };
    // Each case of the secret's letters too: folding the text folds the digits, not what they spell.
    for (const cased of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) unitHex(cased);
    // Its base64 as units too (a Basic credential's string dumped): as it is, its case is its
    // content. Not the base64 of the base64: a dump of a text encoded twice is not met.
    for (const form of base64) unitHex(form);
  }
  // A PEM key may be echoed a line at a time, or with its line breaks escaped (as an environment
  // variable often holds it, `\n` written out).
  if (secret.includes('\n') || secret.includes('\\n')) {
    for (const line of secret.split(/\r?\n|\\n/)) if (line.length >= 16 && !line.startsWith('-----')) add(line.trim());
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `secret` inside a JSON string as JavaScript's and Go's encoders write it, where that differs from the secret. */
function jsonEscaped(secret: string): string[] {
  const js = JSON.stringify(secret).slice(1, -1);
  const go = js.replace(/[&<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [...new Set([js, go])].filter((e) => e !== secret);
}

export class Redactor {
  /**
   * What is looked for in each reading of a text: every form folded (escape-readings.ts), and the
   * form as it reads decoded, should the secret itself hold something that looks like an escape.
   */
  #keys: string[] = [];
  /** Each key's pairs of characters, by its index in `#keys`: a reading lacking one lacks the key. */
  #keyPairs: Uint16Array[] = [];
  /** Keys long enough to be found split over two lines, by their first `HEAD` characters. */
  #byHead = new Map<string, string[]>();
  #longest = 0;
  /**
   * What the keys hold that some readings are made for alone: a backslash, and the characters a
   * hex reference writes with three digits or more, which a bare one may spell before the
   * secret's next hex digit (`&#x65e5a` for `日a`).
   */
  #traits: SecretTraits = { backslash: false, wide: new Set() };
  readonly #secrets = new Set<string>();

  /** Registers secrets (empty and short values are ignored); returns this for chaining. */
  add(...secrets: readonly (string | undefined | null)[]): this {
    let changed = false;
    for (const s of secrets) {
      if (typeof s !== 'string' || s.length < MIN_SECRET || this.#secrets.has(s)) continue;
      this.#secrets.add(s);
      changed = true;
    }
    if (!changed) return this;
    const keys = new Set<string>();
    for (const form of new Set([...this.#secrets].flatMap(secretForms))) {
      let decoded = form;
      for (let d = 0; d <= MAX_DEPTH; d++, decoded = decodedOnce(decoded)) if (decoded.length >= MIN_SECRET) keys.add(fold(decoded));
    }
    this.#keys = [...keys].sort((a, b) => b.length - a.length);
    this.#keyPairs = this.#keys.map(keyPairs);
    this.#byHead = new Map();
    for (const key of this.#keys.filter((k) => k.length >= MIN_SPLIT)) {
      const head = key.slice(0, HEAD);
      this.#byHead.set(head, [...(this.#byHead.get(head) ?? []), key]);
    }
    this.#longest = this.#keys[0]?.length ?? 0;
    this.#traits = {
      backslash: this.#keys.some((k) => k.includes('\\')),
      wide: new Set(this.#keys.flatMap((k) => [...k].filter((c) => (c.codePointAt(0) ?? 0) >= 0x100))),
    };
    return this;
  }

  /** A `user:password` pair: the pair, the password alone, and the `Basic` credential they make. */
  addBasic(user: string, password: string): this {
    const pair = `${user}:${password}`;
    return this.add(pair, password, `Basic ${b64(pair)}`);
  }

  /** The credentials a URL carries in its user info, as written and decoded. */
  addUrl(raw: string | undefined): this {
    if (!raw) return this;
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      return this;
    }
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    };
    this.#addQuery(url);
    if (url.username === '' && url.password === '') return this;
    this.add(url.password, decode(url.password), `${url.username}:${url.password}@`);
    return url.password === '' ? this.add(decode(url.username)) : this.addBasic(decode(url.username), decode(url.password));
  }

  /**
   * A credential some endpoints take in the query (`?api_key=…`, a signed URL's `sig`): the value
   * of each parameter named like one, and any long enough to be one (found through any escaping).
   */
  #addQuery(url: URL): void {
    for (const [name, value] of url.searchParams) {
      if (!SECRET_PARAM.test(name) && value.length < 16) continue;
      this.add(value);
    }
  }

  /**
   * A header's value, and the credential after its scheme (`Bearer <token>`, `Token <key>`), which
   * an upstream echoes alone; a `Basic` one decoded as the pair and password it carries.
   */
  addHeader(value: string): this {
    this.add(value);
    const m = /^\s*([A-Za-z][\w-]*)\s+(\S.*?)\s*$/.exec(value);
    if (!m?.[1] || !m[2]) return this;
    this.add(m[2]);
    if (m[1].toLowerCase() !== 'basic') return this;
    const pair = Buffer.from(m[2], 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    return colon > 0 && !pair.includes('\uFFFD') ? this.addBasic(pair.slice(0, colon), pair.slice(colon + 1)) : this;
  }

  /** What the secrets hold that decides the readings of a text (for the benchmark's tally). */
  get traits(): SecretTraits {
    return this.#traits;
  }

  get size(): number {
    return this.#secrets.size;
  }

  /** `text` with every secret masked, in any case and through any escaping of its characters. */
  redact(text: string): string {
    const spans = this.#spans(text);
    if (spans.length === 0) return text;
    let out = '';
    let copied = 0;
    for (const [from, to] of spans) {
      if (to <= copied) continue;
      if (from >= copied) out += text.slice(copied, from) + REDACTED;
      copied = to;
    }
    return out + text.slice(copied);
  }

  /** Where `text` holds a secret, as `[from, to)` spans in order of where they begin. */
  #spans(text: string): [number, number][] {
    if (this.#keys.length === 0 || text.length < MIN_SECRET) return [];
    const spans: [number, number][] = [];
    const table = new Uint8Array(1 << 16);
    for (const reading of readings(text, undefined, this.#traits)) {
      const folded = fold(reading.text);
      // A short text is searched at once; a long one first for the pairs each key needs.
      const pairs = folded.length > PAIR_FILTER_FROM ? textPairs(folded, table) : null;
      for (const [k, key] of this.#keys.entries()) {
        if (pairs !== null && !mayHold(pairs, itemAt(this.#keyPairs, k, 'one pair list a key'))) continue;
        for (let at = folded.indexOf(key); at >= 0; at = folded.indexOf(key, at + 1)) {
          spans.push([itemAt(reading.start, at, MAPPED), itemAt(reading.end, at + key.length - 1, MAPPED)]);
        }
      }
      if (reading.lines === true && /[\r\n]/.test(folded)) this.#splitOverLines(folded, reading, spans);
    }
    return spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  }

  /**
   * A secret an upstream split over two lines with something of its own before the rest (an error
   * wrapped and prefixed again, `error: ` or a timestamp): a line ending with a key's first
   * characters, at least `HEAD` of them, and the next line holding the rest of that key. Linear in
   * the text: each place of a line's tail is looked up once by its first characters.
   */
  #splitOverLines(folded: string, reading: Reading, spans: [number, number][]): void {
    const span = (from: number, to: number): [number, number] => [itemAt(reading.start, from, MAPPED), itemAt(reading.end, to - 1, MAPPED)];
    let lineStart = 0;
    for (const brk of folded.matchAll(/[ \t]*(?:\r\n|\n|\r)/g)) {
      const next = brk.index + brk[0].length;
      let lineEnd = next;
      while (lineEnd < folded.length && folded[lineEnd] !== '\n' && folded[lineEnd] !== '\r') lineEnd++;
      const nextLine = folded.slice(next, lineEnd);
      for (let p = Math.max(lineStart, brk.index - this.#longest + 1); p <= brk.index - HEAD; p++) {
        for (const key of this.#byHead.get(folded.slice(p, p + HEAD)) ?? []) {
          const head = folded.slice(p, brk.index);
          if (head.length >= key.length || !key.startsWith(head)) continue;
          const at = nextLine.indexOf(key.slice(head.length));
          if (at < 0) continue;
          spans.push(span(p, brk.index), span(next + at, next + at + key.length - head.length));
        }
      }
      lineStart = next;
    }
    // A head shorter than `HEAD`: the rest of the key, found, and the line before ending with its head.
    for (const keys of this.#byHead.values()) {
      for (const k of keys) {
        for (let cut = 1; cut < HEAD; cut++) {
          const rest = k.slice(cut);
          for (let at = folded.indexOf(rest); at >= 0; at = folded.indexOf(rest, at + 1)) {
            const lineEnd = endOfLineBefore(folded, at);
            if (lineEnd < cut || folded.slice(lineEnd - cut, lineEnd) !== k.slice(0, cut)) continue;
            spans.push(span(lineEnd - cut, lineEnd), span(at, at + rest.length));
          }
        }
      }
    }
  }

  /** A copy of a JSON-like value with every string redacted (log fields, check output). */
  redactDeep<T>(value: T): T {
    const out = this.#redactEach(value, 0);
    // A secret cut into two of its strings: neither holds it alone (split-fields.ts). Each side of
    // a join is read as far as an escaped form reaches (`&#x000026;` is ten units a character),
    // up to `JOIN_WIDTH`: a key's lines, the longest secrets, are not cut into fields.
    if (out !== null && typeof out === 'object' && this.#keys.length > 0) {
      const width = Math.min(10 * this.#longest, JOIN_WIDTH);
      maskAcrossFields(out, (t) => this.#spans(t), { minLength: MIN_SPLIT, width, maxDepth: DEEPEST, masked: REDACTED });
    }
    return out;
  }

  #redactEach<T>(value: T, depth: number): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (value === null || typeof value !== 'object') return value;
    // Deeper than this, the rest is written out whole and redacted as text, never handed on as it is.
    if (depth > DEEPEST) return this.redact(textOf(value)) as T;
    if (value instanceof Error) return this.redact(value.message) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.#redactEach(v, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = this.#redactEach(v, depth + 1);
    return out as T;
  }
}

/**
 * Where the line before the one holding `at` ends, its trailing spaces, tabs and `\r` left out
 * (-1 when `at` is on the first line): read back from the break, never by a search of the text
 * before it, so finding many parts stays linear.
 */
function endOfLineBefore(text: string, at: number): number {
  const brk = text.lastIndexOf('\n', at);
  if (brk < 0) return -1;
  let end = brk;
  if (text[end - 1] === '\r') end--;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return end;
}

/** A value as JSON; a placeholder where JSON cannot write it (a cycle, a BigInt). */
function textOf(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[a value JSON cannot write]';
  }
}

type SecretEnv = Record<string, string | undefined>;

/** Every secret the operator's environment gives this process. */
function secretsOf(env: SecretEnv, into: Redactor = new Redactor()): Redactor {
  into.add(
    env['PROMETHEUS_BEARER_TOKEN']?.trim(),
    env['PRIVATE_KEY'],
    env['WEBHOOK_SECRET'],
    env['GITHUB_TOKEN'],
    env['INPUT_GITHUB-TOKEN'],
    env['INPUT_GITHUB_TOKEN'],
    env['GH_TOKEN'],
    env['CLIENT_SECRET'],
    env['GPU_JUSTIFY_STATE_SECRET'],
  );
  const basic = env['PROMETHEUS_BASIC_AUTH'];
  const colon = basic?.indexOf(':') ?? -1;
  if (basic && colon > 0) into.addBasic(basic.slice(0, colon), basic.slice(colon + 1));
  into.addUrl(env['PROMETHEUS_URL']).addUrl(env['OPENCOST_URL']).addUrl(env['REDIS_URL']);
  const headers = env['PROMETHEUS_HEADERS'];
  if (headers) {
    try {
      const parsed: unknown = JSON.parse(headers);
      if (parsed && typeof parsed === 'object') for (const v of Object.values(parsed)) if (typeof v === 'string') into.addHeader(v);
    } catch {
      // Invalid JSON is refused by the telemetry settings, saying so without echoing it.
    }
  }
  return into;
}

/**
 * The process's redactor: knows the environment's secrets from the first use, and any a
 * component registers later (a token handed in by flag, a key read from a file).
 */
let processRedactor: Redactor | undefined;
export function redactor(): Redactor {
  processRedactor ??= secretsOf(process.env);
  return processRedactor;
}

/** Shorthand for `redactor().redact(text)`. */
export function redactSecrets(text: string): string {
  return redactor().redact(text);
}
