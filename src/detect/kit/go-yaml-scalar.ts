/**
 * Scalars as go-yaml v2 resolves them (resolve.go, decode.go), which sigs.k8s.io/yaml's
 * YAMLToJSON uses for kubectl, Helm, Argo CD and Flux's object decoding: YAML 1.1 booleans
 * (`y`, `yes`, `on` …), integers through Go's `strconv.ParseInt(s, 0, 64)` once underscores are
 * removed (`010` is 8, `0o10` and `0x10` and `0b10` too), floats only in YAML's own spelling
 * (`.5`, `1e3`, `1.`), no sexagesimal (`1:20` stays a string), and timestamps kept as written.
 */

type GoValue = null | boolean | number | string;

/** A resolved scalar: its value, and the Go type it has (for map keys, which JSON turns into strings). */
export interface GoScalar {
  type: 'null' | 'bool' | 'int' | 'uint' | 'float' | 'str' | 'merge';
  value: GoValue;
}

export const YAML_TAG = 'tag:yaml.org,2002:';

const TABLE = new Map<string, GoScalar>();
for (const [type, value, words] of [
  ['bool', true, 'y Y yes Yes YES true True TRUE on On ON'],
  ['bool', false, 'n N no No NO false False FALSE off Off OFF'],
  ['null', null, '~ null Null NULL'],
  ['float', NaN, '.nan .NaN .NAN'],
  ['float', Infinity, '.inf .Inf .INF +.inf +.Inf +.INF'],
  ['float', -Infinity, '-.inf -.Inf -.INF'],
  ['merge', '<<', '<<'],
] as const) {
  for (const w of words.split(' ')) TABLE.set(w, { type, value });
}
TABLE.set('', { type: 'null', value: null });

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const TIMESTAMP_START = /^\d{4}-/;

// go-yaml v3 (kyaml, gcluster) keeps only these of YAML 1.1's booleans.
const V3_BOOLEANS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** A plain (unquoted, untagged) scalar; `v3` for go-yaml v3, where `yes`, `on`, `y` … are strings. */
export function resolvePlain(text: string, v3 = false): GoScalar {
  const r = resolve('', text);
  return v3 && r.type === 'bool' && !V3_BOOLEANS.has(text) ? { type: 'str', value: text } : r;
}

/**
 * A scalar with an explicit tag (`!!int "8"`): the tag's own type, or an error message when go-yaml
 * fails the document ("cannot decode !!str `x` as a !!int"). Tags go-yaml does not resolve
 * (`!custom`, `!!merge` on a value) leave the text a string.
 */
export function resolveTagged(tag: string, text: string): GoScalar | { error: string } {
  const short = tag.startsWith(YAML_TAG) ? tag.slice(YAML_TAG.length) : null;
  if (short === 'str') return { type: 'str', value: text };
  if (short === 'binary') {
    const clean = text.replace(/\s+/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(clean)) {
      return { error: '!!binary value contains invalid base64 data' };
    }
    return { type: 'str', value: Buffer.from(clean, 'base64').toString('utf8') };
  }
  if (short === null || !['bool', 'int', 'float', 'null', 'timestamp'].includes(short)) return { type: 'str', value: text };
  const r = resolve(short, text);
  const got = r.type === 'uint' ? 'int' : r.type;
  if (got === short) return r;
  if (short === 'float' && got === 'int') return { type: 'float', value: r.value };
  if (short === 'timestamp' && r.type === 'str' && isTimestamp(text)) return r;
  return { error: `cannot decode !!${got} \`${text}\` as a !!${short}` };
}

function resolve(tag: string, text: string): GoScalar {
  const first = text.charCodeAt(0);
  const hint =
    text === ''
      ? 'N'
      : text[0] === '+' || text[0] === '-'
        ? 'S'
        : first >= 48 && first <= 57
          ? 'D'
          : 'yYnNtTfFoO~'.includes(text[0] ?? '')
            ? 'M'
            : text[0] === '.'
              ? '.'
              : '';
  if (hint === '') return { type: 'str', value: text };
  const known = TABLE.get(text);
  if (known) return known;
  if (hint === '.') {
    const f = goParseFloat(text);
    return f === null ? { type: 'str', value: text } : { type: 'float', value: f };
  }
  if (hint === 'D' || hint === 'S') {
    // Dates stay strings when decoded into interface{} (decode.go keeps timestamps as written).
    if ((tag === '' || tag === 'timestamp') && isTimestamp(text)) return { type: 'str', value: text };
    const plain = text.replace(/_/g, '');
    const int = goParseInt(plain);
    if (int !== null) return { type: 'int', value: int };
    const uint = goParseUint(plain);
    if (uint !== null) return { type: 'uint', value: uint };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = goParseFloat(plain);
      if (f !== null) return { type: 'float', value: f };
    }
  }
  return { type: 'str', value: text };
}

