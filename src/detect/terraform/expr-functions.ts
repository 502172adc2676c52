import { stringify as stringifyYaml } from 'yaml';
import { parseYamlLinear } from '../../util/yaml-linear.js';
import { asSet, flatten, format, fail, list, made, map, MAX_RANGE, numbers, trimChars, unknownOf } from './expr-function-helpers.js';
import type { Builtin, CallContext } from './expr-function-helpers.js';
import { canonical, describe, isMap, known, num, toText, truthy, Unk, Unresolved } from './expr-values.js';
import type { PValue, Value } from './expr-values.js';

const BUILTINS: Record<string, Builtin> = {
  // Numbers
  abs: { fn: ([x]) => Math.abs(num(x, 'abs')) },
  ceil: { fn: ([x]) => Math.ceil(num(x, 'ceil')) },
  floor: { fn: ([x]) => Math.floor(num(x, 'floor')) },
  max: { fn: (a) => (a.length === 0 ? fail('max() with no argument') : Math.max(...numbers(a, 'max'))) },
  min: { fn: (a) => (a.length === 0 ? fail('min() with no argument') : Math.min(...numbers(a, 'min'))) },
  pow: { fn: ([x, y]) => num(x, 'pow') ** num(y, 'pow') },
  signum: { fn: ([x]) => Math.sign(num(x, 'signum')) },
  log: { fn: ([x, b]) => Math.log(num(x, 'log')) / Math.log(num(b, 'log')) },
  parseint: {
    fn: ([s, b]) => {
      const n = Number.parseInt(toText(s), num(b, 'parseint'));
      return Number.isNaN(n) ? fail(`parseint() of ${describe(s ?? null)}`) : n;
    },
  },
  sum: { fn: ([l]) => numbers(list(l ?? null, 'sum'), 'sum').reduce((a, b) => a + b, 0) },
  // Strings
  chomp: { fn: ([s]) => toText(s).replace(/(\r?\n)+$/, '') },
  format: { fn: ([s, ...rest], ctx) => made(ctx, format(toText(s), rest)) },
  join: {
    fn: ([sep, ...lists], ctx) =>
      made(
        ctx,
        lists
          .flatMap((l) => list(l ?? null, 'join'))
          .map(toText)
          .join(toText(sep)),
      ),
  },
  base64encode: { fn: ([s], ctx) => made(ctx, Buffer.from(toText(s), 'utf8').toString('base64')) },
  // Terraform refuses text that is not base64, or bytes that are not UTF-8: an error, not a value.
  base64decode: {
    fn: ([s], ctx) => {
      const text = toText(s);
      if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Unresolved(`${ctx.text}: not base64`, true);
      try {
        return made(ctx, new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'base64')));
      } catch {
        throw new Unresolved(`${ctx.text}: the decoded bytes are not UTF-8`, true);
      }
    },
  },
  lower: { fn: ([s]) => toText(s).toLowerCase() },
  upper: { fn: ([s]) => toText(s).toUpperCase() },
  title: { fn: ([s]) => toText(s).replace(/\b\w/g, (c) => c.toUpperCase()) },
  replace: {
    fn: ([s, from, to], ctx) => {
      const pattern = toText(from);
      // A regular expression here is RE2's; not evaluated rather than read with another engine.
      if (pattern.length > 1 && pattern.startsWith('/') && pattern.endsWith('/')) throw new Unresolved(`${ctx.text}, a regular expression`);
      return made(ctx, pattern === '' ? toText(s) : toText(s).split(pattern).join(toText(to)));
    },
  },
  split: { fn: ([sep, s], ctx) => made(ctx, toText(s).split(toText(sep))) },
  startswith: { fn: ([s, p]) => toText(s).startsWith(toText(p)) },
  endswith: { fn: ([s, p]) => toText(s).endsWith(toText(p)) },
  strcontains: { fn: ([s, p]) => toText(s).includes(toText(p)) },
  strrev: { fn: ([s]) => [...toText(s)].reverse().join('') },
  substr: {
    fn: ([s, off, len]) => {
      const chars = [...toText(s)];
      let from = num(off, 'substr');
      if (from < 0) from += chars.length;
      const n = num(len, 'substr');
      return chars.slice(from, n < 0 ? undefined : from + n).join('');
    },
  },
  trim: { fn: ([s, cut]) => trimChars(toText(s), toText(cut)) },
  trimprefix: { fn: ([s, p]) => (toText(s).startsWith(toText(p)) ? toText(s).slice(toText(p).length) : toText(s)) },
  trimsuffix: { fn: ([s, p]) => (toText(p) !== '' && toText(s).endsWith(toText(p)) ? toText(s).slice(0, -toText(p).length) : toText(s)) },
  trimspace: { fn: ([s]) => toText(s).trim() },
  // Collections
  alltrue: { fn: ([l]) => list(l ?? null, 'alltrue').every((x) => truthy(x, 'alltrue')) },
  anytrue: { fn: ([l]) => list(l ?? null, 'anytrue').some((x) => truthy(x, 'anytrue')) },
  chunklist: {
    partial: true,
    fn: ([l, n], ctx) => {
      const items = list(l ?? null, 'chunklist');
      const size = num(n, 'chunklist');
      if (size <= 0) return [items];
      const out: PValue[] = [];
      for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
      return made(ctx, out);
    },
  },
  coalesce: {
    partial: true,
    fn: (a) => {
      for (const x of a) {
        if (x instanceof Unk) unknownOf(x);
        if (x !== null && x !== '') return x;
      }
      return fail('coalesce() with no non-null argument');
    },
  },
  coalescelist: {
    partial: true,
    fn: (a) => {
      for (const x of a) if (list(x, 'coalescelist').length > 0) return x;
      return fail('coalescelist() with no non-empty list');
    },
  },
  compact: {
    fn: ([l], ctx) =>
      made(
        ctx,
        list(l ?? null, 'compact').filter((x) => x !== null && x !== ''),
      ),
  },
  concat: {
    partial: true,
    fn: (a, ctx) =>
      made(
        ctx,
        a.flatMap((x) => list(x, 'concat')),
      ),
  },
  contains: {
    fn: ([l, x]) => {
      const want = canonical(known(x ?? null));
      return list(l ?? null, 'contains').some((y) => canonical(known(y)) === want);
    },
  },
  distinct: {
    fn: ([l], ctx) => {
      const seen = new Set<string>();
      return made(
        ctx,
        list(l ?? null, 'distinct').filter((x) => {
          const k = canonical(known(x));
          return !seen.has(k) && Boolean(seen.add(k));
        }),
      );
    },
  },
  element: {
    partial: true,
    fn: ([l, i]) => {
      const items = list(l ?? null, 'element');
      if (items.length === 0) return fail('element() of an empty list');
      const n = Math.trunc(num(i, 'element'));
      return items[((n % items.length) + items.length) % items.length] as PValue;
    },
  },
  flatten: { partial: true, fn: ([l], ctx) => flatten(l ?? null, ctx) },
  index: {
    fn: ([l, x]) => {
      const want = canonical(known(x ?? null));
      const i = list(l ?? null, 'index').findIndex((y) => canonical(known(y)) === want);
      return i < 0 ? fail('index() of a value that is not in the list') : i;
    },
  },
  keys: { partial: true, fn: ([m], ctx) => made(ctx, Object.keys(map(m ?? null, 'keys')).sort()) },
  values: {
    partial: true,
    fn: ([m], ctx) => {
      const o = map(m ?? null, 'values');
      return made(
        ctx,
        Object.keys(o)
          .sort()
          .map((k) => o[k] as PValue),
      );
    },
  },
  length: {
    partial: true,
    fn: ([x]) => {
      if (x instanceof Unk) unknownOf(x);
      if (typeof x === 'string') return [...x].length;
      if (Array.isArray(x)) return x.length;
      if (isMap(x)) return Object.keys(x).length;
      return fail(`length() of ${describe(x ?? null)}`);
    },
  },
  lookup: {
    partial: true,
    fn: ([m, k, d]) => {
      const o = map(m ?? null, 'lookup');
      const key = toText(k);
      if (key in o) return o[key] as PValue;
      if (d === undefined) return fail(`lookup() of a missing key "${key}" with no default`);
      return d;
    },
  },
  merge: {
    partial: true,
    fn: (a, ctx) => {
      const out: Record<string, PValue> = {};
      for (const x of a) if (x !== null) Object.assign(out, map(x, 'merge'));
      return made(ctx, out);
    },
  },
  one: {
    partial: true,
    fn: ([l]) => {
      const items = l === null ? [] : list(l ?? null, 'one');
      if (items.length > 1) return fail('one() of a list of more than one element');
      return items[0] ?? null;
    },
  },
  range: {
    fn: (a, ctx) => {
      const [start, end, step] =
        a.length === 1 ? [0, num(a[0], 'range'), 1] : [num(a[0], 'range'), num(a[1], 'range'), a.length > 2 ? num(a[2], 'range') : 1];
      if (step === 0) return fail('range() with a step of 0');
      const n = Math.max(0, Math.ceil((end - start) / step));
      if (n > MAX_RANGE) return fail(`range() of more than ${MAX_RANGE} elements`);
      ctx.budget.made(n, 'list');
      return Array.from({ length: n }, (_, i) => start + i * step);
    },
  },
  reverse: { partial: true, fn: ([l], ctx) => made(ctx, [...list(l ?? null, 'reverse')].reverse()) },
  setintersection: {
    fn: ([first, ...rest], ctx) => {
      const others = rest.map((l) => new Set(list(l ?? null, 'setintersection').map((x) => canonical(known(x)))));
      return made(
        ctx,
        asSet(list(first ?? null, 'setintersection').map(known)).filter((x) => others.every((o) => o.has(canonical(x)))),
      );
    },
  },
  setsubtract: {
    fn: ([a, b], ctx) => {
      const drop = new Set(list(b ?? null, 'setsubtract').map((x) => canonical(known(x))));
      return made(
        ctx,
        asSet(list(a ?? null, 'setsubtract').map(known)).filter((x) => !drop.has(canonical(x))),
      );
    },
  },
  setunion: { fn: (a, ctx) => made(ctx, asSet(a.flatMap((l) => list(l, 'setunion').map(known)))) },
  setproduct: {
    fn: (a, ctx) => {
      let out: Value[][] = [[]];
      for (const l of a) {
        const items = asSet(list(l, 'setproduct').map(known));
        ctx.budget.made(out.length * items.length, 'list');
        out = out.flatMap((prefix) => items.map((x) => [...prefix, x]));
      }
      return a.length === 0 ? [] : out;
    },
  },
  slice: {
    partial: true,
    fn: ([l, from, to], ctx) => {
      const items = list(l ?? null, 'slice');
      const a = num(from, 'slice');
      const b = num(to, 'slice');
      if (a < 0 || b > items.length || a > b) return fail('slice() out of range');
      return made(ctx, items.slice(a, b));
    },
  },
  sort: {
    fn: ([l], ctx) =>
      made(
        ctx,
        list(l ?? null, 'sort')
          .map(toText)
          .sort(),
      ),
  },
  zipmap: {
    partial: true,
    fn: ([k, v], ctx) => {
      const keys = list(k ?? null, 'zipmap').map(toText);
      const vals = list(v ?? null, 'zipmap');
      if (keys.length !== vals.length) return fail('zipmap() of lists of different lengths');
      return made(ctx, Object.fromEntries(keys.map((key, i) => [key, vals[i] as PValue])));
    },
  },
  transpose: {
    fn: ([m], ctx) => {
      const out: Record<string, string[]> = {};
      for (const [key, l] of Object.entries(map(m ?? null, 'transpose')))
        for (const x of list(l, 'transpose')) (out[toText(x)] ??= []).push(key);
      return made(ctx, out);
    },
  },
  // Types
  tobool: { partial: true, fn: ([x]) => (x === null || x === undefined ? null : truthy(x, 'tobool')) },
  tonumber: { partial: true, fn: ([x]) => (x === null || x === undefined ? null : num(x, 'tonumber')) },
  tostring: { partial: true, fn: ([x]) => (x === null || x === undefined ? null : toText(x)) },
  tolist: { partial: true, fn: ([x]) => (x === null || x === undefined ? null : list(x, 'tolist')) },
  toset: { fn: ([x], ctx) => (x === null || x === undefined ? null : made(ctx, asSet(list(x, 'toset').map(known)))) },
  tomap: { partial: true, fn: ([x]) => (x === null || x === undefined ? null : map(x, 'tomap')) },
  sensitive: { partial: true, fn: ([x]) => x ?? null },
  nonsensitive: { partial: true, fn: ([x]) => x ?? null },
  // Encodings
  jsonencode: { fn: ([x], ctx) => made(ctx, JSON.stringify(known(x ?? null))) },
  jsondecode: {
    fn: ([s], ctx) => {
      try {
        ctx.budget.made(toText(s).length, 'string');
        return JSON.parse(toText(s)) as Value;
      } catch {
        return fail('jsondecode() of text that is not JSON');
      }
    },
  },
  yamlencode: { fn: ([x], ctx) => made(ctx, stringifyYaml(known(x ?? null))) },
  yamldecode: {
    fn: ([s], ctx) => {
      ctx.budget.made(toText(s).length, 'string');
      try {
        return (parseYamlLinear(toText(s), { maxAliasCount: 100 }) ?? null) as Value;
      } catch {
        return fail('yamldecode() of text that is not YAML');
      }
    },
  },
};

/** Calls a built-in function; one this tool does not evaluate makes the value unknown, never an error `try()` skips. */
export function callFunction(name: string, args: PValue[], ctx: CallContext): PValue {
  const builtin = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
  if (!builtin) throw new Unresolved(`${ctx.text}, a call of ${name}() that this tool does not evaluate`);
  ctx.budget.charge(1 + args.length);
  if (!builtin.partial) for (const a of args) known(a);
  return ctx.budget.weighed(builtin.fn(args, ctx));
}
