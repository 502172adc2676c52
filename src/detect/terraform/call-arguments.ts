import { evaluate, evaluatePartly } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { Unk } from './expr-values.js';
import type { PValue } from './expr-values.js';
import { AFTER_APPLY } from './pool-context.js';

/*
 * A module call's arguments as the variable file that hands them to the module: each evaluated in
 * the caller's scope, what is known only after apply left as a placeholder, written as HCL.
 */

/** An argument's value, with what is known only after apply left as a placeholder; undefined when none of it is known. */
export function lenient(raw: unknown, scope: Scope, depth = 0): Value | undefined {
  const v = evaluate(raw, scope);
  if (v.ok) return v.value;
  if (depth > 16) return undefined;
  if (Array.isArray(raw)) return raw.map((x) => lenient(x, scope, depth + 1) ?? AFTER_APPLY);
  if (raw !== null && typeof raw === 'object') {
    const out: Record<string, Value> = {};
    for (const [k, x] of Object.entries(raw as Record<string, unknown>)) out[k] = lenient(x, scope, depth + 1) ?? AFTER_APPLY;
    return out;
  }
  // An expression known but for what is known after apply (a map of pools built by a for
  // expression, each named after a random id): those parts stand in as the placeholder too. Left
  // out, the module would read its variable's default instead (no pools) where the call gives some.
  const partly = evaluatePartly(raw, scope);
  return partly.ok && afterApplyOnly(partly.value) ? withPlaceholders(partly.value) : undefined;
}

// What an unknown part names when it is only known once applied (expr-eval.ts).
const AFTER_APPLY_CULPRIT = /, (?:another resource's attribute|a module output|a data source)$/;

function afterApplyOnly(v: PValue): boolean {
  if (v instanceof Unk) return !v.error && AFTER_APPLY_CULPRIT.test(v.culprit);
  if (Array.isArray(v)) return v.every(afterApplyOnly);
  if (v !== null && typeof v === 'object') return Object.values(v).every(afterApplyOnly);
  return true;
}

function withPlaceholders(v: PValue): Value {
  if (v instanceof Unk) return AFTER_APPLY;
  if (Array.isArray(v)) return v.map(withPlaceholders);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withPlaceholders(x)]));
  return v;
}

/** A value in HCL's own syntax, for a variable file. */
export function hcl(v: Value): string {
  if (v === null || typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
  if (Array.isArray(v)) return `[${v.map(hcl).join(', ')}]`;
  return `{\n${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)} = ${hcl(x)}`)
    .join('\n')}\n}`;
}
