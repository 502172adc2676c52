import { isMap, isNode, isPair, isScalar } from 'yaml';
import type { LineCounter, Node, Pair } from 'yaml';

/** First and last line of a YAML node or a `key: value` pair (1-based, inclusive), for a parser's account of what it read. */
export interface NodeLines {
  from: number;
  to: number;
}

/** The lines a node spans (its value, not the comments after it); null for a node with no position. */
export function nodeLines(node: unknown, lc: LineCounter): NodeLines | null {
  if (!isNode(node)) return null;
  const range = (node as Node).range;
  if (!range) return null;
  const [start, valueEnd] = range;
  return { from: lc.linePos(start).line, to: lc.linePos(Math.max(start, valueEnd - 1)).line };
}

/** The lines of a pair: from its key to the end of its value. */
export function pairLines(pair: Pair, lc: LineCounter): NodeLines | null {
  const key = nodeLines(pair.key, lc);
  const value = nodeLines(pair.value, lc);
  if (!key) return value;
  return value ? { from: key.from, to: Math.max(key.to, value.to) } : key;
}

/**
 * The lines of every pair of a mapping but those named in `except`: what a parser read of an
 * object when it reads the named fields itself, part by part.
 */
export function pairsExcept(map: unknown, except: readonly string[], lc: LineCounter): NodeLines[] {
  if (!isMap(map)) return [];
  const out: NodeLines[] = [];
  for (const pair of map.items) {
    if (!isPair(pair)) continue;
    const key = isScalar(pair.key) ? pair.key.value : null;
    if (typeof key === 'string' && except.includes(key)) continue;
    const lines = pairLines(pair, lc);
    if (lines) out.push(lines);
  }
  return out;
}

/** The pair of a mapping whose key is `key` (the last one, as Kubernetes reads repeated keys). */
export function pairOf(map: unknown, key: string): Pair | null {
  if (!isMap(map)) return null;
  for (let i = map.items.length - 1; i >= 0; i--) {
    const pair = map.items[i];
    if (pair && isScalar(pair.key) && pair.key.value === key) return pair;
  }
  return null;
}

/**
 * The lines of a mapping that no pair the applier reads sits on, once merge keys are applied
 * (kube-yaml-normalize.ts): a merge key whose values the map's own keys all override, a key
 * written twice, a comment. What is there is not applied, so a reader of the mapping has read it.
 */
export function deadLines(map: unknown, lc: LineCounter): NodeLines[] {
  const whole = nodeLines(map, lc);
  if (!whole || !isMap(map)) return [];
  const live = new Set<number>();
  for (const pair of map.items) {
    const lines = isPair(pair) ? pairLines(pair, lc) : null;
    if (lines) for (let line = lines.from; line <= lines.to; line++) live.add(line);
  }
  const out: NodeLines[] = [];
  for (let line = whole.from; line <= whole.to; line++) if (!live.has(line)) out.push({ from: line, to: line });
  return out;
}
