import { kubeStringify } from '../../kit/kube-yaml.js';
import { goPrintf } from './printf.js';
import {
  asInt,
  asMap,
  asString,
  castFloat,
  castInt,
  goQuote,
  goSprint,
  goString,
  goType,
  isMap,
  isNil,
  plain,
  RenderError,
  truth,
} from './values.js';

/** What a function may ask of the render running it. */
export interface Call {
  include: (name: string, data: unknown) => string;
  tpl: (text: string, data: unknown) => string;
  step: (n: number) => void;
}

type Fn = (args: unknown[], call: Call) => unknown;

function arity(name: string, args: readonly unknown[], want: number, variadic = false): void {
  if (variadic ? args.length < want : args.length !== want) {
    throw new RenderError(`wrong number of args for ${name}: want ${variadic ? 'at least ' : ''}${want} got ${args.length}`, name);
  }
}

/** The longest list `until` builds here; Helm's own is bounded by memory alone. */
const MAX_UNTIL = 100_000;

const fixed =
  (name: string, n: number, f: (...a: unknown[]) => unknown): Fn =>
  (args) => {
    arity(name, args, n);
    return f(...args);
  };

/** sprig's strval: strings as they are, anything else as fmt's %v. */
const strval = (v: unknown): string => (typeof v === 'string' ? v : goString(v));

/** sprig's empty. */
function empty(v: unknown): boolean {
  return !truth(v);
}

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid' | 'other';
const kind = (v: unknown): Kind =>
  typeof v === 'boolean'
    ? 'bool'
    : typeof v === 'bigint'
      ? 'int'
      : typeof v === 'number'
        ? 'float'
        : typeof v === 'string'
          ? 'string'
          : isNil(v)
            ? 'invalid'
            : 'other';

/** text/template's eq (Go 1.18+): basic kinds compare; nil equals only nil; other mixes are errors. */
function eq(a: unknown, ...rest: unknown[]): boolean {
  if (rest.length === 0) throw new RenderError('missing argument for comparison', 'eq');
  for (const b of rest) {
    const [ka, kb] = [kind(a), kind(b)];
    if (ka === 'other' || kb === 'other') throw new RenderError(`non-comparable types ${goType(a)}, ${goType(b)}`, 'eq');
    if (ka !== kb) {
      if (ka !== 'invalid' && kb !== 'invalid') throw new RenderError('incompatible types for comparison', 'eq');
      continue;
    }
    if (a === b || (ka === 'invalid' && kb === 'invalid')) return true;
  }
  return false;
}

function lt(a: unknown, b: unknown, name: string): boolean {
  const [ka, kb] = [kind(a), kind(b)];
  if (ka !== kb)
    throw new RenderError(ka === 'invalid' || kb === 'invalid' ? 'invalid type for comparison' : 'incompatible types for comparison', name);
  if (ka === 'bool' || ka === 'other' || ka === 'invalid') throw new RenderError('invalid type for comparison', name);
  return (a as number) < (b as number);
}

function indent(spaces: unknown, text: unknown, name: string): string {
  const pad = ' '.repeat(Math.max(0, asInt(spaces, name)));
  return pad + asString(text, name).replaceAll('\n', `\n${pad}`);
}

/** Helm's toYaml (sigs.k8s.io/yaml through JSON): keys sorted, no trailing newline; "" on failure. */
function toYaml(v: unknown): string {
  if (isNil(v)) return 'null';
  return kubeStringify(sorted(plain(v))).replace(/\n$/, '');
}

/** Go's JSON (and so sigs.k8s.io/yaml) writes a map's keys sorted. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!isMap(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted(v[k])]),
  );
}

function dict(args: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 2) out[strval(args[i])] = i + 1 < args.length ? args[i + 1] : '';
  return out;
}

const int64 = (name: string) => (args: unknown[]) => {
  arity(name, args, 1);
  return castInt(args[0]);
};

/**
 * The functions the renderer knows: text/template's built-ins and the Sprig and Helm functions
 * charts use to size capacity, with their Go semantics (argument types checked as Go's call
 * checks them). Any other function is not rendered: the template is not followed, naming it.
 */
