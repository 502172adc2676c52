/**
 * Go values as a template sees Helm's: values come from YAML through JSON, so every number in them
 * is a float64 (a JS number); integer literals and what `int`, `len` and `add` return are Go ints
 * (a JS bigint). nil is null or undefined; maps are plain objects, slices arrays.
 */

import { GpuJustifyError } from '../../../domain/errors.js';

export class RenderError extends GpuJustifyError {
  override readonly kind = 'template-render';

  constructor(
    message: string,
    /** The function that failed or is outside the renderer's set, where one did. */
    readonly fn: string | null = null,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

type GoMap = Record<string, unknown>;

export const isMap = (v: unknown): v is GoMap => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isNil = (v: unknown): v is null | undefined => v === null || v === undefined;

/** Go's type name of a value, as errors and `kindOf` print it. */
export function goType(v: unknown): string {
  if (isNil(v)) return 'invalid';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** text/template's truth: false, 0, nil and empty strings, slices and maps are false. */
export function truth(v: unknown): boolean {
  if (isNil(v) || v === false || v === 0 || v === 0n || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

/** strconv.FormatFloat(f, 'g', -1, 64): shortest digits, %e when the exponent is < -4 or >= 6. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant = '', expText = '0'] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  const neg = mant.startsWith('-');
  const digits = mant.replace(/^-/, '').replace('.', '');
  let out: string;
  if (exp >= 0) out = digits.length > exp + 1 ? `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}` : digits.padEnd(exp + 1, '0');
  else out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  return neg ? `-${out}` : out;
}

/** fmt.Sprint of one value (%v). */
export function goString(v: unknown): string {
  if (isNil(v)) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goString).join(' ')}]`;
  const m = v as GoMap;
  return `map[${Object.keys(m)
    .sort()
    .map((k) => `${k}:${goString(m[k])}`)
    .join(' ')}]`;
}

/** What `{{ x }}` prints: `<no value>` for nil (Helm then removes it from the output). */
export function printed(v: unknown): string {
  return isNil(v) ? '<no value>' : goString(v);
}

/** fmt.Sprint(args...): a space between operands when neither is a string. */
export function goSprint(args: readonly unknown[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += goString(a);
  });
  return out;
}

/** strconv.Quote: Go escapes, printable Unicode kept. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    const simple: Record<string, string> = {
      '"': '\\"',
      '\\': '\\\\',
      '\x07': '\\a',
      '\b': '\\b',
      '\f': '\\f',
      '\n': '\\n',
      '\r': '\\r',
      '\t': '\\t',
      '\v': '\\v',
    };
    if (simple[ch] !== undefined) out += simple[ch];
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (/[\p{C}\p{Zl}\p{Zp}]/u.test(ch) || (/\p{Zs}/u.test(ch) && ch !== ' ')) {
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** A Go `string` parameter: anything else is the error Go's call would give. */
export function asString(v: unknown, fn: string): string {
  if (typeof v === 'string') return v;
  if (isNil(v)) throw new RenderError(`error calling ${fn}: invalid value; expected string`, fn);
  throw new RenderError(`wrong type for value; expected string; got ${goType(v)}`, fn);
}

/** A Go `int` parameter. */
export function asInt(v: unknown, fn: string): number {
  if (typeof v === 'bigint') return Number(v);
  if (isNil(v)) throw new RenderError(`error calling ${fn}: invalid value; expected int`, fn);
  throw new RenderError(`wrong type for value; expected int; got ${goType(v)}`, fn);
}

/** A Go map parameter (`map[string]interface {}`). */
export function asMap(v: unknown, fn: string): GoMap {
  if (isMap(v)) return v;
  throw new RenderError(`wrong type for value; expected map[string]interface {}; got ${goType(v)}`, fn);
}

/** spf13/cast's ToInt64, as sprig's `int`, `int64` and arithmetic use it: 0 where it cannot convert. */
export function castInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') {
    // cast trims a zero decimal part ("8.0") and parses with base 0 (0x, 0o, 0b, a leading 0 is octal).
    const s = v.replace(/^([+-]?\d+)\.0*$/, '$1').replace(/_/g, '');
    const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9]\d*|0)$/.exec(s);
    if (!m) return 0n;
    const body = m[2] ?? '0';
    const v2 = BigInt(/^0[0-7]/.test(body) ? `0o${body.slice(1)}` : body);
    return m[1] === '-' ? -v2 : v2;
  }
  return 0n;
}

/** spf13/cast's ToFloat64. */
export function castFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)) return Number(v);
  return 0;
}

/** Values as JSON would hold them (for toYaml, toJson): Go ints become numbers. */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}
