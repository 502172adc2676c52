import type { Expr, Step } from './expr-parse.js';
import { describe, isMap, known, Unk, Unresolved } from './expr-values.js';
import type { PValue } from './expr-values.js';
import type { Scope } from './expr-scope.js';
import { partly } from './expr-partial.js';

/* References (`var.x`, `local.x`, `data.t.n`, a bound name), indexing and splats. */

/** The evaluator the parts below hand sub-expressions back to (expr-eval.ts evalExpr). */
export type EvalExpr = (e: Expr, scope: Scope) => PValue;

export function evalRef(e: Extract<Expr, { t: 'ref' }>, scope: Scope, evalExpr: EvalExpr): PValue {
  const bound = scope.bound.get(e.root);
  if (bound !== undefined) return walk(bound, e.steps, scope, e.text, evalExpr);
  const first = e.steps[0];
  const name = first && 'attr' in first ? first.attr : null;
  if (e.root === 'var' && name)
    return walk(
      scope.budget.nested(() => scope.variable(name)),
      e.steps.slice(1),
      scope,
      e.text,
      evalExpr,
    );
  if (e.root === 'local' && name)
    return walk(
      scope.budget.nested(() => scope.local(name)),
      e.steps.slice(1),
      scope,
      e.text,
      evalExpr,
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
      evalExpr,
    );
  }
  if (e.root === 'each' || e.root === 'count') throw new Unresolved(`${e.text} outside a for_each or count`);
  if (e.root === 'path' || e.root === 'terraform' || e.root === 'self') throw new Unresolved(e.text);
  throw new Unresolved(`${e.text}, another resource's attribute`);
}

export function walk(value: PValue, steps: readonly Step[], scope: Scope, text: string, evalExpr: EvalExpr): PValue {
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
export function splat(e: Extract<Expr, { t: 'splat' }>, scope: Scope, evalExpr: EvalExpr): PValue {
  const target = evalExpr(e.target, scope);
  if (target instanceof Unk) throw new Unresolved(target.culprit, target.error);
  const list = target === null ? [] : Array.isArray(target) ? target : [target];
  scope.budget.made(list.length, 'list');
  return scope.budget.weighed(list.map((x) => partly(() => walk(x, e.steps, scope, 'a splat', evalExpr))));
}
