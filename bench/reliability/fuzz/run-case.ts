import type { FuzzTarget } from './targets.js';

/** What one input did to one target. */
export interface CaseOutcome {
  ms: number;
  /** The call threw: the message and the first stack line. */
  crash: string | null;
  /** Output contract violations. */
  problems: string[];
  /** Keys that appeared on a built-in prototype during the call. */
  pollution: string[];
}

const PROTOTYPES: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

export function prototypeKeys(): Map<string, string[]> {
  return new Map(PROTOTYPES.map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String)]));
}

/** Keys added to a built-in prototype since `before`; they are deleted so later cases start clean. */
function newPrototypeKeys(before: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [name, proto] of PROTOTYPES) {
    const known = new Set(before.get(name) ?? []);
    for (const key of Reflect.ownKeys(proto)) {
      if (known.has(String(key))) continue;
      found.push(`${name}.${String(key)}`);
      delete (proto as Record<PropertyKey, unknown>)[key];
    }
  }
  if (({} as Record<string, unknown>)['polluted'] !== undefined) found.push('({}).polluted');
  return found;
}

export function runCase(target: FuzzTarget, text: string, baseline: Map<string, string[]>): CaseOutcome {
  const start = performance.now();
  let crash: string | null = null;
  let problems: string[] = [];
  try {
    problems = target.check(text);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    crash = `${e.name}: ${e.message.slice(0, 200)} ${(e.stack ?? '').split('\n')[1]?.trim() ?? ''}`;
  }
  const ms = performance.now() - start;
  return { ms, crash, problems, pollution: newPrototypeKeys(baseline) };
}

/** A short, printable view of an input for a report. */
export function preview(text: string): string {
  const shown = JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);
  return `${shown} (${text.length} chars)`;
}
