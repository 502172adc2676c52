import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import { looksLikeGpuType } from '../kit/gpu-types/index.js';
import { evaluate, loopItems } from './evaluate.js';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';
import type { Diagnostic } from '../../domain/index.js';
import type { UnresolvedDecl } from '../parser.js';

const KIND = 'aks-node-pool' as const;

/** What reading a list may say: why it could not, and the unknown standing for its pools. */
interface ListNotes {
  diagnostics: Diagnostic[];
  unresolved: UnresolvedDecl[];
}

/** One field of a pool: where it is written, and its value (BicepUnknown when it cannot be known). */
interface Field {
  at: Node;
  text: string;
  value(): BicepValue;
}

/** A pool's fields by name; null when the pool does not set it. */
export type Fields = (key: string) => Field | null;

/** One pool of a list: its name's fields and its properties' (the same object for a profile), where it is, what it says. */
export interface PoolItem {
  name: Fields;
  props: Fields;
  at: Node;
  text: string;
  /** The pool's whole value, for union()'s comparison (BicepUnknown when a field cannot be known). */
  whole(): BicepValue;
}

/** `{ key: value }` → the value node of `key`, or null. */
export function property(obj: Node | null, key: string): Node | null {
  if (obj?.type !== 'object') return null;
  for (const prop of obj.namedChildren) {
    if (prop?.type !== 'object_property') continue;
    const [k, v] = prop.namedChildren;
    const name = k?.type === 'string' ? k.text.slice(1, -1) : k?.text;
    if (name === key) return v ?? null;
  }
  return null;
}

/** The fields of an object written in the template, evaluated in `scope`. */
export function nodeFields(obj: Node | null, scope: BicepScope): Fields {
  return (key) => {
    const n = property(obj, key);
    return n === null ? null : { at: n, text: n.text, value: () => evaluate(n, scope) };
  };
}

/** The fields of an object known only as a value (a variable's, a parameter's), placed at `at`, where the list names it. */
function valueFields(obj: { [key: string]: BicepValue }, at: Node): Fields {
  return (key) => {
    if (!Object.hasOwn(obj, key)) return null;
    const v = obj[key] ?? null;
    return { at, text: JSON.stringify(v), value: () => v };
  };
}

export const objectItem = (obj: Node, scope: BicepScope): PoolItem => {
  const fields = nodeFields(obj, scope);
  return { name: fields, props: fields, at: obj, text: obj.text, whole: () => evaluate(obj, scope) };
};

const isObject = (v: BicepValue): v is { [key: string]: BicepValue } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A list's items bound: past this, a list is not read pool by pool. */
const MAX_ITEMS = 256;

/** The pools of a list as values, each placed at `at`; null when the value is not a list of objects. */
function valueItems(v: BicepValue, at: Node): PoolItem[] | null {
  if (!Array.isArray(v) || !v.every(isObject)) return null;
  return v.map((obj) => {
    const fields = valueFields(obj, at);
    return { name: fields, props: fields, at, text: JSON.stringify(obj), whole: () => obj };
  });
}

/**
 * The pools of a pool list, each with how to read it: the items of an array (an object written
 * there, or a variable naming one), the copies of `[for p in pools: {…}]`, the lists `concat()`
 * joins and `union()` joins without repeats (as ARM does: an item equal to an earlier one is
 * dropped, so one that cannot be evaluated leaves the union unread), and any other expression
 * evaluated to a list of objects. A list that cannot be told is said, when it or the list a loop
 * runs over names a GPU VM size, as one unknown standing for all its pools.
 */
export function poolItems(file: string, where: string, key: string, node: Node | null, scope: BicepScope, out: ListNotes): PoolItem[] {
  if (node === null) return [];
  try {
    return listItems(node, scope, 0);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    unreadList(file, where, key, node, scope, out, err.culprit);
    return [];
  }
}

const MAX_NESTING = 16;

