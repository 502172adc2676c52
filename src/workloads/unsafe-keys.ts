import type { FieldPath } from './yaml-source.js';

/**
 * Paths of every `__proto__` key in a parsed document. zod reports it in strict objects but
 * silently drops it from records, and a dropped key would go unmentioned: it is reported here.
 */
export function protoKeyPaths(value: unknown, prefix: FieldPath = []): FieldPath[] {
  const found: FieldPath[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, path: FieldPath): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...path, i]));
      return;
    }
    for (const key of Object.keys(node)) {
      if (key === '__proto__') found.push([...path, key]);
      else visit((node as Record<string, unknown>)[key], [...path, key]);
    }
  };
  visit(value, prefix);
  return found;
}
