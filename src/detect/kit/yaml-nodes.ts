import { isMap, isScalar, isSeq } from 'yaml';
import type { LineCounter, Node } from 'yaml';

/** Small typed accessors over the yaml AST, so readers keep source positions. */

/** The value of a key; with a repeated key the last one wins, as in Kubernetes' JSON decoding. */
export function mapGet(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  for (let i = node.items.length - 1; i >= 0; i--) {
    const pair = node.items[i];
    const k = pair?.key;
    if ((isScalar(k) ? k.value : k) === key) return pair?.value ?? null;
  }
  return undefined;
}

export function seqItems(node: unknown): unknown[] {
  return isSeq(node) ? node.items : [];
}

/** A scalar's value when it is a string. */
export function scalarString(node: unknown): string | null {
  return isScalar(node) && typeof node.value === 'string' ? node.value : null;
}

/** A scalar's value (string, number, boolean, null), or undefined for collections and absence. */
export function scalarValue(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}

/** A scalar's value as text (`8`, `true`, `a100`); '' for null, collections and absence. */
export function scalarText(node: unknown): string {
  const v = scalarValue(node);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : '';
}

export function nodeLine(node: unknown, lc: LineCounter): number | null {
  const range = (node as Node | null | undefined)?.range;
  return range ? lc.linePos(range[0]).line : null;
}

/** The node's text as written in the source. */
export function nodeSource(node: unknown, text: string): string {
  const range = (node as Node | null | undefined)?.range;
  return range ? text.slice(range[0], range[1]) : '';
}