function listItems(node: Node, scope: BicepScope, depth: number): PoolItem[] {
  if (depth > MAX_NESTING) throw new BicepUnknown(`${node.text.slice(0, 60)} is nested too deeply`);
  if (node.type === 'parenthesized_expression' && node.namedChildren[0]) return listItems(node.namedChildren[0], scope, depth + 1);
  if (node.type === 'array') {
    return node.namedChildren
      .filter((c): c is Node => c !== null && c.type !== 'comment')
      .flatMap((item) => {
        if (item.type === 'object') return [objectItem(item, scope)];
        const v = evaluate(item, scope);
        if (!isObject(v)) throw new BicepUnknown(`${item.text.slice(0, 60)} is not a pool object`);
        return valueItems([v], item) ?? [];
      });
  }
  if (node.type === 'for_statement') {
    const items: PoolItem[] = [];
    for (const copy of loopItems(node, scope)) {
      let body = copy.body;
      if (body?.type === 'if_statement') {
        if (evaluate(body.namedChildren[0] ?? null, copy.scope) !== true) continue;
        body = body.namedChildren[1] ?? null;
      }
      if (body?.type === 'object') items.push(objectItem(body, copy.scope));
      else if (body !== null) throw new BicepUnknown(`${body.text.slice(0, 60)} is not a pool object`);
    }
    return items;
  }
  const joined = joinedLists(node, scope, depth);
  if (joined !== null) return joined;
  const items = valueItems(evaluate(node, scope), node);
  if (items === null) throw new BicepUnknown(`${node.text.slice(0, 60)} is not a list of pools`);
  return items;
}

/** `concat(a, b, …)` and `union(a, b, …)` of lists, each read as a list; null for any other expression. */
function joinedLists(node: Node, scope: BicepScope, depth: number): PoolItem[] | null {
  if (node.type !== 'call_expression') return null;
  const callee = node.childForFieldName('function');
  const name = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee?.text;
  const namespace = callee?.type === 'member_expression' ? callee.childForFieldName('object')?.text : 'sys';
  if (namespace !== 'sys' || (name !== 'concat' && name !== 'union')) return null;
  const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
  const items = args.flatMap((a) => listItems(a, scope, depth + 1));
  if (items.length > MAX_ITEMS) throw new BicepUnknown(`${items.length} pools, more than the ${MAX_ITEMS} read one by one`);
  if (name === 'concat') return items;
  // union(): later items equal to earlier ones are dropped, compared by value as the evaluator does.
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item.whole());
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A pool list this tool cannot read: said when it, or the list a loop runs over, names a GPU VM size. */
function unreadList(file: string, where: string, key: string, node: Node, scope: BicepScope, out: ListNotes, culprit: string): void {
  if (node.type === 'object') return;
  // `[for item in list: {…}]`: the initializer, the list, the body, in that order.
  const iterable = node.type === 'for_statement' ? node.namedChildren[1] : null;
  let listed: BicepValue = null;
  try {
    listed = evaluate(iterable ?? node, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
  }
  if (!/gpu|standard_n[cdv]/i.test(node.text) && !namesGpuSize(listed) && !readsGpuSize(node, scope)) return;
  out.diagnostics.push(
    diagnostic(
      file,
      node.startPosition.row + 1,
      'warning',
      `${where}: ${key} is built by an expression (${node.type.replace(/_/g, ' ')}) this tool does not evaluate (${culprit}); the GPUs of its pools are not counted`,
    ),
  );
  // One unknown for the whole list: a pool the base read there is unknown now, never removed.
  out.unresolved.push({
    file,
    line: node.startPosition.row + 1,
    kind: KIND,
    name: `${where.split(' ')[1] ?? 'pools'}.${key}`,
    wholeList: true,
  });
}

/** A name the expression reads (a variable, a parameter) whose value names a GPU VM size: `concat(gpuPools, extra)`. */
function readsGpuSize(node: Node, scope: BicepScope): boolean {
  const names = new Set<string>();
  const walk = (n: Node): void => {
    if (n.type === 'identifier') names.add(n.text);
    for (const c of n.namedChildren) if (c !== null) walk(c);
  };
  walk(node);
  return [...names].some((name) => {
    try {
      return namesGpuSize(scope.lookup(name));
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      return false;
    }
  });
}

function namesGpuSize(v: BicepValue): boolean {
  if (typeof v === 'string') return looksLikeGpuType(v);
  if (Array.isArray(v)) return v.some(namesGpuSize);
  return v !== null && typeof v === 'object' && Object.values(v).some(namesGpuSize);
}
