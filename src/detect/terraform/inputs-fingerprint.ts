import { evaluate } from './expr-eval.js';
import type { Scope } from './expr-eval.js';

/**
 * What a module call hands its module, as far as it can be evaluated: equal at base and head
 * when nothing the module is given changed (an unknown value by what makes it unknown).
 */
export function inputsFingerprint(call: Record<string, unknown>, scope: Scope): string {
  const inputs: Record<string, unknown> = {};
  for (const key of Object.keys(call).sort()) {
    const v = evaluate(call[key], scope);
    inputs[key] = v.ok ? v.value : { unknown: v.culprit, raw: call[key] };
  }
  return JSON.stringify(inputs);
}
