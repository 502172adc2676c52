import type { Node } from 'web-tree-sitter';
import { evaluate } from './evaluate.js';
import { parseBicep } from './grammar.js';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';

/**
 * One property of a pool, a cluster's `properties` or a module's `params`: read from the object
 * literal it is written in (`node` is its expression), or from the value an expression builds
 * (`union({…}, spot ? {…} : {})`, a variable) when what holds it is not a literal. Templates build
 * pools both ways, and the applier sees the same object either way.
 */
export interface Field {
  /** Where the value is written: the property's expression, or the expression that built it. */
  at: Node;
  /** The property's expression when it is written in an object literal. */
  node: Node | null;
  text: string;
  /** The value (BicepUnknown when it cannot be known). */
  value(): BicepValue;
}

export interface Fields {
  at: Node;
  text: string;
  get(key: string): Field | null;
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

/** The fields of an object literal, each evaluated where read. */
export function literalFields(obj: Node, scope: BicepScope): Fields {
  return {
    at: obj,
    text: obj.text,
    get(key) {
      const node = property(obj, key);
      return node === null ? null : { at: node, node, text: node.text, value: () => evaluate(node, scope) };
    },
  };
}

/** The fields of an object built by an expression, all at that expression's line. */
export function valueFields(at: Node, value: { [key: string]: BicepValue }): Fields {
  return {
    at,
    text: JSON.stringify(value),
    get(key) {
      if (!Object.hasOwn(value, key)) return null;
      const v = value[key] ?? null;
      return { at, node: null, text: JSON.stringify(v), value: () => v };
    },
  };
}

const isRecord = (v: BicepValue): v is { [key: string]: BicepValue } => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The fields of what `node` builds: an object literal as written, any other expression by its
 * value. Null when it builds no object (nothing there, a string); BicepUnknown when what it builds
 * cannot be known, so that the caller says so rather than reading it as empty.
 */
export function fieldsOf(node: Node | null, scope: BicepScope): Fields | null | BicepUnknown {
  if (node === null) return null;
  if (node.type === 'object') return literalFields(node, scope);
  let v: BicepValue;
  try {
    v = evaluate(node, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    return err;
  }
  return isRecord(v) ? valueFields(node, v) : null;
}

/**
 * The fields of each item of an array literal. tree-sitter-bicep reads a call written as an item
 * (`[\n  union(base, {…})\n]`) as two items, the function's name and a parenthesized expression,
 * where Bicep reads one call: the two are joined back and the call evaluated as Bicep does.
 */
export function arrayItemFields(array: Node, scope: BicepScope): (Fields | null | BicepUnknown)[] {
  const items = array.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  const out: (Fields | null | BicepUnknown)[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Node;
    const next = items[i + 1];
    const call =
      item.type === 'identifier' &&
      next?.type === 'parenthesized_expression' &&
      next.startPosition.row === item.endPosition.row &&
      next.startPosition.column === item.endPosition.column;
    if (!call) {
      out.push(fieldsOf(item, scope));
      continue;
    }
    i++;
    out.push(reparsedCall(item, `${item.text}${next.text}`, scope));
  }
  return out;
}

function reparsedCall(at: Node, call: string, scope: BicepScope): Fields | null | BicepUnknown {
  const parsed = parseBicep(`var item = ${call}\n`);
  if ('error' in parsed) return new BicepUnknown(`${call.slice(0, 60)}: ${parsed.error}`);
  try {
    const decl = parsed.tree.rootNode.namedChildren[0];
    const expr = decl?.namedChildren[decl.namedChildren.length - 1] ?? null;
    if (parsed.tree.rootNode.hasError || expr?.type !== 'call_expression')
      return new BicepUnknown(`${call.slice(0, 60)} is not read as a call`);
    const v = fieldsOf(expr, scope);
    // Evaluated now, while the reparsed tree lives; its line is the item's.
    return v === null || v instanceof BicepUnknown ? v : valueFields(at, JSON.parse(v.text) as { [key: string]: BicepValue });
  } finally {
    parsed.tree.delete();
  }
}
