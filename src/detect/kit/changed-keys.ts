/** A value flattened to its leaf paths (`a.b[0].c`), each with its value as JSON. */
function leaves(value: unknown, prefix: string, out: Map<string, string>, depth = 0): void {
  if (depth > 32) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => leaves(v, `${prefix}[${i}]`, out, depth + 1));
    if (value.length === 0) out.set(prefix, '[]');
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [k, v] of entries) leaves(v, prefix === '' ? k : `${prefix}.${k}`, out, depth + 1);
    if (entries.length === 0) out.set(prefix, '{}');
    return;
  }
  // JSON.stringify gives undefined for what JSON cannot hold (a function, undefined).
  const json = JSON.stringify(value) as string | undefined;
  out.set(prefix, json ?? 'null');
}

/** The leaf paths whose values differ between two documents (added and removed ones too). */
export function changedKeys(before: unknown, after: unknown): string[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  leaves(before ?? {}, '', a);
  leaves(after ?? {}, '', b);
  const out: string[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) out.push(k);
  return out.sort();
}

/** The value at a leaf path, for judging what changed. */
export function valueAt(doc: unknown, path: string): unknown {
  let at: unknown = doc;
  // A split on a capturing group leaves undefined where the group did not take part.
  const steps = path.split(/\.|\[(\d+)\]/) as (string | undefined)[];
  for (const step of steps.filter((s): s is string => s !== undefined && s !== '')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}
