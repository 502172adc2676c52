import { ExprSyntaxError, parseExpr, parseTemplate } from './expr-parse.js';
import type { Expr, Step } from './expr-parse.js';

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** A value that cannot be known without running Terraform; `culprit` names the cause. */
export class Unresolved extends Error {
  readonly kind = 'unresolved';
  constructor(readonly culprit: string) {
    super(culprit);
  }
}

/** What names resolve to; each lookup throws Unresolved when the value is not static. */
export interface Scope {
  variable(name: string): Value;
  local(name: string): Value;
  /** `each`, `count`, and dynamic-block iterators, by root name. */
  bound: ReadonlyMap<string, Value>;
}

export type Evaluated = { ok: true; value: Value } | { ok: false; culprit: string };

/**
 * Evaluates a value as hcl2json prints it: plain JSON for literals, `${…}` strings for
 * expressions (also inside lists and objects).
 */
export function evaluate(raw: unknown, scope: Scope): Evaluated {
  try {
    return { ok: true, value: evalJson(raw, scope) };
  } catch (err) {
    if (err instanceof Unresolved) return { ok: false, culprit: err.culprit };
    if (err instanceof ExprSyntaxError) return { ok: false, culprit: `an expression this tool cannot read (${err.message})` };
    throw err;
  }
}

export function evalJson(raw: unknown, scope: Scope): Value {
  if (raw === null || typeof raw === 'boolean' || typeof raw === 'number') return raw;
  if (typeof raw === 'string') return raw.includes('${') || raw.includes('%{') ? evalTemplate(raw, scope) : raw.replace(/\$\$\{/g, '${');
  if (Array.isArray(raw)) return raw.map((x) => evalJson(x, scope));
  if (typeof raw === 'object') {
    const out: Record<string, Value> = {};
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[k] = evalJson(v, scope);
    return out;
  }
  throw new Unresolved('a value of an unknown kind');
}

function evalTemplate(raw: string, scope: Scope): Value {
  const parts = parseTemplate(raw);
  const only = parts[0];
  // A template that is one interpolation keeps the value's type, as in Terraform.
  if (parts.length === 1 && typeof only !== 'string' && only) return evalExpr(only, scope);
  return parts.map((p) => (typeof p === 'string' ? p : toText(evalExpr(p, scope)))).join('');
}

/** Parses and evaluates one expression's source text. */
export function evalSource(src: string, scope: Scope): Value {
  return evalExpr(parseExpr(src), scope);
}

export function evalExpr(e: Expr, scope: Scope): Value {
  switch (e.t) {
    case 'lit':
      return e.value;
    case 'tpl': {
      const only = e.parts[0];
      if (e.parts.length === 1 && typeof only !== 'string' && only) return evalExpr(only, scope);
      return e.parts.map((p) => (typeof p === 'string' ? p : toText(evalExpr(p, scope)))).join('');
    }
    case 'ref':
      return evalRef(e, scope);
    case 'index':
      return walk(evalExpr(e.target, scope), e.steps, scope, 'the value');
    case 'call':
      return callFunction(e, scope);
    case 'un': {
      const v = evalExpr(e.arg, scope);
      return e.op === '!' ? !truthy(v, '!') : -num(v, '-');
    }
    case 'bin':
      return binary(e.op, e.left, e.right, scope);
    case 'cond':
      return truthy(evalExpr(e.test, scope), 'condition') ? evalExpr(e.then, scope) : evalExpr(e.else, scope);
    case 'tuple':
      return e.items.map((x) => evalExpr(x, scope));
    case 'object': {
      const out: Record<string, Value> = {};
      // A key written twice: the last one wins, as hclsyntax evaluates object constructors.
      for (const [k, v] of e.entries) out[toText(evalExpr(k, scope))] = evalExpr(v, scope);
      return out;
    }
    case 'for':
      return evalFor(e, scope);
    case 'opaque':
      throw new Unresolved(`${e.what} (${e.text})`);
  }
}

/** A for expression over a list (index, item) or a map (key, value, in key order), as Terraform runs it. */
function evalFor(e: Extract<Expr, { t: 'for' }>, scope: Scope): Value {
  const coll = evalExpr(e.coll, scope);
  const pairs: [Value, Value][] = Array.isArray(coll)
    ? coll.map((v, i) => [i, v])
    : coll !== null && typeof coll === 'object'
      ? Object.keys(coll)
          .sort()
          .map((k) => [k, coll[k] as Value])
      : [];
  if (!Array.isArray(coll) && (coll === null || typeof coll !== 'object')) throw new Unresolved(`a for expression over ${describe(coll)}`);
  const items: Value[] = [];
  const entries: Record<string, Value> = {};
  for (const [k, v] of pairs) {
    const bound = new Map(scope.bound);
    bound.set(e.valueVar, v);
    if (e.keyVar !== null) bound.set(e.keyVar, k);
    const inner: Scope = { ...scope, bound };
    if (e.cond !== null && !truthy(evalExpr(e.cond, inner), "a for expression's if")) continue;
    if (e.key === null) items.push(evalExpr(e.body, inner));
    else entries[toText(evalExpr(e.key, inner))] = evalExpr(e.body, inner);
  }
  return e.key === null ? items : entries;
}

function evalRef(e: Extract<Expr, { t: 'ref' }>, scope: Scope): Value {
  const bound = scope.bound.get(e.root);
  if (bound !== undefined) return walk(bound, e.steps, scope, e.text);
  const first = e.steps[0];
  const name = first && 'attr' in first ? first.attr : null;
  if (e.root === 'var' && name) return walk(scope.variable(name), e.steps.slice(1), scope, e.text);
  if (e.root === 'local' && name) return walk(scope.local(name), e.steps.slice(1), scope, e.text);
  if (e.root === 'module') throw new Unresolved(`${e.text}, a module output`);
  if (e.root === 'data') throw new Unresolved(`${e.text}, a data source`);
  if (e.root === 'each' || e.root === 'count') throw new Unresolved(`${e.text} outside a for_each or count`);
  if (e.root === 'path' || e.root === 'terraform' || e.root === 'self') throw new Unresolved(e.text);
  throw new Unresolved(`${e.text}, another resource's attribute`);
}

function walk(value: Value, steps: readonly Step[], scope: Scope, text: string): Value {
  let v = value;
  for (const step of steps) {
    const key = 'attr' in step ? step.attr : evalExpr(step.index, scope);
    if (Array.isArray(v) && typeof key === 'number') {
      if (!(key in v)) throw new Unresolved(`${text}: index ${key} is out of range`);
      v = v[key] as Value;
    } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && (typeof key === 'string' || typeof key === 'number')) {
      if (!(String(key) in v)) throw new Unresolved(`${text}: no "${key}" in the value`);
      v = v[String(key)] as Value;
    } else {
      throw new Unresolved(`${text}: cannot index ${describe(v)} with ${JSON.stringify(key)}`);
    }
  }
  return v;
}

