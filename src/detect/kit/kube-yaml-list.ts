import { isMap, isScalar, isSeq, Pair, Scalar, YAMLMap } from 'yaml';
import type { Node } from 'yaml';
import type { YamlDialect, YamlProblem } from './kube-yaml-normalize.js';

/** `List` objects as the appliers unwrap them into their items (kube-yaml.ts). */

/** A node's value as text, when it is a string scalar. */
function stringAt(node: unknown, key: string): Scalar | null {
  if (!isMap(node)) return null;
  for (const p of node.items)
    if (isScalar(p.key) && p.key.value === key && isScalar(p.value) && typeof p.value.value === 'string') return p.value;
  return null;
}

function pairAt(node: YAMLMap, key: string): Pair | undefined {
  return node.items.find((p) => isScalar(p.key) && p.key.value === key);
}

export interface ListItem {
  node: unknown;
  list: { kind: string; pos: number };
}

const MAX_LIST_DEPTH = 8;

/**
 * The objects a List holds, null when the document is not one. kubectl reads any object with
 * `items` as a list (unstructured decoding), flattens lists of lists, and gives an item with
 * neither kind nor apiVersion the list's apiVersion and its kind less `List`; kustomize inlines
 * objects whose kind ends in `List`.
 */
export function unwrapList(root: unknown, dialect: YamlDialect, problems: YamlProblem[], depth: number): ListItem[] | null {
  if (!isMap(root)) return null;
  const kind = stringAt(root, 'kind');
  const itemsPair = pairAt(root, 'items');
  if (kind === null || itemsPair === undefined) return null;
  const items = itemsPair.value;
  if (isScalar(items) && items.value === null) return null;
  if (dialect !== 'kubectl' && !String(kind.value).endsWith('List')) return null;
  const pos = (itemsPair.key as Node | null)?.range?.[0] ?? 0;
  if (!isSeq(items) || depth > MAX_LIST_DEPTH) {
    problems.push({ message: `${String(kind.value)}: items is not a list of objects`, pos: [pos, pos + 1] });
    return [];
  }
  const itemKind = String(kind.value).replace(/List$/, '');
  const apiVersion = pairAt(root, 'apiVersion');
  const out: ListItem[] = [];
  for (const item of items.items) {
    if (!isMap(item)) {
      problems.push({ message: `${String(kind.value)}: an item is not an object`, pos: [pos, pos + 1] });
      continue;
    }
    const inner = unwrapList(item, dialect, problems, depth + 1);
    if (inner !== null) {
      out.push(...inner);
      continue;
    }
    const bare = pairAt(item, 'kind') === undefined && pairAt(item, 'apiVersion') === undefined;
    out.push({ node: bare ? withIdentity(item, kind, itemKind, apiVersion) : item, list: { kind: String(kind.value), pos } });
  }
  return out;
}

/** An item with the List's identity, its new fields placed at the List's own lines. */
function withIdentity(item: YAMLMap, kind: Scalar, itemKind: string, apiVersion: Pair | undefined): YAMLMap {
  const copy = new YAMLMap();
  if (item.range) copy.range = item.range;
  const kindValue = new Scalar(itemKind);
  if (kind.range) kindValue.range = kind.range;
  const kindKey = new Scalar('kind');
  if (kind.range) kindKey.range = kind.range;
  copy.items = [new Pair(kindKey, kindValue), ...(apiVersion ? [apiVersion] : []), ...item.items];
  return copy;
}
