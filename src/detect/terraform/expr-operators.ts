import type { Expr } from './expr-parse.js';
import { known, num, sameValue, truthy, Unk, Unresolved } from './expr-values.js';
import type { PValue } from './expr-values.js';
import type { Scope } from './expr-scope.js';
import { partly } from './expr-partial.js';
import type { EvalExpr } from './expr-refs.js';

/* Terraform's operators and conditionals, their operands evaluated by the evaluator handed in. */

/**
 * `test ? then : else`: the branch the condition picks. A condition that cannot be known here
 * (`terraform.workspace`, a value computed at apply) still gives a value when both branches are
 * the same known value, which Terraform plans whichever way it goes; otherwise it stays unknown.
 * Evaluating both is charged to the budget like any other step.
 */
export function conditional(e: Extract<Expr, { t: 'cond' }>, scope: Scope, evalExpr: EvalExpr): PValue {
  const test = partly(() => evalExpr(e.test, scope));
  if (test instanceof Unk && !test.error) {
    const then = partly(() => known(evalExpr(e.then, scope)));
    const other = partly(() => known(evalExpr(e.else, scope)));
    if (!(then instanceof Unk) && !(other instanceof Unk) && sameValue(then, other, scope.budget)) return then;
  }
  return truthy(test, 'condition') ? evalExpr(e.then, scope) : evalExpr(e.else, scope);
}

export function binary(op: string, l: Expr, r: Expr, scope: Scope, evalExpr: EvalExpr): PValue {
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
