import type { TerraformBudget } from './expr-budget.js';
import type { PValue } from './expr-values.js';

/** What names resolve to; each lookup throws Unresolved when the value is not static. */
export interface Scope {
  variable(name: string): PValue;
  local(name: string): PValue;
  /** `each`, `count`, dynamic-block iterators, `path`, a Terragrunt unit's `include`, by root name. */
  bound: ReadonlyMap<string, PValue>;
  /** The cost of evaluation so far, shared by every scope of one reading. */
  budget: TerraformBudget;
  /** A file of the module's folder (for `file()` and `templatefile()`), by a path relative to it; null when not read. */
  file?: (path: string) => string | null;
  /** A data source whose value the tree gives (`data "template_file"`), by type and label; throws Unresolved otherwise. */
  data?: (type: string, label: string) => PValue;
  /**
   * Render what cannot be known into templates as `${?}` rather than making the whole text unknown:
   * to read which objects a template declares when one of their values is unknown.
   */
  placeholders?: boolean;
  /**
   * How a variable, local or template_file data source is defined, as written (a variable's block and the values
   * files give it; a data source's block and what it renders from): to fingerprint unknowns.
   */
  definition?: (root: 'var' | 'local' | 'data.template_file', name: string) => unknown;
}

/** `scope` with `names` bound (a for expression's variables, `each`, `count`), shadowing outer ones. */
export function withBound(scope: Scope, ...names: (readonly [string, PValue])[]): Scope {
  const bound = new Map(scope.bound);
  for (const [name, value] of names) bound.set(name, value);
  return { ...scope, bound };
}
