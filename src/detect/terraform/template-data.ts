import { evalJson, renderTemplate, Unk, Unresolved } from './expr-eval.js';
import type { PValue, Scope } from './expr-eval.js';
import { ExprSyntaxError } from './expr-parse.js';
import { describe, known } from './expr-values.js';

/**
 * Data sources whose value the tree itself gives. hashicorp/template's `template_file` (older
 * than `templatefile()`, still common) renders its `template` with its `vars` exactly as
 * `templatefile()` does: `data.template_file.x.rendered` is that render.
 */
export const TREE_DATA_SOURCES: readonly string[] = ['template_file'];

/** Whether an expression's text renders a template: `templatefile(…)` or a `template_file` data source. */
export const RENDERS_TEMPLATE = /\btemplatefile\s*\(|\bdata\.template_file\./;

/** Whether a file's text may render a template (a cheap test before reading it). */
export const mayRenderTemplates = (text: string): boolean => text.includes('templatefile') || text.includes('template_file');

// The file a `template = file("…")` reads, to name it when the render cannot be told.
const FILE_CALL = /\bfile\s*\(\s*\\?"(?:\$\{path\.(?:module|root|cwd)\}\/)?([^"\\$]+)\\?"/;

/**
 * The value of `data.template_file.<label>`: `template`, `vars` and `rendered`, each unknown on
 * its own (a template whose file is missing, uses what this tool cannot read, or sees an unknown
 * var), so that the template's text can be looked at even when its render cannot be told.
 */
export function templateFileData(address: string, block: Record<string, unknown>, scope: Scope): PValue {
  if (block.count !== undefined || block.for_each !== undefined) {
    throw new Unresolved(`${address}, a template_file data source copied with count or for_each`);
  }
  const ref = typeof block.template === 'string' ? FILE_CALL.exec(block.template)?.[1] : undefined;
  const name = ref === undefined ? `the inline template of ${address}` : `${ref} (rendered by ${address})`;
  const template = attempt(() => {
    const text = known(evalJson(block.template ?? null, scope));
    if (typeof text !== 'string') throw new Unresolved(`${address}: its template is ${describe(text)}, not a text`, true);
    return text;
  }, name);
  // `vars = { … }`; a `vars { … }` block (HCL of Terraform 0.11) is printed as a list of one object.
  const rawVars = Array.isArray(block.vars) && block.vars.length === 1 ? (block.vars[0] as unknown) : (block.vars ?? {});
  const vars = attempt(() => evalJson(rawVars, scope), name);
  const rendered = typeof template === 'string' ? attempt(() => renderTemplate(template, vars, name, scope), name) : template;
  return { template, vars, rendered };
}

/** The value, or unknown with what keeps it from being known; a template this tool cannot parse says which it is. */
function attempt(fn: () => PValue, name: string): PValue {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Unresolved) return new Unk(err.culprit, err.error);
    if (err instanceof ExprSyntaxError) return new Unk(`${name}, which uses syntax this tool cannot read (${err.message})`);
    throw err;
  }
}