function binary(op: string, l: Expr, r: Expr, scope: Scope): Value {
  if (op === '||') return truthy(evalExpr(l, scope), op) || truthy(evalExpr(r, scope), op);
  if (op === '&&') return truthy(evalExpr(l, scope), op) && truthy(evalExpr(r, scope), op);
  const a = evalExpr(l, scope);
  const b = evalExpr(r, scope);
  if (op === '==') return JSON.stringify(a) === JSON.stringify(b);
  if (op === '!=') return JSON.stringify(a) !== JSON.stringify(b);
  const x = num(a, op);
  const y = num(b, op);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    case '%':
      return x % y;
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    default:
      return x >= y;
  }
}

const FUNCTIONS: Record<string, (args: Value[]) => Value> = {
  max: (a) => Math.max(...a.map((x) => num(x, 'max'))),
  min: (a) => Math.min(...a.map((x) => num(x, 'min'))),
  // Numeric functions pools are sized with (`pow(2, count.index)` GPUs per node, say).
  pow: ([x, y]) => num(x, 'pow') ** num(y, 'pow'),
  floor: ([x]) => Math.floor(num(x, 'floor')),
  ceil: ([x]) => Math.ceil(num(x, 'ceil')),
  abs: ([x]) => Math.abs(num(x, 'abs')),
  tonumber: ([x]) => (x === null || x === undefined ? null : num(x, 'tonumber')),
  tostring: ([x]) => (x === null || x === undefined ? null : toText(x)),
  tobool: ([x]) => (x === null || x === undefined ? null : truthy(x, 'tobool')),
  tolist: ([x]) => x ?? null,
  toset: ([x]) => x ?? null,
  tomap: ([x]) => x ?? null,
  length: ([x]) =>
    typeof x === 'string'
      ? x.length
      : Array.isArray(x)
        ? x.length
        : x && typeof x === 'object'
          ? Object.keys(x).length
          : num(null, 'length'),
  coalesce: (a) => {
    const v = a.find((x) => x !== null && x !== '');
    if (v === undefined) throw new Unresolved('coalesce() with no non-null argument');
    return v;
  },
  lookup: ([m, k, d]) => {
    if (m === null || typeof m !== 'object' || Array.isArray(m) || typeof k !== 'string')
      throw new Unresolved('lookup() on a value that is not a map');
    if (k in m) return m[k] as Value;
    if (d === undefined) throw new Unresolved(`lookup() of a missing key "${k}" with no default`);
    return d;
  },
  contains: ([l, x]) => Array.isArray(l) && l.some((y) => JSON.stringify(y) === JSON.stringify(x)),
  keys: ([m]) => (m && typeof m === 'object' && !Array.isArray(m) ? Object.keys(m).sort() : num(null, 'keys')),
  values: ([m]) =>
    m && typeof m === 'object' && !Array.isArray(m)
      ? Object.keys(m)
          .sort()
          .map((k) => m[k] as Value)
      : num(null, 'values'),
  merge: (a) => Object.assign({}, ...a.filter((x) => x !== null)) as Value,
  concat: (a) => a.flatMap((x) => (Array.isArray(x) ? x : [x])),
  lower: ([x]) => toText(x ?? null).toLowerCase(),
  upper: ([x]) => toText(x ?? null).toUpperCase(),
  join: ([sep, l]) => (Array.isArray(l) ? l.map(toText).join(toText(sep ?? '')) : toText(num(null, 'join'))),
};

function callFunction(e: Extract<Expr, { t: 'call' }>, scope: Scope): Value {
  if (e.name === 'try') {
    for (const arg of e.args) {
      try {
        return evalExpr(arg, scope);
      } catch (err) {
        if (!(err instanceof Unresolved)) throw err;
      }
    }
    throw new Unresolved(`${e.text}, where no argument could be evaluated`);
  }
  const fn = FUNCTIONS[e.name];
  if (!fn) throw new Unresolved(`${e.text}, a call of ${e.name}() that this tool does not evaluate`);
  return fn(e.args.map((a) => evalExpr(a, scope)));
}

function num(v: Value | undefined, where: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  throw new Unresolved(`${describe(v ?? null)} where ${where} needs a number`);
}

function truthy(v: Value, where: string): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new Unresolved(`${describe(v)} where ${where} needs a bool`);
}

function toText(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Unresolved(`${describe(v)} where a string is needed`);
}

function describe(v: Value): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : JSON.stringify(v);
}
