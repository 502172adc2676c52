import type { z } from 'zod';
import type { FieldPath } from './yaml-source.js';

/** The parts of zod's schema definitions this walk reads (zod 4's `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  getter?: () => z.ZodType;
  /** Set on a discriminated union: the key whose literal picks the option. */
  discriminator?: string;
  /** A literal's values. */
  values?: readonly unknown[];
  /** An enum's values, by key. */
  entries?: Record<string, unknown>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Wrappers that leave the fields of what they wrap as they are. */
function inner(def: Def): z.ZodType | undefined {
  if (def.type === 'lazy') return def.getter?.();
  return def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
}

function child(value: unknown, key: PropertyKey): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<PropertyKey, unknown>)[key]
    : undefined;
}

/** The options of a discriminated union the value's discriminator picks; all of them when none matches. */
function picked(def: Def, value: unknown): readonly z.ZodType[] {
  const options = def.options ?? [];
  if (def.discriminator === undefined) return options;
  const tag = child(value, def.discriminator);
  const matching = options.filter((o) => {
    const literal = defOf(o).shape?.[def.discriminator ?? ''];
    if (literal === undefined) return false;
    const tags = defOf(literal);
    return (tags.values ?? Object.values(tags.entries ?? {})).includes(tag);
  });
  return matching.length > 0 ? matching : options;
}

/**
 * The field names a schema allows at a path: what an unknown key there could have meant. `value`
 * is the document the path runs through, so a discriminated union offers the fields of the option
 * its tag names (a `type: batch` entry, a job's). Empty where the path leads to no object (a
 * record's keys are the user's own).
 */
export function fieldsAt(schema: z.ZodType, path: FieldPath, value: unknown, depth = 0): string[] {
  if (depth > 40) return [];
  const def = defOf(schema);
  const wrapped = inner(def);
  if (wrapped) return fieldsAt(wrapped, path, value, depth + 1);
  if (def.type === 'union') return [...new Set(picked(def, value).flatMap((o) => fieldsAt(o, path, value, depth + 1)))];
  const [head, ...rest] = path;
  if (head === undefined) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
  const next = child(value, head);
  if (def.type === 'object' && def.shape && typeof head === 'string') {
    const field = Object.hasOwn(def.shape, head) ? def.shape[head] : undefined;
    return field ? fieldsAt(field, rest, next, depth + 1) : [];
  }
  if (def.type === 'array' && def.element && typeof head === 'number') return fieldsAt(def.element, rest, next, depth + 1);
  if (def.type === 'record' && def.valueType) return fieldsAt(def.valueType, rest, next, depth + 1);
  return [];
}
