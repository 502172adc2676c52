import type { Node } from 'web-tree-sitter';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';

type Fn = (args: BicepValue[], scope: BicepScope) => BicepValue;
type Obj = { [key: string]: BicepValue };

const isObj = (v: BicepValue): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: BicepValue, fn: string): number => {
  if (typeof v === 'number') return v;
  throw new BicepUnknown(`${fn}() of ${JSON.stringify(v)}, which is not a number`);
};
const list = (v: BicepValue, fn: string): BicepValue[] => {
  if (Array.isArray(v)) return v;
  throw new BicepUnknown(`${fn}() of ${JSON.stringify(v)}, which is not an array`);
};

/** ARM's union: arrays joined without repeats, objects merged key by key (nested objects merged too), later ones winning. */
function union(values: BicepValue[]): BicepValue {
  if (values.every(Array.isArray)) {
    const out: BicepValue[] = [];
    for (const v of values as BicepValue[][]) for (const x of v) if (!out.some((y) => JSON.stringify(y) === JSON.stringify(x))) out.push(x);
    return out;
  }
  if (values.every(isObj)) {
    const merge = (a: Obj, b: Obj): Obj => {
      const out: Obj = { ...a };
      for (const [k, v] of Object.entries(b)) {
        const old = out[k];
        out[k] = old !== undefined && isObj(old) && isObj(v) ? merge(old, v) : v;
      }
      return out;
    };
    return values.reduce<Obj>((a, b) => merge(a, b), {});
  }
  throw new BicepUnknown('union() of values that are not all arrays or all objects');
}

/** The functions of Bicep and ARM that shape values in templates; the rest (resource ids, deployment context) are unknown. */
const FUNCTIONS: Readonly<Record<string, Fn>> = {
  union: (a) => union(a),
  concat: (a) =>
    a.every(Array.isArray)
      ? (a as BicepValue[][]).flat()
      : a.every((x) => typeof x === 'string' || typeof x === 'number')
        ? a.join('')
        : (() => {
            throw new BicepUnknown('concat() of values that are neither all arrays nor all strings');
          })(),
  contains: ([c, x]) => {
    if (typeof c === 'string' && typeof x === 'string') return c.toLowerCase().includes(x.toLowerCase());
    if (Array.isArray(c)) return c.some((y) => JSON.stringify(y) === JSON.stringify(x ?? null));
    if (c !== undefined && isObj(c) && typeof x === 'string') return Object.keys(c).some((k) => k.toLowerCase() === x.toLowerCase());
    throw new BicepUnknown('contains() of a value that is not a string, array or object');
  },
  empty: ([v = null]) => v === null || v === '' || (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0),
  length: ([v]) => {
    if (typeof v === 'string' || Array.isArray(v)) return v.length;
    if (v !== undefined && isObj(v)) return Object.keys(v).length;
    throw new BicepUnknown('length() of a value that is not a string, array or object');
  },
  min: (a) => Math.min(...(a.length === 1 && Array.isArray(a[0]) ? a[0] : a).map((v) => num(v, 'min'))),
  max: (a) => Math.max(...(a.length === 1 && Array.isArray(a[0]) ? a[0] : a).map((v) => num(v, 'max'))),
  int: ([v]) => {
    if (typeof v === 'number') return Math.trunc(v);
    if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
    throw new BicepUnknown(`int() of ${JSON.stringify(v)}`);
  },
  string: ([v]) => (typeof v === 'string' ? v : JSON.stringify(v ?? null)),
  bool: ([v]) => {
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    if (typeof v === 'number') return v !== 0;
    throw new BicepUnknown(`bool() of ${JSON.stringify(v)}`);
  },
  toLower: ([v = null]) => (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase(),
  toUpper: ([v = null]) => (typeof v === 'string' ? v : JSON.stringify(v)).toUpperCase(),
  range: ([start, count], scope) => {
    const n = num(count ?? null, 'range');
    scope.budget.made(n, 'list');
    return Array.from({ length: n }, (_, i) => num(start ?? null, 'range') + i);
  },
  coalesce: (a) => a.find((v) => v !== null) ?? null,
  first: ([v]) => (Array.isArray(v) ? (v[0] ?? null) : typeof v === 'string' ? (v[0] ?? '') : null),
  last: ([v]) => (Array.isArray(v) ? (v[v.length - 1] ?? null) : typeof v === 'string' ? (v[v.length - 1] ?? '') : null),
  take: ([v, n]) => (typeof v === 'string' ? v.slice(0, num(n ?? null, 'take')) : list(v ?? null, 'take').slice(0, num(n ?? null, 'take'))),
  skip: ([v, n]) => (typeof v === 'string' ? v.slice(num(n ?? null, 'skip')) : list(v ?? null, 'skip').slice(num(n ?? null, 'skip'))),
  items: ([v]) => {
    if (v === undefined || !isObj(v)) throw new BicepUnknown('items() of a value that is not an object');
    return Object.keys(v)
      .sort()
      .map((key) => ({ key, value: v[key] ?? null }));
  },
  objectKeys: ([v]) => (v !== undefined && isObj(v) ? Object.keys(v) : []),
  array: ([v]) => (Array.isArray(v) ? v : [v ?? null]),
  createArray: (a) => a,
  join: ([v, sep]) =>
    list(v ?? null, 'join')
      .map(String)
      .join(typeof sep === 'string' ? sep : ''),
  split: ([v, sep]) => {
    if (typeof v !== 'string' || typeof sep !== 'string') throw new BicepUnknown('split() of values that are not strings');
    return v.split(sep);
  },
};

/**
 * A function call: the functions above, by name or as `sys.name`, their arguments evaluated first;
 * any other (resourceGroup(), uniqueString(), a resource's outputs) is unknown, naming it.
 */
export function callFunction(node: Node, scope: BicepScope, evaluate: (arg: Node) => BicepValue): BicepValue {
  const callee = node.childForFieldName('function');
  const name = callee?.type === 'member_expression' ? (callee.childForFieldName('property')?.text ?? '') : (callee?.text ?? '');
  const namespace = callee?.type === 'member_expression' ? callee.childForFieldName('object')?.text : 'sys';
  const fn = namespace === 'sys' ? FUNCTIONS[name] : undefined;
  if (fn === undefined) throw new BicepUnknown(`${name}() is a function this tool does not evaluate`);
  const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null).map(evaluate);
  const out = fn(args, scope);
  return Array.isArray(out) || isObj(out) ? scope.budget.weighed(out) : out;
}
