import { fail, ok } from '../../domain/result.js';
import type { Result } from '../../domain/result.js';
import { BudgetExceeded } from '../kit/eval-budget.js';
import { ExprSyntaxError, parseExpr, parseTemplate } from './expr-parse.js';
import type { Expr } from './expr-parse.js';
import { describe, isMap, known, num, pairsOf, toText, truthy, Unk, Unresolved } from './expr-values.js';
import type { PValue, Value } from './expr-values.js';
import { withBound } from './expr-scope.js';
import type { Scope } from './expr-scope.js';
import { partly } from './expr-partial.js';
import { evalRef, splat, walk } from './expr-refs.js';
import { binary, conditional } from './expr-operators.js';
import { call } from './expr-calls.js';

export { Unk, Unresolved } from './expr-values.js';
export type { PValue, Value } from './expr-values.js';
export type { Scope } from './expr-scope.js';

/** A value evaluated, or the culprit that keeps it from being known (a reference, a function, a budget). */
export type Evaluated = Result<Value, string>;
export type PartlyEvaluated = Result<PValue, string>;

/** The value fully known, or what keeps it from being known. */
export function evaluate(raw: unknown, scope: Scope): Evaluated {
  const r = evaluatePartly(raw, scope);
  if (!r.ok) return r;
  try {
    return ok(known(r.value));
  } catch (err) {
    if (err instanceof Unresolved) return fail(err.culprit);
    throw err;
  }
}

/**
 * The value with what cannot be known left as `Unk` inside it: a node group whose `subnet_ids`
 * is a module output keeps its known `max_size`. Unknown at the top, it is not ok.
 */
export function evaluatePartly(raw: unknown, scope: Scope): PartlyEvaluated {
  try {
    const value = evalJson(raw, scope);
    return value instanceof Unk ? fail(value.culprit) : ok(value);
  } catch (err) {
    if (err instanceof Unresolved) return fail(err.culprit);
    if (err instanceof ExprSyntaxError) return fail(`an expression this tool cannot read (${err.message})`);
    if (err instanceof BudgetExceeded) return fail(`gpu-justify's evaluation budget (${err.message})`);
    throw err;
  }
}

/**
 * Evaluates a value as hcl2json prints it: plain JSON for literals, `${…}` strings for
 * expressions (also inside lists and objects).
 */
