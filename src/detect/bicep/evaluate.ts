import type { Node } from 'web-tree-sitter';
import { callFunction } from './functions.js';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';

const MAX_DEPTH = 40;

/** `scope` with loop variables bound over it; a variable bound to BicepUnknown is unknown where read. */
export function bindScope(scope: BicepScope, vars: ReadonlyMap<string, BicepValue | BicepUnknown>): BicepScope {
  return {
    budget: scope.budget,
    lookup(name) {
      const v = vars.get(name);
      if (v instanceof BicepUnknown) throw v;
      return v === undefined && !vars.has(name) ? scope.lookup(name) : (v ?? null);
    },
  };
}

/** The parts of `[for item in list: body]`, `[for (item, i) in list: body]`; the body may be `if (…) {…}`. */
export function loopParts(node: Node): { item: string; index: string | null; iterable: Node | null; body: Node | null } {
  const [head, iterable] = node.namedChildren;
  const body = node.childForFieldName('body');
  if (head?.type === 'for_loop_parameters') {
    const [item, index] = head.namedChildren;
    return { item: item?.text ?? '', index: index?.text ?? null, iterable: iterable ?? null, body };
  }
  return { item: head?.text ?? '', index: null, iterable: iterable ?? null, body };
}

/** A loop's items with their bindings; past `MAX_COPIES`, unknown. */
export function loopItems(node: Node, scope: BicepScope, depth = 0): { scope: BicepScope; key: number; body: Node | null }[] {
  const parts = loopParts(node);
  const list = evaluate(parts.iterable, scope, depth + 1);
  const items = Array.isArray(list)
    ? list
    : list !== null && typeof list === 'object'
      ? Object.entries(list).map(([key, value]) => ({ key, value }))
      : null;
  if (items === null) throw new BicepUnknown(`${parts.iterable?.text ?? 'a loop'} is not a list to loop over`);
  if (items.length > MAX_COPIES) throw new BicepUnknown(`${items.length} copies, more than the ${MAX_COPIES} read one by one`);
  return items.map((item, key) => {
    const vars = new Map<string, BicepValue>([[parts.item, item]]);
    if (parts.index !== null) vars.set(parts.index, key);
    return { scope: bindScope(scope, vars), key, body: parts.body };
  });
}

/** Copies of a loop read one by one; past this, how many there are is not told. */
const MAX_COPIES = 256;

/**
 * Evaluates the expressions a pool is sized with: literals, objects and arrays, parameters and
 * variables, member and index access, `?:`, `!`, comparisons, `&&`/`||`, `+ - * /` on numbers,
 * and strings with interpolations of those. Anything else (functions, resource outputs) is
 * unknown, and says which expression.
 */
export function evaluate(node: Node | null, scope: BicepScope, depth = 0): BicepValue {
  if (node === null) throw new BicepUnknown('a missing value');
  if (depth > MAX_DEPTH) throw new BicepUnknown(`${node.text.slice(0, 60)} is nested too deeply`);
  scope.budget.charge();
  const at = (n: Node | null) => evaluate(n, scope, depth + 1);
  switch (node.type) {
    case 'number':
      return Number(node.text);
    case 'boolean':
      return node.text === 'true';
    case 'null':
      return null;
    case 'string':
      return stringValue(node, scope, depth);
    case 'identifier':
      return scope.budget.nested(() => scope.lookup(node.text));
    case 'parenthesized_expression':
      return at(node.namedChildren[0] ?? null);
    case 'object': {
      scope.budget.made(node.namedChildCount, 'list');
      const out: Record<string, BicepValue> = {};
      for (const prop of node.namedChildren) {
        if (prop?.type !== 'object_property') continue;
        const [key, value] = prop.namedChildren;
        if (!key) continue;
        const name = key.type === 'string' ? stringValue(key, scope, depth) : key.text;
        out[String(name)] = at(value ?? null);
      }
      return scope.budget.weighed(out);
    }
    case 'array':
      scope.budget.made(node.namedChildCount, 'list');
      return scope.budget.weighed(node.namedChildren.filter((c) => c !== null).map((c) => at(c)));
    case 'for_statement': {
      const out: BicepValue[] = [];
      for (const copy of loopItems(node, scope, depth)) {
        let body = copy.body;
        if (body?.type === 'if_statement') {
          const [condition, then] = body.namedChildren;
          if (evaluate(condition ?? null, copy.scope, depth + 1) !== true) continue;
          body = then ?? null;
        }
        out.push(evaluate(body, copy.scope, depth + 1));
        scope.budget.made(out.length, 'list');
      }
      return scope.budget.weighed(out);
    }
    case 'call_expression':
      return callFunction(node, scope, (arg) => evaluate(arg, scope, depth + 1));
    case 'ternary_expression': {
      const cond = at(node.childForFieldName('condition'));
      return at(node.childForFieldName(cond === true ? 'consequence' : 'alternative'));
    }
    case 'member_expression': {
      const obj = at(node.childForFieldName('object'));
      const prop = node.childForFieldName('property')?.text ?? '';
      if (obj !== null && typeof obj === 'object' && !Array.isArray(obj) && prop in obj) return obj[prop] ?? null;
      throw new BicepUnknown(`${node.text} names a property that is not there`);
    }
    case 'subscript_expression': {
      const obj = at(node.childForFieldName('object'));
      const index = at(node.childForFieldName('index'));
      if (Array.isArray(obj) && typeof index === 'number') return obj[index] ?? null;
      if (obj !== null && typeof obj === 'object' && !Array.isArray(obj) && typeof index === 'string' && index in obj)
        return obj[index] ?? null;
      throw new BicepUnknown(`${node.text} names an element that is not there`);
    }
    case 'unary_expression': {
      const v = at(node.childForFieldName('argument'));
      const op = node.childForFieldName('operator')?.text;
      if (op === '!' && typeof v === 'boolean') return !v;
      if (op === '-' && typeof v === 'number') return -v;
      break;
    }
    case 'binary_expression': {
      if (node.childForFieldName('operator')?.text === '??') {
        const left = at(node.childForFieldName('left'));
        return left === null ? at(node.childForFieldName('right')) : left;
      }
      const r = binary(node.childForFieldName('operator')?.text, at(node.childForFieldName('left')), at(node.childForFieldName('right')));
      if (r !== undefined) return r;
      break;
    }
    default:
      break;
  }
  throw new BicepUnknown(`${node.text.replace(/\s+/g, ' ').slice(0, 80)} is an expression this tool does not evaluate`);
}

function binary(op: string | undefined, a: BicepValue, b: BicepValue): BicepValue | undefined {
  if (op === '&&' || op === '||') return typeof a === 'boolean' && typeof b === 'boolean' ? (op === '&&' ? a && b : a || b) : undefined;
  if (op === '==' || op === '!=') return (JSON.stringify(a) === JSON.stringify(b)) === (op === '==');
  if (typeof a !== 'number' || typeof b !== 'number') return undefined;
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? undefined : Math.trunc(a / b);
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      return undefined;
  }
}

function stringValue(node: Node, scope: BicepScope, depth: number): string {
  let out = '';
  for (const part of node.namedChildren) {
    if (part === null) continue;
    if (part.type === 'string_content') out += part.text;
    else if (part.type === 'escape_sequence') out += part.text.slice(1);
    else if (part.type === 'interpolation') {
      const v = evaluate(part.namedChildren[0] ?? null, scope, depth + 1);
      out += typeof v === 'string' ? v : JSON.stringify(v);
    }
    scope.budget.made(out.length, 'string');
  }
  return out;
}
