import type { Expr } from './expr-parse.js';
import { callFunction } from './expr-functions.js';
import { describe, known, toText, Unk, Unresolved } from './expr-values.js';
import type { PValue } from './expr-values.js';
import type { Scope } from './expr-scope.js';
import { partly } from './expr-partial.js';
import type { EvalExpr } from './expr-refs.js';

/* Function calls: `try` and `can`, which take their arguments unevaluated, `...` spread, and `file`/`templatefile`. */

/** Renders a template with its vars (expr-eval.ts renderTemplate). */
export type RenderTemplate = (text: string, vars: PValue, name: string, scope: Scope) => string;

/** `try()` and `can()` take their arguments unevaluated: an error in one is their business, an unknown is not. */
export function call(e: Extract<Expr, { t: 'call' }>, scope: Scope, evalExpr: EvalExpr, render: RenderTemplate): PValue {
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
  if (e.name === 'file' || e.name === 'templatefile') return fileCall(e, args, scope, render);
  return callFunction(e.name, args, { budget: scope.budget, text: e.text });
}

/**
 * `file(path)` and `templatefile(path, vars)`, for files of the module's folder that were read
 * with it: a template is rendered with its vars alone, as Terraform renders it.
 */
function fileCall(e: Extract<Expr, { t: 'call' }>, args: PValue[], scope: Scope, render: RenderTemplate): PValue {
  const path = toText(args[0]);
  const text = scope.file?.(path) ?? null;
  if (text === null) throw new Unresolved(`${e.text}, which reads ${path}, a file not read with this folder`);
  scope.budget.made(text.length, 'string');
  if (e.name === 'file') return text;
  return render(text, args[1] === undefined ? {} : args[1], path, scope);
}
