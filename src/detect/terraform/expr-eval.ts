import { BudgetExceeded } from '../kit/eval-budget.js';
import { ExprSyntaxError, parseExpr, parseTemplate } from './expr-parse.js';
import type { Expr, Step } from './expr-parse.js';
import { callFunction } from './expr-functions.js';
import { describe, isMap, known, num, pairsOf, sameValue, toText, truthy, Unk, Unresolved } from './expr-values.js';
import type { PValue, Value } from './expr-values.js';
import { withBound } from './expr-scope.js';
import type { Scope } from './expr-scope.js';

export { Unk, Unresolved } from './expr-values.js';
export type { PValue, Value } from './expr-values.js';
export type { Scope } from './expr-scope.js';

export type Evaluated = { ok: true; value: Value } | { ok: false; culprit: string };
export type PartlyEvaluated = { ok: true; value: PValue } | { ok: false; culprit: string };

/** The value fully known, or what keeps it from being known. */
export function evaluate(raw: unknown, scope: Scope): Evaluated {
  const r = evaluatePartly(raw, scope);
  if (!r.ok) return r;
  try {
    return { ok: true, value: known(r.value) };
  } catch (err) {
    if (err instanceof Unresolved) return { ok: false, culprit: err.culprit };
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
    return value instanceof Unk ? { ok: false, culprit: value.culprit } : { ok: true, value };
  } catch (err) {
    if (err instanceof Unresolved) return { ok: false, culprit: err.culprit };
    if (err instanceof ExprSyntaxError) return { ok: false, culprit: `an expression this tool cannot read (${err.message})` };
    if (err instanceof BudgetExceeded) return { ok: false, culprit: `gpu-justify's evaluation budget (${err.message})` };
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

/** An element of a tuple or object: what cannot be known stays unknown there, without spoiling the rest. */
function partly(fn: () => PValue): PValue {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Unresolved) return new Unk(err.culprit, err.error);
    throw err;
  }
}

/**
 * `test ? then : else`: the branch the condition picks. A condition that cannot be known here
 * (`terraform.workspace`, a value computed at apply) still gives a value when both branches are
 * the same known value, which Terraform plans whichever way it goes; otherwise it stays unknown.
 * Evaluating both is charged to the budget like any other step.
 */
function conditional(e: Extract<Expr, { t: 'cond' }>, scope: Scope): PValue {
  const test = partly(() => evalExpr(e.test, scope));
  if (test instanceof Unk && !test.error) {
    const then = partly(() => known(evalExpr(e.then, scope)));
    const other = partly(() => known(evalExpr(e.else, scope)));
    if (!(then instanceof Unk) && !(other instanceof Unk) && sameValue(then, other, scope.budget)) return then;
  }
  return truthy(test, 'condition') ? evalExpr(e.then, scope) : evalExpr(e.else, scope);
}

export function evalExpr(e: Expr, scope: Scope): PValue {
  scope.budget.charge();
  switch (e.t) {
    case 'lit':
      return e.value;
    case 'tpl':
      return template(e.parts, scope);
    case 'ref':
      return evalRef(e, scope);
    case 'index':
      return walk(evalExpr(e.target, scope), e.steps, scope, 'the value');
    case 'splat':
      return splat(e, scope);
    case 'call':
      return call(e, scope);
    case 'un': {
      const v = evalExpr(e.arg, scope);
      return e.op === '!' ? !truthy(v, '!') : -num(v, '-');
    }
    case 'bin':
      return binary(e.op, e.left, e.right, scope);
    case 'cond':
      return conditional(e, scope);
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

function evalRef(e: Extract<Expr, { t: 'ref' }>, scope: Scope): PValue {
  const bound = scope.bound.get(e.root);
  if (bound !== undefined) return walk(bound, e.steps, scope, e.text);
  const first = e.steps[0];
  const name = first && 'attr' in first ? first.attr : null;
  if (e.root === 'var' && name)
    return walk(
      scope.budget.nested(() => scope.variable(name)),
      e.steps.slice(1),
      scope,
      e.text,
    );
  if (e.root === 'local' && name)
    return walk(
      scope.budget.nested(() => scope.local(name)),
      e.steps.slice(1),
      scope,
      e.text,
    );
  if (e.root === 'module') throw new Unresolved(`${e.text}, a module output`);
  if (e.root === 'data') {
    const [data, label] = [scope.data, e.steps[1]];
    if (!data || !name || !label || !('attr' in label)) throw new Unresolved(`${e.text}, a data source`);
    return walk(
      scope.budget.nested(() => data(name, label.attr)),
      e.steps.slice(2),
      scope,
      e.text,
    );
  }
  if (e.root === 'each' || e.root === 'count') throw new Unresolved(`${e.text} outside a for_each or count`);
  if (e.root === 'path' || e.root === 'terraform' || e.root === 'self') throw new Unresolved(e.text);
  throw new Unresolved(`${e.text}, another resource's attribute`);
}

function walk(value: PValue, steps: readonly Step[], scope: Scope, text: string): PValue {
  let v = value;
  for (const step of steps) {
    if (v instanceof Unk) throw new Unresolved(v.culprit, v.error);
    const key = 'attr' in step ? step.attr : known(evalExpr(step.index, scope));
    if (Array.isArray(v) && (typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key)))) {
      const i = Number(key);
      if (!(i in v)) throw new Unresolved(`${text}: index ${i} is out of range`, true);
      v = v[i] as PValue;
    } else if (isMap(v) && (typeof key === 'string' || typeof key === 'number')) {
      if (!(String(key) in v)) throw new Unresolved(`${text}: no "${key}" in the value`, true);
      v = v[String(key)] as PValue;
    } else {
      throw new Unresolved(`${text}: cannot index ${describe(v)} with ${JSON.stringify(key)}`, true);
    }
  }
  return v;
}

