import { CST, isMap, isScalar, isSeq, Lexer, parseAllDocuments, Scalar } from 'yaml';
import type { Node, Pair } from 'yaml';
import { blank, child, lineAt, plainKeys } from './structure.js';
import type { PathNode, Structure } from './structure.js';
import type { Syntax } from './syntax.js';
import { scanYaml } from './yaml-structure.js';

/**
 * Templates (Helm, Jinja, HCL's `%{ }`) parse as something else than what they render, or not at
 * all: the indentation scan reads them, as it reads what does not parse.
 */
const TEMPLATE = /\{\{|\{%|%\{/;
/** Deeper nesting than any manifest: the indentation scan reads it, with no recursion to exhaust. */
const MAX_DEPTH = 256;
/** The Lexer's markers that stand for no character of the text. */
const NOT_SOURCE = new Set([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);

class TooDeep extends Error {}

/**
 * YAML from `from` to `to`, as the tools that apply it read it: by the parsed structure, so a flow
 * mapping (`resources: {limits: {nvidia.com/gpu: 1}}`) has the same paths as the block one.
 * Where the text does not parse (or is a template) the indentation scan reads it instead.
 * `root`/`rootContainer` place a YAML text held in another (a heredoc) under its path.
 */
export function scanYamlText(
  text: string,
  from: number,
  to: number,
  root: PathNode | null,
  rootContainer: number,
  syntax: Syntax,
  out: Structure,
  masked: string[],
  starts: readonly number[],
): void {
  const source = text.slice(from, to);
  if (!TEMPLATE.test(source)) {
    const parsed = parsedStructure(source, from, root, rootContainer, syntax, starts, out.containers.length);
    if (parsed !== null) {
      // One at a time: a spread of a large file's points would pass more arguments than a call takes.
      for (const k of parsed.keys) out.keys.push(k);
      for (const p of parsed.points) out.points.push(p);
      for (const c of parsed.containers) out.containers.push(c);
      for (const o of parsed.overridden) out.overridden.push(o);
      for (const [start, end] of parsed.comments) blank(masked, start, end);
      return;
    }
  }
  scanYaml(text, from, to, root, rootContainer, syntax, out, masked, starts, true);
}

type Parsed = Omit<Structure, 'masked'> & { comments: [number, number][] };

/** The structure of a YAML text that parses, offsets and container indexes placed after `at` and `first`; null if it does not. */
function parsedStructure(
  source: string,
  at: number,
  root: PathNode | null,
  rootContainer: number,
  syntax: Syntax,
  starts: readonly number[],
  first: number,
): Parsed | null {
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(source, { schema: 'failsafe', uniqueKeys: false, strict: false, merge: false });
  } catch {
    return null;
  }
  if (!Array.isArray(docs) || docs.length === 0 || docs.some((d) => d.errors.length > 0)) return null;
  const out: Parsed = { keys: [], points: [], containers: [], overridden: [], comments: [] };
  const line = (offset: number) => lineAt(starts, at + offset);
  /** The line of the last character before `end` that is not blank. */
  const lastLine = (start: number, end: number) => {
    let i = Math.min(end, source.length) - 1;
    while (i > start && /\s/.test(source[i] ?? '')) i--;
    return line(Math.max(start, i));
  };
  const open = (start: number, end: number, parent: number, key: string | null, document = false): number => {
    out.containers.push({ start, end, parent, key, hasKind: false, ...(document ? { document: true as const } : {}) });
    return first + out.containers.length - 1;
  };
  const box = (index: number) => out.containers[index - first];
  const point = (offset: number, path: PathNode | null, container: number) => out.points.push({ offset: at + offset, path, container });

  const scalar = (node: unknown) => {
    // A block scalar's lines are text another reader may take as keys (a ConfigMap's embedded config).
    if (!syntax.keys || !isScalar(node) || !node.range) return;
    if (node.type !== Scalar.BLOCK_LITERAL && node.type !== Scalar.BLOCK_FOLDED) return;
    let offset = node.range[0];
    for (const text of source.slice(node.range[0], node.range[1]).split('\n')) {
      plainKeys(text, at + offset, out);
      offset += text.length + 1;
    }
  };

  /** The pairs and items of a collection whose own container is `container`, under `path`. */
  const walk = (node: Node, path: PathNode | null, container: number, depth: number): void => {
    if (depth > MAX_DEPTH) throw new TooDeep();
    if (isMap(node)) {
      const last = new Map<string, Pair>();
      for (const pair of node.items) {
        const name = keyName(pair.key);
        if (name !== null && name !== '<<') last.set(name, pair);
      }
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const name = keyName(pair.key);
        const keyStart = keyNode?.range?.[0] ?? (pair.value as Node | null)?.range?.[0];
        if (keyStart === undefined) continue;
        const key = name ?? '?';
        const quoted = isScalar(keyNode) && (keyNode.type === Scalar.QUOTE_DOUBLE || keyNode.type === Scalar.QUOTE_SINGLE);
        if (name !== null) out.keys.push({ offset: at + keyStart + (quoted ? 1 : 0), key: name });
        if (name === 'kind') {
          const c = box(container);
          if (c) c.hasKind = true;
        }
        const own = child(path, key.toLowerCase());
        point(keyStart, own, container);
        const value = pair.value as Node | null;
        const end = value?.range?.[1] ?? keyNode?.range?.[1] ?? keyStart;
        // A key set again later in the same mapping: the applier keeps the last (see Structure.overridden).
        if (name !== null && name !== '<<' && last.get(name) !== pair) out.overridden.push({ from: at + keyStart, to: at + end });
        if (isMap(value) || isSeq(value)) {
          const inner = open(line(keyStart), lastLine(keyStart, end), container, key.toLowerCase());
          walk(value, own, inner, depth + 1);
        } else scalar(value);
        point(end, path, container);
      }
    } else if (isSeq(node)) {
      for (const item of node.items as (Node | null)[]) {
        const range = item?.range;
        if (!item || !range) continue;
        const own = child(path, '[]');
        point(range[0], own, container);
        if (isMap(item) || isSeq(item)) {
          const inner = open(line(range[0]), lastLine(range[0], range[1]), container, null);
          walk(item, own, inner, depth + 1);
        } else scalar(item);
        point(range[1], path, container);
      }
    }
  };

  try {
    for (const doc of docs) {
      const [start, end] = doc.range ?? [0, source.length];
      const contents = doc.contents;
      const from = contents?.range?.[0] ?? start;
      const document = open(line(from), lastLine(from, end), rootContainer, null, true);
      point(start, root, document);
      if (isMap(contents) || isSeq(contents)) walk(contents, root, document, 0);
      else scalar(contents);
    }
  } catch (e) {
    if (e instanceof TooDeep) return null;
    throw e;
  }
  let offset = 0;
  for (const token of new Lexer().lex(source)) {
    if (NOT_SOURCE.has(token)) continue;
    if (CST.tokenType(token) === 'comment') out.comments.push([at + offset, at + offset + token.length]);
    offset += token.length;
  }
  return out;
}

/** A key as written (a scalar's text); null for a key that is a mapping, a list or absent. */
function keyName(key: unknown): string | null {
  if (!isScalar(key)) return null;
  return String(key.value);
}
