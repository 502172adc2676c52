import { evaluatePartly, Unk } from './expr-eval.js';
import type { Scope } from './expr-eval.js';

// Definitions followed from a value to the variables and locals it reads, at most.
const MAX_DEFINITIONS = 200;

/**
 * What a value is, as far as it can be evaluated: equal at base and head when nothing it reads
 * changed. A value unknown as a whole is known by its source and by the definitions of the variables and
 * locals it reads, one after the other (a local defined from another local, a variable's default
 * and the tfvars that set it): a change to any of them changes the fingerprint, a change elsewhere
 * does not.
 */
export function valueFingerprint(raw: unknown, scope: Scope): unknown {
  const v = evaluatePartly(raw, scope);
  // Parts known only once applied (an id, a module output) are known by what they are.
  if (v.ok) return JSON.parse(JSON.stringify(v.value, (_k, x: unknown) => (x instanceof Unk ? { unknown: x.culprit } : x))) as unknown;
  return { unknown: v.error, raw, reads: definitionsRead(raw, scope) };
}

function definitionsRead(raw: unknown, scope: Scope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const queue = [raw];
  while (queue.length > 0 && Object.keys(out).length < MAX_DEFINITIONS) {
    const text = JSON.stringify(queue.shift() ?? null);
    for (const m of text.matchAll(/\b(var|local|data\.template_file)\.([A-Za-z_][\w-]*)/g)) {
      const key = `${m[1] ?? ''}.${m[2] ?? ''}`;
      if (key in out) continue;
      const root = m[1] === 'var' || m[1] === 'local' ? m[1] : 'data.template_file';
      const def = scope.definition?.(root, m[2] ?? '') ?? null;
      out[key] = def;
      queue.push(def);
    }
  }
  return out;
}

/** What a module call hands its module: each argument's fingerprint. */
export function inputsFingerprint(call: Record<string, unknown>, scope: Scope): string {
  const inputs: Record<string, unknown> = {};
  for (const key of Object.keys(call).sort()) inputs[key] = valueFingerprint(call[key], scope);
  return JSON.stringify(inputs);
}
