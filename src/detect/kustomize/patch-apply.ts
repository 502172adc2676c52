/**
 * Kustomize patch semantics on plain objects, for custom resources (ClusterQueue, NodePool).
 * Strategic merge: maps merge, `null` deletes a key, and lists are replaced whole, because
 * kustomize knows no merge keys for custom resources unless given an OpenAPI schema.
 * JSON 6902: add, replace, remove, test, copy, move on JSON pointers.
 */
import { fail, ok, type Result } from '../../domain/result.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A scalar field as text; '' when absent, null, a list or a map. */
export function jsonText(value: Json | undefined): string {
  return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
}

/** The merged value; undefined when the patch deletes it (`$patch: delete`). */
export function strategicMerge(target: Json | undefined, patch: Json): Json | undefined {
  if (!isObject(patch)) return patch;
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  const clean: JsonObject = Object.fromEntries(Object.entries(patch).filter(([k]) => k !== '$patch'));
  if (directive === 'replace' || !isObject(target)) return stripNulls(clean);
  const out: JsonObject = { ...target };
  for (const [key, value] of Object.entries(clean)) {
    if (value === null) {
      delete out[key];
      continue;
    }
    const merged = strategicMerge(Object.hasOwn(out, key) ? out[key] : undefined, value);
    if (merged === undefined) delete out[key];
    else setOwn(out, key, merged);
  }
  return out;
}

/**
 * Sets a key as data: a key named `__proto__` (a patch may write one) is a field like any other,
 * never the object's prototype.
 */
function setOwn(obj: JsonObject, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function stripNulls(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

export type JsonPatchResult = Result<Json, string>;

const OpSchema = (op: unknown): op is { op: string; path: string; value?: Json; from?: string } =>
  isObject(op) && typeof op.op === 'string' && typeof op.path === 'string';

/**
 * Applies the operations in order. Containers are copied along each operation's path only, never
 * the whole object: a patch costs what it touches, and patches over one object stay linear.
 */
export function applyJsonPatch(target: Json, ops: readonly unknown[]): JsonPatchResult {
  let doc: Json = target;
  for (const [i, op] of ops.entries()) {
    if (!OpSchema(op)) return fail(`operation ${i + 1} has no op or path`);
    const step = applyOne(doc, op);
    if (!step.ok) return fail(`operation ${i + 1} (${op.op} ${op.path}): ${step.error}`);
    doc = step.value;
  }
  return ok(doc);
}

function applyOne(doc: Json, op: { op: string; path: string; value?: Json; from?: string }): JsonPatchResult {
  switch (op.op) {
    case 'add':
    case 'replace':
      if (op.value === undefined) return fail('no value');
      return put(doc, op.path, op.value, op.op);
    case 'remove':
      return put(doc, op.path, undefined, 'remove');
    case 'test': {
      const found = get(doc, op.path);
      return found !== undefined && JSON.stringify(found) === JSON.stringify(op.value) ? ok(doc) : fail('test failed');
    }
    case 'copy':
    case 'move': {
      const value = op.from === undefined ? undefined : get(doc, op.from);
      if (value === undefined || op.from === undefined) return fail(`nothing at ${op.from ?? '(no from)'}`);
      const removed = op.op === 'move' ? put(doc, op.from, undefined, 'remove') : ok(doc);
      return removed.ok ? put(removed.value, op.path, value, 'add') : removed;
    }
    default:
      return fail(`unknown op ${op.op}`);
  }
}

export function pointerTokens(path: string): string[] | null {
  if (path === '') return [];
  if (!path.startsWith('/')) return null;
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(doc: Json, path: string): Json | undefined {
  const tokens = pointerTokens(path);
  if (tokens === null) return undefined;
  let at: Json | undefined = doc;
  for (const t of tokens) {
    if (Array.isArray(at)) at = at[Number(t)];
    else if (isObject(at)) at = Object.hasOwn(at, t) ? at[t] : undefined;
    else return undefined;
  }
  return at;
}

function put(doc: Json, path: string, value: Json | undefined, mode: 'add' | 'replace' | 'remove'): JsonPatchResult {
  const tokens = pointerTokens(path);
  if (tokens === null) return fail('not a JSON pointer');
  if (tokens.length === 0) return value === undefined ? fail('cannot remove the whole object') : ok(value);
  return putAt(doc, tokens, 0, value, mode);
}

/** `doc` with the operation done at `tokens[i…]`: a copy of each container on the way, the rest shared. */
function putAt(
  doc: Json,
  tokens: readonly string[],
  i: number,
  value: Json | undefined,
  mode: 'add' | 'replace' | 'remove',
): JsonPatchResult {
  const token = tokens[i] as string;
  const last = i === tokens.length - 1;
  if (Array.isArray(doc)) {
    const index = last && token === '-' && mode === 'add' ? doc.length : Number(token);
    if (last) {
      if (!Number.isInteger(index) || index < 0 || index > doc.length || (mode !== 'add' && index >= doc.length)) {
        return fail(`no item ${token}`);
      }
      const copy = doc.slice();
      if (mode === 'remove') copy.splice(index, 1);
      else if (mode === 'replace') copy[index] = value as Json;
      else copy.splice(index, 0, value as Json);
      return ok(copy);
    }
    const child = Number.isInteger(index) && index >= 0 ? doc[index] : undefined;
    if (child === undefined) return fail('the parent does not exist');
    const inner = putAt(child, tokens, i + 1, value, mode);
    if (!inner.ok) return inner;
    const copy = doc.slice();
    copy[index] = inner.value;
    return ok(copy);
  }
  if (isObject(doc)) {
    if (last) {
      if (mode !== 'add' && !Object.hasOwn(doc, token)) return fail(`no key ${token}`);
      const copy = { ...doc };
      if (mode === 'remove') delete copy[token];
      else setOwn(copy, token, value as Json);
      return ok(copy);
    }
    const child = Object.hasOwn(doc, token) ? doc[token] : undefined;
    if (child === undefined) return fail('the parent does not exist');
    const inner = putAt(child, tokens, i + 1, value, mode);
    return inner.ok ? ok({ ...doc, [token]: inner.value }) : inner;
  }
  return fail('the parent does not exist');
}
