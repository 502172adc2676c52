import { evalExpr, evaluatePartly, Unresolved } from './expr-eval.js';
import { Unk } from './expr-values.js';
import type { Scope } from './expr-eval.js';
import { ExprSyntaxError, parseTemplate } from './expr-parse.js';
import type { Expr } from './expr-parse.js';

/**
 * An object-valued attribute written as an expression, e.g. a node group toggled with
 * `gpu = local.gpu_enabled ? { instance_types = [...], max_size = var.gpu_max } : null`.
 * `absent`: the expression yields null (the group is not created). `object`: the fields, each
 * kept as its own `${…}` source when the chosen branch is an object literal, so one computed
 * field (subnet_ids, say) does not make the others unreadable.
 */
export type ChosenObject =
  { ok: true; absent: true } | { ok: true; absent: false; fields: Record<string, unknown> } | { ok: false; culprit: string };

export function chooseObject(raw: unknown, scope: Scope, depth = 0): ChosenObject {
  if (raw === null) return { ok: true, absent: true };
  if (raw instanceof Unk) return { ok: false, culprit: raw.culprit };
  const viaLocal = depth < LOCAL_HOPS ? localDefinition(raw, scope) : undefined;
  if (viaLocal !== undefined) return chooseObject(viaLocal, scope, depth + 1);
  if (typeof raw !== 'string')
    return isRecord(raw) ? { ok: true, absent: false, fields: raw } : { ok: false, culprit: 'a value that is not an object' };
  let expr: Expr | null = null;
  try {
    const parts = parseTemplate(raw);
    const only = parts[0];
    if (parts.length === 1 && only !== undefined && typeof only !== 'string') expr = only;
  } catch (err) {
    if (!(err instanceof ExprSyntaxError)) throw err;
  }
  try {
    // Conditionals are decided branch by branch: only the taken branch needs to be readable.
    while (expr?.t === 'cond') expr = truthy(evalExpr(expr.test, scope)) ? expr.then : expr.else;
  } catch (err) {
    if (err instanceof Unresolved) return { ok: false, culprit: err.culprit };
    if (err instanceof ExprSyntaxError) return { ok: false, culprit: `an expression this tool cannot read (${err.message})` };
    throw err;
  }
  if (expr?.t === 'lit' && expr.value === null) return { ok: true, absent: true };
  if (expr?.t === 'call' && expr.name === 'merge') return merged(expr, raw, scope, depth);
  if (expr?.t === 'object') {
    const fields: Record<string, unknown> = {};
    for (const [i, [key, value]] of expr.entries.entries()) {
      if (key.t !== 'lit' || typeof key.value !== 'string') return whole(raw, scope);
      fields[key.value] = value.t === 'lit' ? value.value : `\${${expr.sources[i] ?? ''}}`;
    }
    return { ok: true, absent: false, fields };
  }
  return whole(raw, scope);
}

/**
 * `merge(local.defaults, { gpu = {…} })`: each argument read as its own object (a literal keeps
 * its fields as sources), later keys winning as merge() does; a null argument adds nothing.
 */
function merged(call: Extract<Expr, { t: 'call' }>, raw: string, scope: Scope, depth: number): ChosenObject {
  if (call.spread) return whole(raw, scope);
  const fields: Record<string, unknown> = {};
  for (const source of call.sources) {
    const part = chooseObject(`\${${source}}`, scope, depth);
    if (!part.ok) return part;
    if (!part.absent) Object.assign(fields, part.fields);
  }
  return { ok: true, absent: false, fields };
}

/** Locals followed into their definitions, at most this many in a row (a local naming itself stops). */
const LOCAL_HOPS = 4;

/**
 * `local.groups` alone: the local as written, so a literal map there keeps its fields as sources
 * and one field the review cannot evaluate (a key name, say) spoils only itself.
 */
function localDefinition(raw: unknown, scope: Scope): unknown {
  if (typeof raw !== 'string') return undefined;
  const m = /^\$\{\s*local\.([A-Za-z_][\w-]*)\s*\}$/.exec(raw);
  if (!m?.[1] || !scope.definition) return undefined;
  const def = scope.definition('local', m[1]);
  return def === null || def === undefined ? undefined : def;
}

/**
 * Any other expression (`{ for k, v in local.groups : k => {…} }`), evaluated partly: a field
 * known only once applied (subnet_ids from a module output) stays unknown inside its group and
 * spoils only what reads it, never the groups' sizes beside it.
 */
function whole(raw: string, scope: Scope): ChosenObject {
  const r = evaluatePartly(raw, scope);
  if (!r.ok) return { ok: false, culprit: r.error };
  if (r.value === null) return { ok: true, absent: true };
  return isRecord(r.value) ? { ok: true, absent: false, fields: r.value } : { ok: false, culprit: 'a value that is not an object' };
}

function truthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new Unresolved(`a condition that is not true or false (${JSON.stringify(v)})`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Unk);
}
