import { GpuJustifyError } from '../../domain/errors.js';

/**
 * The tree `expr-parse.ts` makes of one Terraform expression as hcl2json prints it (the text
 * inside `${…}`): literals, traversals, calls, operators, conditionals, tuples, objects, `for`
 * expressions (also grouping ones), splats, and templates with their `%{if}` / `%{for}` directives.
 */
export type Expr =
  | { t: 'lit'; value: null | boolean | number | string }
  /** A template: literal text, interpolations and directives, joined into a string (one interpolation alone keeps its type). */
  | { t: 'tpl'; parts: (string | Expr)[] }
  | { t: 'ref'; root: string; steps: Step[]; text: string }
  /** `sources`: each argument's source text; `spread`: the last argument is expanded (`f(list...)`). */
  | { t: 'call'; name: string; args: Expr[]; text: string; sources: string[]; spread: boolean }
  | { t: 'un'; op: string; arg: Expr }
  | { t: 'bin'; op: string; left: Expr; right: Expr }
  | { t: 'cond'; test: Expr; then: Expr; else: Expr }
  | { t: 'tuple'; items: Expr[] }
  /** `sources`: each value's source text, so a caller can read one field without the others. */
  | { t: 'object'; entries: [Expr, Expr][]; sources: string[] }
  | { t: 'index'; target: Expr; steps: Step[] }
  /** `target[*].a.b` (or `target.*.a`): the steps applied to each element. */
  | { t: 'splat'; target: Expr; steps: Step[] }
  /**
   * `[for k, v in coll : body if cond]`, or `{for k, v in coll : key => body if cond}` when `key`
   * is set; `group`: `key => body...`, which collects the bodies of each key in a list.
   */
  | { t: 'for'; keyVar: string | null; valueVar: string; coll: Expr; key: Expr | null; body: Expr; cond: Expr | null; group: boolean }
  /** `%{ if cond }…%{ else }…%{ endif }` in a template. */
  | { t: 'tplIf'; cond: Expr; then: Expr; else: Expr }
  /** `%{ for k, v in coll }…%{ endfor }` in a template. */
  | { t: 'tplFor'; keyVar: string | null; valueVar: string; coll: Expr; body: Expr };

export type Step = { attr: string } | { index: Expr };

export class ExprSyntaxError extends GpuJustifyError {
  override readonly kind = 'expr-syntax';
}
