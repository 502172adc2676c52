import type { Budget } from '../kit/eval-budget.js';
import { ExprSyntaxError, parseExpr } from './expr-parse.js';
import type { Expr } from './expr-parse.js';
import { isMap, Unk } from './expr-values.js';
import type { PValue } from './expr-values.js';

/** A variable's type constraint, as far as it shapes the value a module sees. */
export type TypeSpec =
  | { k: 'any' }
  | { k: 'string' | 'number' | 'bool' }
  | { k: 'list' | 'set' | 'map'; of: TypeSpec }
  | { k: 'tuple'; items: TypeSpec[] }
  | { k: 'object'; attrs: Map<string, Attr> };

interface Attr {
  type: TypeSpec;
  optional: boolean;
  /** `optional(type, default)`: the default, as an expression of literals. */
  fallback?: Expr;
}

const ANY: TypeSpec = { k: 'any' };

/** The type a variable block declares (`"${map(object({…}))}"` as hcl2json prints it); `any` when none or unreadable. */
export function typeOf(raw: unknown): TypeSpec {
  if (typeof raw !== 'string') return ANY;
  const src = /^\$\{([\s\S]*)\}$/.exec(raw.trim())?.[1] ?? raw;
  try {
    return spec(parseExpr(src));
  } catch (err) {
    if (err instanceof ExprSyntaxError || err instanceof TypeError) return ANY;
    throw err;
  }
}

function spec(e: Expr): TypeSpec {
  if (e.t === 'ref' && e.steps.length === 0) {
    if (e.root === 'string' || e.root === 'number' || e.root === 'bool') return { k: e.root };
    return ANY;
  }
  if (e.t !== 'call') return ANY;
  const arg = e.args[0];
  switch (e.name) {
    case 'list':
    case 'set':
    case 'map':
      return { k: e.name, of: arg ? spec(arg) : ANY };
    case 'tuple':
      return arg?.t === 'tuple' ? { k: 'tuple', items: arg.items.map(spec) } : ANY;
    case 'object': {
      if (arg?.t !== 'object') return ANY;
      const attrs = new Map<string, Attr>();
      for (const [key, value] of arg.entries) {
        if (key.t !== 'lit' && !(key.t === 'ref' && key.steps.length === 0)) return ANY;
        const name = key.t === 'lit' ? String(key.value) : key.root;
        if (value.t === 'call' && value.name === 'optional') {
          const inner = value.args[0];
          const fallback = value.args[1];
          attrs.set(name, { type: inner ? spec(inner) : ANY, optional: true, ...(fallback ? { fallback } : {}) });
        } else attrs.set(name, { type: spec(value), optional: false });
      }
      return { k: 'object', attrs };
    }
    default:
      return ANY;
  }
}

/**
 * A value converted to its variable's type as Terraform converts it: `optional(type, default)`
 * attributes left out (or null) take their default, at any depth and also inside a default; an
 * object keeps only the attributes its type names; numbers and bools given as strings become
 * numbers and bools. What does not fit the type is left as it is.
 */
export function convert(value: PValue, type: TypeSpec, budget: Budget, evalDefault: (e: Expr) => PValue): PValue {
  budget.charge();
  if (value === null || value instanceof Unk) return value;
  switch (type.k) {
    case 'any':
      return value;
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'number':
      return typeof value === 'string' && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value) ? Number(value) : value;
    case 'bool':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'list':
    case 'set':
      return Array.isArray(value) ? value.map((x) => convert(x, type.of, budget, evalDefault)) : value;
    case 'tuple':
      return Array.isArray(value) ? value.map((x, i) => convert(x, type.items[i] ?? ANY, budget, evalDefault)) : value;
    case 'map':
      return isMap(value)
        ? Object.fromEntries(Object.entries(value).map(([k, x]) => [k, convert(x, type.of, budget, evalDefault)]))
        : value;
    case 'object': {
      if (!isMap(value)) return value;
      const out: Record<string, PValue> = {};
      for (const [name, attr] of type.attrs) {
        const given = Object.hasOwn(value, name) ? value[name] : undefined;
        if (given !== undefined && given !== null) out[name] = convert(given, attr.type, budget, evalDefault);
        else if (attr.optional && attr.fallback) out[name] = convert(evalDefault(attr.fallback), attr.type, budget, evalDefault);
        else if (given === null || attr.optional) out[name] = null;
        // A required attribute left out is Terraform's error to report; the value stays without it.
      }
      return out;
    }
  }
}