export function evalJson(raw: unknown, scope: Scope): PValue {
  scope.budget.charge();
  if (raw === null || typeof raw === 'boolean' || typeof raw === 'number') return raw;
  // A part already found unknown (an object evaluated partly, chosen-object.ts) stays unknown where read.
  if (raw instanceof Unk) return raw;
  if (typeof raw === 'string') {
    if (!raw.includes('${') && !raw.includes('%{')) return raw.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{');
    return evalExpr(
      parsed(`tpl:${raw}`, () => ({ t: 'tpl', parts: parseTemplate(raw) }), scope),
      scope,
    );
  }
  if (Array.isArray(raw)) {
    scope.budget.made(raw.length, 'list');
    return scope.budget.weighed(raw.map((x) => partly(() => evalJson(x, scope))));
  }
  if (typeof raw === 'object') {
    const out: Record<string, PValue> = {};
    const list = Object.entries(raw as Record<string, unknown>);
    scope.budget.made(list.length, 'list');
    for (const [k, v] of list) out[k] = partly(() => evalJson(v, scope));
    return scope.budget.weighed(out);
  }
  throw new Unresolved('a value of an unknown kind');
}

function parsed(key: string, parse: () => Expr, scope: Scope): Expr {
  const cache = scope.budget.parsed;
  let e = cache.get(key);
  if (e === undefined) {
    try {
      e = parse();
    } catch (err) {
      if (!(err instanceof ExprSyntaxError)) throw err;
      e = err;
    }
    cache.set(key, e);
  }
  if (e instanceof Error) throw e;
  return e;
}

/** Parses and evaluates one expression's source text, to a value fully known. */
export function evalSource(src: string, scope: Scope): Value {
  return known(
    evalExpr(
      parsed(`expr:${src}`, () => parseExpr(src), scope),
      scope,
    ),
  );
}

export function evalExpr(e: Expr, scope: Scope): PValue {
  scope.budget.charge();
  switch (e.t) {
    case 'lit':
      return e.value;
    case 'tpl':
      return template(e.parts, scope);
    case 'ref':
      return evalRef(e, scope, evalExpr);
    case 'index':
      return walk(evalExpr(e.target, scope), e.steps, scope, 'the value', evalExpr);
    case 'splat':
      return splat(e, scope, evalExpr);
    case 'call':
      return call(e, scope, evalExpr, renderTemplate);
    case 'un': {
      const v = evalExpr(e.arg, scope);
      return e.op === '!' ? !truthy(v, '!') : -num(v, '-');
    }
    case 'bin':
      return binary(e.op, e.left, e.right, scope, evalExpr);
    case 'cond':
      return conditional(e, scope, evalExpr);
    case 'tuple':
      scope.budget.made(e.items.length, 'list');
      return scope.budget.weighed(e.items.map((x) => partly(() => evalExpr(x, scope))));
    case 'object': {
      const out: Record<string, PValue> = {};
      scope.budget.made(e.entries.length, 'list');
      // A key written twice: the last one wins, as hclsyntax evaluates object constructors.
      for (const [k, v] of e.entries) out[toText(evalExpr(k, scope))] = partly(() => evalExpr(v, scope));
      return scope.budget.weighed(out);
    }
    case 'for':
      return evalFor(e, scope);
    case 'tplIf':
      return truthy(evalExpr(e.cond, scope), 'an %{if}') ? evalExpr(e.then, scope) : evalExpr(e.else, scope);
    case 'tplFor': {
      const out: string[] = [];
      let length = 0;
      for (const [k, v] of pairsOf(evalExpr(e.coll, scope), 'a %{for}')) {
        const text = toText(evalExpr(e.body, bind(scope, e.valueVar, v, e.keyVar, k)));
        length += text.length;
        scope.budget.made(length, 'string');
        out.push(text);
      }
      return out.join('');
    }
  }
}

function template(parts: readonly (string | Expr)[], scope: Scope): PValue {
  const only = parts[0];
  // A template that is one interpolation keeps the value's type, as in Terraform.
  if (parts.length === 1 && typeof only !== 'string' && only && only.t !== 'tplIf' && only.t !== 'tplFor') return evalExpr(only, scope);
  let length = 0;
  const out: string[] = [];
  for (const p of parts) {
    const text =
      typeof p === 'string' ? p : scope.placeholders ? placeholder(() => toText(evalExpr(p, scope))) : toText(evalExpr(p, scope));
    length += text.length;
    scope.budget.made(length, 'string');
    out.push(text);
  }
  return out.join('');
}

/** A template part, or `${?}` where it cannot be known. */
function placeholder(render: () => string): string {
  try {
    return render();
  } catch (err) {
    if (err instanceof Unresolved) return '${?}';
    throw err;
  }
}

function bind(scope: Scope, valueVar: string, value: PValue, keyVar: string | null, key: PValue): Scope {
  return keyVar === null ? withBound(scope, [valueVar, value]) : withBound(scope, [valueVar, value], [keyVar, key]);
}

/** A for expression over a list (index, item) or a map (key, value, in key order), as Terraform runs it. */
function evalFor(e: Extract<Expr, { t: 'for' }>, scope: Scope): PValue {
  const pairs = pairsOf(evalExpr(e.coll, scope), 'a for expression');
  const items: PValue[] = [];
  const entries: Record<string, PValue> = {};
  const groups: Record<string, PValue[]> = {};
  for (const [k, v] of pairs) {
    scope.budget.charge();
    const inner = bind(scope, e.valueVar, v, e.keyVar, k);
    if (e.cond !== null && !truthy(evalExpr(e.cond, inner), "a for expression's if")) continue;
    if (e.key === null) {
      items.push(partly(() => evalExpr(e.body, inner)));
      scope.budget.made(items.length, 'list');
      continue;
    }
    const key = toText(evalExpr(e.key, inner));
    const value = partly(() => evalExpr(e.body, inner));
    if (e.group) (groups[key] ??= []).push(value);
    else if (key in entries) throw new Unresolved(`a for expression that makes the key "${key}" twice (without "...")`, true);
    else entries[key] = value;
  }
  if (e.key === null) return scope.budget.weighed(items);
  return scope.budget.weighed(e.group ? groups : entries);
}

/** A template's text rendered with its vars alone, as Terraform renders it; `name` says which template. */
export function renderTemplate(text: string, vars: PValue, name: string, scope: Scope): string {
  if (vars instanceof Unk) throw new Unresolved(vars.culprit, vars.error);
  if (!isMap(vars)) throw new Unresolved(`the template ${name}: its vars are ${describe(vars)}, not a map`, true);
  const body = parsed(`tpl:${text}`, () => ({ t: 'tpl', parts: parseTemplate(text) }), scope);
  const inner: Scope = {
    variable: (v) => {
      throw new Unresolved(`var.${v} inside the template ${name}, which sees only its vars`, true);
    },
    local: (v) => {
      throw new Unresolved(`local.${v} inside the template ${name}, which sees only its vars`, true);
    },
    bound: new Map(Object.entries(vars)),
    budget: scope.budget,
    ...(scope.file ? { file: scope.file } : {}),
    ...(scope.placeholders ? { placeholders: true } : {}),
  };
  const out = evalExpr(body, inner);
  return typeof out === 'string' ? out : toText(out);
}