export const FUNCS: Record<string, Fn> = {
  not: fixed('not', 1, (a) => !truth(a)),
  eq: (args) => {
    arity('eq', args, 1, true);
    return eq(args[0], ...args.slice(1));
  },
  ne: fixed('ne', 2, (a, b) => !eq(a, b)),
  lt: fixed('lt', 2, (a, b) => lt(a, b, 'lt')),
  le: fixed('le', 2, (a, b) => lt(a, b, 'le') || eq(a, b)),
  gt: fixed('gt', 2, (a, b) => !(lt(a, b, 'gt') || eq(a, b))),
  ge: fixed('ge', 2, (a, b) => !lt(a, b, 'ge')),
  len: fixed('len', 1, (a) => {
    if (typeof a === 'string') return BigInt(new TextEncoder().encode(a).length);
    if (Array.isArray(a)) return BigInt(a.length);
    if (isMap(a)) return BigInt(Object.keys(a).length);
    throw new RenderError(isNil(a) ? 'len of nil pointer' : `len of type ${goType(a)}`, 'len');
  }),
  index: (args) => {
    arity('index', args, 1, true);
    let at = args[0];
    for (const k of args.slice(1)) {
      if (isMap(at)) at = Object.hasOwn(at, asString(k, 'index')) ? at[k as string] : null;
      else if (Array.isArray(at)) {
        const i = asInt(k, 'index');
        if (i < 0 || i >= at.length) throw new RenderError(`error calling index: index out of range: ${i}`, 'index');
        at = at[i];
      } else throw new RenderError(`error calling index: can't index item of type ${goType(at)}`, 'index');
    }
    return at;
  },
  print: (args) => goSprint(args),
  println: (args) => `${args.map(goString).join(' ')}\n`,
  printf: (args) => {
    arity('printf', args, 1, true);
    return goPrintf(asString(args[0], 'printf'), args.slice(1));
  },
  // Sprig.
  default: (args) => {
    arity('default', args, 1, true);
    return args.length < 2 || empty(args[1]) ? args[0] : args[1];
  },
  empty: fixed('empty', 1, empty),
  coalesce: (args) => args.find((a) => !empty(a)) ?? null,
  ternary: fixed('ternary', 3, (t, f, c) => {
    if (typeof c !== 'boolean') throw new RenderError(`wrong type for value; expected bool; got ${goType(c)}`, 'ternary');
    return c ? t : f;
  }),
  quote: (args) =>
    args
      .filter((a) => !isNil(a))
      .map((a) => goQuote(strval(a)))
      .join(' '),
  squote: (args) =>
    args
      .filter((a) => !isNil(a))
      .map((a) => `'${strval(a)}'`)
      .join(' '),
  toString: fixed('toString', 1, strval),
  int: int64('int'),
  int64: int64('int64'),
  float64: fixed('float64', 1, castFloat),
  add: (args) => args.reduce<bigint>((s, a) => s + castInt(a), 0n),
  add1: fixed('add1', 1, (a) => castInt(a) + 1n),
  sub: fixed('sub', 2, (a, b) => castInt(a) - castInt(b)),
  mul: (args) => {
    arity('mul', args, 1, true);
    return args.reduce<bigint>((s, a) => s * castInt(a), 1n);
  },
  div: fixed('div', 2, (a, b) => {
    if (castInt(b) === 0n) throw new RenderError('runtime error: integer divide by zero', 'div');
    return castInt(a) / castInt(b);
  }),
  max: (args) => {
    arity('max', args, 1, true);
    return args.map(castInt).reduce((m, x) => (x > m ? x : m));
  },
  min: (args) => {
    arity('min', args, 1, true);
    return args.map(castInt).reduce((m, x) => (x < m ? x : m));
  },
  until: fixed('until', 1, (n) => {
    const count = asInt(n, 'until');
    // Helm builds the whole list: one past the bound is not followed, never cut short (a `range`
    // over it would then render fewer objects than Helm does, and count fewer GPUs).
    if (count > MAX_UNTIL)
      throw new RenderError(`until ${count}, a list of more than ${MAX_UNTIL.toLocaleString('en-US')} numbers`, 'until');
    return Array.from({ length: Math.max(0, count) }, (_, i) => BigInt(i));
  }),
  indent: fixed('indent', 2, (n, s) => indent(n, s, 'indent')),
  nindent: fixed('nindent', 2, (n, s) => `\n${indent(n, s, 'nindent')}`),
  trim: fixed('trim', 1, (s) => asString(s, 'trim').trim()),
  upper: fixed('upper', 1, (s) => asString(s, 'upper').toUpperCase()),
  lower: fixed('lower', 1, (s) => asString(s, 'lower').toLowerCase()),
  trunc: fixed('trunc', 2, (n, s) => {
    const c = asInt(n, 'trunc');
    const str = asString(s, 'trunc');
    if (c < 0 && str.length + c > 0) return str.slice(str.length + c);
    return c >= 0 && str.length > c ? str.slice(0, c) : str;
  }),
  trimSuffix: fixed('trimSuffix', 2, (a, b) => {
    const [suffix, s] = [asString(a, 'trimSuffix'), asString(b, 'trimSuffix')];
    return suffix !== '' && s.endsWith(suffix) ? s.slice(0, -suffix.length) : s;
  }),
  trimPrefix: fixed('trimPrefix', 2, (a, b) => {
    const [prefix, s] = [asString(a, 'trimPrefix'), asString(b, 'trimPrefix')];
    return s.startsWith(prefix) ? s.slice(prefix.length) : s;
  }),
  // sprig: strings.Split(orig, sep), a list of the parts.
  splitList: fixed('splitList', 2, (sep, s) => asString(s, 'splitList').split(asString(sep, 'splitList'))),
  replace: fixed('replace', 3, (o, n, s) => asString(s, 'replace').replaceAll(asString(o, 'replace'), asString(n, 'replace'))),
  contains: fixed('contains', 2, (sub, s) => asString(s, 'contains').includes(asString(sub, 'contains'))),
  hasPrefix: fixed('hasPrefix', 2, (p, s) => asString(s, 'hasPrefix').startsWith(asString(p, 'hasPrefix'))),
  hasSuffix: fixed('hasSuffix', 2, (p, s) => asString(s, 'hasSuffix').endsWith(asString(p, 'hasSuffix'))),
  hasKey: fixed('hasKey', 2, (m, k) => Object.hasOwn(asMap(m, 'hasKey'), asString(k, 'hasKey'))),
  get: fixed('get', 2, (m, k) => {
    const map = asMap(m, 'get');
    const key = asString(k, 'get');
    return Object.hasOwn(map, key) ? map[key] : '';
  }),
  set: fixed('set', 3, (m, k, v) => {
    const map = asMap(m, 'set');
    map[asString(k, 'set')] = v;
    return map;
  }),
  dict: (args) => dict(args),
  list: (args) => [...args],
  first: fixed('first', 1, (l) => (Array.isArray(l) ? (l[0] ?? null) : null)),
  last: fixed('last', 1, (l) => (Array.isArray(l) ? (l[l.length - 1] ?? null) : null)),
  kindIs: fixed('kindIs', 2, (k, v) => asString(k, 'kindIs') === kindName(v)),
  kindOf: fixed('kindOf', 1, kindName),
  toYaml: fixed('toYaml', 1, toYaml),
  toJson: fixed('toJson', 1, (v) => (isNil(v) ? 'null' : JSON.stringify(sorted(plain(v))))),
  required: fixed('required', 2, (msg, v) => {
    if (isNil(v) || v === '') throw new RenderError(`required: ${asString(msg, 'required')}`, 'required');
    return v;
  }),
  fail: fixed('fail', 1, (msg) => {
    throw new RenderError(`fail: ${asString(msg, 'fail')}`, 'fail');
  }),
  // Helm.
  include: (args, call) => {
    arity('include', args, 2);
    return call.include(asString(args[0], 'include'), args[1]);
  },
  tpl: (args, call) => {
    arity('tpl', args, 2);
    return call.tpl(asString(args[0], 'tpl'), args[1]);
  },
};

/** reflect's Kind names, as Sprig's kindOf prints them for values out of YAML. */
function kindName(v: unknown): string {
  if (isNil(v)) return 'invalid';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'slice' : 'map';
}
