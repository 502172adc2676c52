/**
 * One redactor for every secret the process holds (telemetry credentials, the App's key and
 * webhook secret, a GitHub token) in every form it could take on the way out: as written,
 * URL-encoded, base64 (inside a longer base64 text too), JSON-escaped, and in a `Basic`
 * credential. Every output surface (comments, checks, logs, CLI output, error messages) passes
 * through it.
 */

/** What a secret becomes in output. */
export const REDACTED = '***';

/** Shorter values are too common to scrub (a `:`, a digit) and protect nothing. */
const MIN_SECRET = 3;

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/**
 * The base64 characters that encode `secret` wherever it sits in a longer text, at each of the
 * three byte alignments: the characters a neighbour's bits also shape are left off.
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
    if (core.length >= 4) out.push(core);
  }
  return out;
}

/** Every form of one secret worth scrubbing, longest first. */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET) return [];
  const forms = new Set<string>([secret]);
  const add = (s: string) => void (s.length >= MIN_SECRET && forms.add(s));
  add(encodeURIComponent(secret));
  add(encodeURI(secret));
  add(new URLSearchParams({ x: secret }).toString().slice(2));
  add(JSON.stringify(secret).slice(1, -1));
  add(b64(secret));
  add(b64(secret).replace(/=+$/, ''));
  add(b64url(secret));
  for (const core of base64Inside(secret)) add(core);
  // As the report's Markdown escaping writes it, should a secret ever reach the report unscrubbed.
  add(
    secret
      .replace(/([\\`*_[\]#!~])/g, '\\$1')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\|/g, '\\|'),
  );
  // A PEM key may be echoed a line at a time, or with its line breaks escaped.
  if (secret.includes('\n')) {
    for (const line of secret.split(/\r?\n/)) if (line.length >= 16 && !line.startsWith('-----')) add(line.trim());
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

export class Redactor {
  #forms: string[] = [];
  readonly #secrets = new Set<string>();

  /** Registers secrets (empty and short values are ignored); returns this for chaining. */
  add(...secrets: readonly (string | undefined | null)[]): this {
    let changed = false;
    for (const s of secrets) {
      if (typeof s !== 'string' || s.length < MIN_SECRET || this.#secrets.has(s)) continue;
      this.#secrets.add(s);
      changed = true;
    }
    if (changed) this.#forms = [...new Set([...this.#secrets].flatMap(secretForms))].sort((a, b) => b.length - a.length);
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
    if (url.username === '' && url.password === '') return this;
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    };
    this.add(url.password, decode(url.password), `${url.username}:${url.password}@`);
    return url.password === '' ? this.add(decode(url.username)) : this.addBasic(decode(url.username), decode(url.password));
  }

  get size(): number {
    return this.#secrets.size;
  }

  redact(text: string): string {
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }

  /** A copy of a JSON-like value with every string redacted (log fields, check output). */
  redactDeep<T>(value: T, depth = 0): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (depth > 8 || value === null || typeof value !== 'object') return value;
    if (value instanceof Error) return this.redact(value.message) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.redactDeep(v, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = this.redactDeep(v, depth + 1);
    return out as T;
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
  );
  const basic = env['PROMETHEUS_BASIC_AUTH'];
  const colon = basic?.indexOf(':') ?? -1;
  if (basic && colon > 0) into.addBasic(basic.slice(0, colon), basic.slice(colon + 1));
  into.addUrl(env['PROMETHEUS_URL']).addUrl(env['OPENCOST_URL']);
  const headers = env['PROMETHEUS_HEADERS'];
  if (headers) {
    try {
      const parsed: unknown = JSON.parse(headers);
      if (parsed && typeof parsed === 'object') for (const v of Object.values(parsed)) if (typeof v === 'string') into.add(v);
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
