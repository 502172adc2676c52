import type { Suggestion } from '../domain/workload.js';
import type { z } from 'zod';
import { diagnostic } from '../domain/diagnostic.js';
import type { Diagnostic } from '../domain/diagnostic.js';
import { nearest } from '../util/nearest.js';
import { fieldsAt } from './schema-fields.js';
import type { FieldPath, LineOf } from './yaml-source.js';

const NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

/** Messages for issues the schemas leave to the default; schema-level messages take precedence. */
export const friendlyErrors: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${NOUNS[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`;
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `must have at most ${issue.maximum} item(s)`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    default:
      return undefined;
  }
};

/** `workloads[1].window.deadline`; keys that are not identifiers are quoted: `prices["A100 80GB"]`. */
function formatPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) {
      out += out === '' ? segment : `.${segment}`;
    } else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** How a value reads in a message; long strings are cut so a message stays one line. */
export function describeValue(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only scalars (numbers, booleans) are left here.
  return String(value);
}

function withPath(path: FieldPath, message: string): string {
  return path.length === 0 ? message : `${formatPath(path)}: ${message}`;
}

/** Field names listed after an unknown key when none is near enough to suggest. */
const MAX_FIELDS_LISTED = 16;

/** What an unknown key could have meant: the near field, else the fields allowed there. */
function unknownKeyHint(key: string, fields: readonly string[]): string {
  const near = nearest(key, fields);
  if (near !== null) return ` (did you mean ${near}?)`;
  if (fields.length === 0) return '';
  const shown = fields.slice(0, MAX_FIELDS_LISTED).join(', ');
  return `; the fields here are ${shown}${fields.length > MAX_FIELDS_LISTED ? ', …' : ''}`;
}

/**
 * One diagnostic per problem, each naming the field and the line. `prefix` places the issues of
 * a sub-document (one list item) in the whole file; `source`, the schema the issues came from and
 * the value it parsed, names the fields an unknown key could have meant.
 */
export function issuesToDiagnostics(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  lineOf: LineOf,
  prefix: FieldPath = [],
  source?: { schema: z.ZodType; value: unknown },
  suggested?: Map<Diagnostic, Suggestion>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        // Reported on its own (see protoKeyPaths), whether zod noticed it or not.
        if (key === '__proto__') continue;
        const keyPath = [...path, key];
        const fields = source ? fieldsAt(source.schema, issue.path, source.value) : [];
        const d = diagnostic(file, lineOf(keyPath), 'error', withPath(keyPath, `unknown field${unknownKeyHint(key, fields)}`));
        const near = nearest(key, fields);
        if (near !== null) suggested?.set(d, { typed: key, meant: near, what: 'field' });
        out.push(d);
      }
      continue;
    }
    if (issue.code === 'invalid_union' && typeof issue.discriminator === 'string') {
      // The issue sits on the discriminator's path; its input is the enclosing object.
      const parent = issue.input;
      const found = parent !== null && typeof parent === 'object' ? (parent as Record<string, unknown>)[issue.discriminator] : undefined;
      const values = ((issue as { options?: unknown[] }).options ?? []).map(String);
      const options = values.join(', ');
      const near = typeof found === 'string' ? nearest(found, values) : null;
      const message =
        found === undefined
          ? `is required (one of ${options})`
          : `must be one of ${options}, got ${describeValue(found)}${near === null ? '' : ` (did you mean ${near}?)`}`;
      const d = diagnostic(file, lineOf(path), 'error', withPath(path, message));
      if (near !== null && typeof found === 'string') suggested?.set(d, { typed: found, meant: near, what: 'value' });
      out.push(d);
      continue;
    }
    let message = issue.message;
    if (issue.code === 'invalid_key') message = issue.issues[0]?.message ?? message;
    else if (issue.code === 'invalid_type' && issue.input === undefined) message = 'is required';
    else if (showsInput(issue)) message += `, got ${describeValue(issue.input)}`;
    const near = issue.code === 'invalid_value' ? closest(issue.input, issue.values) : null;
    if (near !== null) message += ` (did you mean ${near}?)`;
    const d = diagnostic(file, lineOf(path), 'error', withPath(path, message));
    if (near !== null && typeof issue.input === 'string') suggested?.set(d, { typed: issue.input, meant: near, what: 'value' });
    out.push(d);
  }
  return out;
}

/** One error per `__proto__` key: never a field, and refused before it can reach an object. */
export function protoKeyDiagnostics(file: string, paths: readonly FieldPath[], lineOf: LineOf): Diagnostic[] {
  return paths.map((path) => diagnostic(file, lineOf(path), 'error', withPath(path, '"__proto__" is not allowed as a key')));
}

/** Custom checks write their own text (and may hold values not to echo, such as a URL). */
function showsInput(issue: z.core.$ZodIssue): boolean {
  return (
    issue.input !== undefined &&
    issue.code !== 'custom' &&
    issue.code !== 'invalid_key' &&
    issue.code !== 'invalid_union' &&
    issue.code !== 'invalid_element'
  );
}

/** The allowed value a mistyped string most likely meant (see `nearest`). */
function closest(input: unknown, values: readonly unknown[]): string | null {
  if (typeof input !== 'string') return null;
  return nearest(
    input,
    values.filter((v): v is string => typeof v === 'string'),
  );
}