/** `list[*].a`: the steps over each element; a single value is a list of one, null an empty list. */
function splat(e: Extract<Expr, { t: 'splat' }>, scope: Scope): PValue {
  const target = evalExpr(e.target, scope);
  if (target instanceof Unk) throw new Unresolved(target.culprit, target.error);
  const list = target === null ? [] : Array.isArray(target) ? target : [target];
  scope.budget.made(list.length, 'list');
  return scope.budget.weighed(list.map((x) => partly(() => walk(x, e.steps, scope, 'a splat'))));
}

function binary(op: string, l: Expr, r: Expr, scope: Scope): PValue {
  if (op === '||') return truthy(evalExpr(l, scope), op) || truthy(evalExpr(r, scope), op);
  if (op === '&&') return truthy(evalExpr(l, scope), op) && truthy(evalExpr(r, scope), op);
  const a = evalExpr(l, scope);
  const b = evalExpr(r, scope);
  if (op === '==') return sameValue(a, b, scope.budget);
  if (op === '!=') return !sameValue(a, b, scope.budget);
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
      if (y === 0) throw new Unresolved('a division by zero', true);
      return x / y;
    case '%':
      if (y === 0) throw new Unresolved('a modulo by zero', true);
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

/** `try()` and `can()` take their arguments unevaluated: an error in one is their business, an unknown is not. */
function call(e: Extract<Expr, { t: 'call' }>, scope: Scope): PValue {
  if (e.name === 'try') {
    for (const arg of e.args) {
      try {
        return evalExpr(arg, scope);
      } catch (err) {
        if (!(err instanceof Unresolved) || !err.error) throw err;
      }
    }
    throw new Unresolved(`${e.text}, where no argument could be evaluated`, true);
  }
  if (e.name === 'can') {
    const arg = e.args[0];
    if (arg === undefined) throw new Unresolved('can() with no argument', true);
    try {
      known(evalExpr(arg, scope));
      return true;
    } catch (err) {
      if (err instanceof Unresolved && err.error) return false;
      throw err;
    }
  }
  // coalesce() answers its first non-null argument: one after it that is unknown (a map indexed by a
  // variable with no value) changes nothing, unless it fails the apply, which grows no capacity.
  const args = e.args.map((a) => (e.name === 'coalesce' && !e.spread ? partly(() => evalExpr(a, scope)) : evalExpr(a, scope)));
  if (e.spread) {
    const last = args.pop();
    if (last instanceof Unk) throw new Unresolved(last.culprit, last.error);
    if (!Array.isArray(last)) throw new Unresolved(`${e.text}: "..." expands ${describe(last ?? null)}, not a list`, true);
    args.push(...last);
  }
  if (e.name === 'file' || e.name === 'templatefile') return fileCall(e, args, scope);
  return callFunction(e.name, args, { budget: scope.budget, text: e.text });
}

/**
 * `file(path)` and `templatefile(path, vars)`, for files of the module's folder that were read
 * with it: a template is rendered with its vars alone, as Terraform renders it.
 */
function fileCall(e: Extract<Expr, { t: 'call' }>, args: PValue[], scope: Scope): PValue {
  const path = toText(args[0]);
  const text = scope.file?.(path) ?? null;
  if (text === null) throw new Unresolved(`${e.text}, which reads ${path}, a file not read with this folder`);
  scope.budget.made(text.length, 'string');
  if (e.name === 'file') return text;
  return renderTemplate(text, args[1] === undefined ? {} : args[1], path, scope);
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