const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** strconv.ParseUint(s, 0, 64): `0x`/`0o`/`0b` prefixes (any case), a leading `0` for octal; no sign. */
function parseUnsigned(s: string): bigint | null {
  if (s === '') return null;
  let base = 10;
  let digits = s;
  if (s[0] === '0') {
    const p = s.length >= 3 ? (s[1] ?? '').toLowerCase() : '';
    if (p === 'b' || p === 'o' || p === 'x') {
      base = p === 'b' ? 2 : p === 'o' ? 8 : 16;
      digits = s.slice(2);
    } else {
      base = 8;
      digits = s.slice(1);
    }
  }
  let n = 0n;
  for (const ch of digits) {
    const d = parseInt(ch, 36);
    if (Number.isNaN(d) || d >= base) return null;
    n = n * BigInt(base) + BigInt(d);
    if (n > UINT64_MAX) return null;
  }
  return n;
}

function goParseUint(s: string): number | null {
  const n = parseUnsigned(s);
  return n === null ? null : Number(n);
}

/** strconv.ParseInt(s, 0, 64). */
function goParseInt(s: string): number | null {
  const neg = s[0] === '-';
  const body = s[0] === '-' || s[0] === '+' ? s.slice(1) : s;
  const n = parseUnsigned(body);
  if (n === null || n > INT64_MAX + (neg ? 1n : 0n)) return null;
  return Number(neg ? -n : n);
}

/** strconv.ParseFloat for the decimal spellings go-yaml hands it; null on a syntax or range error. */
function goParseFloat(s: string): number | null {
  if (s.includes('_') && !underscoresOk(s)) return null;
  const plain = s.replace(/_/g, '');
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(plain)) return null;
  const f = Number(plain);
  return Number.isFinite(f) ? f : null;
}

/** Go's underscoreOK: an underscore only between digits. */
function underscoresOk(s: string): boolean {
  let saw = '^';
  for (const ch of s.replace(/^[-+]/, '')) {
    if (ch >= '0' && ch <= '9') saw = '0';
    else if (ch === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

// go-yaml's allowedTimestampFormats: 2006-1-2T15:4:5.999999999Z07:00 (t too), 2006-1-2 15:4:5.999999999, 2006-1-2.
const TIMESTAMP_RE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?))?$/;

function isTimestamp(text: string): boolean {
  if (!TIMESTAMP_START.test(text)) return false;
  const m = TIMESTAMP_RE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  const [h, min, sec] = [m[4] ?? m[7], m[5] ?? m[8], m[6] ?? m[9]].map((x) => Number(x ?? 0)) as [number, number, number];
  return h < 24 && min < 60 && sec < 60;
}

/**
 * The JSON key sigs.k8s.io/yaml makes of a map key (convertToJSONableObject): strings as they
 * are, integers in decimal, floats as Go's `FormatFloat(f, 'g', -1, 32)`, booleans as
 * `true`/`false`; null and unsigned keys above int64 fail the conversion (null is returned).
 */
export function jsonKey(key: GoScalar): string | null {
  switch (key.type) {
    case 'str':
      return key.value as string;
    case 'int':
      return BigInt(key.value as number).toString();
    case 'bool':
      return key.value ? 'true' : 'false';
    case 'float':
      return formatFloat32(key.value as number);
    default:
      return null;
  }
}

/** strconv.FormatFloat(f, 'g', -1, 32), with go-yaml's spellings of infinities and NaN. */
function formatFloat32(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  const v = Math.fround(f);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  let exp = '';
  for (let p = 1; p <= 9; p++) {
    exp = v.toExponential(p - 1);
    if (Math.fround(Number(exp)) === v) break;
  }
  const [mant = '', e = '0'] = exp.split('e');
  const neg = mant.startsWith('-');
  const digits = mant.replace(/[-.]/g, '');
  const x = Number(e);
  if (x < -4 || x >= 6) {
    const frac = digits.slice(1);
    const ee = Math.abs(x).toString().padStart(2, '0');
    return `${neg ? '-' : ''}${digits[0] ?? ''}${frac === '' ? '' : `.${frac}`}e${x < 0 ? '-' : '+'}${ee}`;
  }
  const point = x + 1;
  const whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  const frac = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
  return `${neg ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
}
