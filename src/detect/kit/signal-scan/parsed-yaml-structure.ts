import { CST, Parser } from 'yaml';
import { GpuJustifyError } from '../../../domain/errors.js';
import { blank, child, lineAt, noteType, plainKeys } from './structure.js';
import type { PathNode, Structure } from './structure.js';
import { declaresInfrastructure, syntaxOf } from './syntax.js';
import type { Syntax } from './syntax.js';
import { scanYaml } from './yaml-structure.js';
import { flowDepthPast } from '../yaml-depth.js';

/**
 * Templates (Helm, Jinja, HCL's `%{ }`) parse as something else than what they render, or not at
 * all: the indentation scan reads them, as it reads what does not parse.
 */
const TEMPLATE = /\{\{|\{%|%\{/;
/** Deeper nesting than any manifest: the indentation scan reads it, with no recursion to exhaust. */
const MAX_DEPTH = 256;

/** The text cannot be read by its structure here: the indentation scan reads it. */
class Unread extends GpuJustifyError {
  override readonly kind = 'yaml-unread';
}

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
  // Flow collections nested past MAX_DEPTH: the parser's time grows with the square of the depth.
  if (!TEMPLATE.test(source) && flowDepthPast(source, MAX_DEPTH) === null) {
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
type Token = CST.Token;
type Item = CST.CollectionItem;

/**
 * The structure of a YAML text that parses, offsets and container indexes placed after `at` and
 * `first`; null if it does not. Read from the parser's concrete syntax tree (its tokens, with their
 * offsets), not from composed documents: the same mappings and lists at a fraction of the cost,
 * which the floor pays on every changed YAML file at both sides.
 */
function parsedStructure(
  source: string,
  at: number,
  root: PathNode | null,
  rootContainer: number,
  syntax: Syntax,
  starts: readonly number[],
  first: number,
): Parsed | null {
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
  const point = (offset: number, path: PathNode | null, container: number) => out.points.push({ offset: at + offset, path, container });
  /** Comments are noted; an error anywhere means the text does not parse. */
  const sources = (tokens: readonly Token[] | undefined) => {
    for (const t of tokens ?? []) {
      if (t.type === 'comment') out.comments.push([at + t.offset, at + t.offset + t.source.length]);
      else if (t.type === 'error' || t.type === 'flow-error-end') throw new Unread();
    }
  };
  const scalar = (token: Token, owner: string | null = null) => {
    if (token.type === 'block-scalar') {
      sources(token.props);
      // A block scalar's lines are text another reader may take as keys (a ConfigMap's embedded config).
      // One a key names as a program (a ConfigMap's `task.py`, `run.sh`) is judged as a program file
      // is: its keys (`num_gpus=`) count only where it declares infrastructure through an SDK.
      if (!syntax.keys || (owner !== null && syntaxOf(owner).code && !declaresInfrastructure(token.source))) return;
      let offset = endOf(token) - token.source.length;
      for (const text of token.source.split('\n')) {
        plainKeys(text, at + offset, out);
        offset += text.length + 1;
      }
    } else if (
      token.type === 'scalar' ||
      token.type === 'single-quoted-scalar' ||
      token.type === 'double-quoted-scalar' ||
      token.type === 'alias'
    ) {
      sources(token.end);
    } else if (token.type === 'error') throw new Unread();
  };

  /** A collection's pairs or items, under `path` in its own container `container`. */
  const walk = (token: Token, path: PathNode | null, container: number, depth: number): void => {
    if (depth > MAX_DEPTH) throw new Unread();
    if (token.type === 'flow-collection') sources([token.start, ...token.end]);
    if (token.type === 'block-map' || (token.type === 'flow-collection' && token.start.source === '{')) {
      const block = token.type === 'block-map';
      const items: readonly Item[] = token.items;
      const last = new Map<string, Item>();
      for (const item of items) {
        const name = keyName(item);
        if (name !== null && name !== '<<') last.set(name, item);
      }
      for (const item of items) pair(item, block, last, path, container, depth);
    } else if (token.type === 'block-seq' || token.type === 'flow-collection') {
      for (const item of token.items as readonly Item[]) {
        sources(item.start);
        const own = child(path, '[]');
        const start = item.key?.offset ?? item.value?.offset;
        if (start === undefined) continue;
        point(start, own, container);
        if (item.key !== undefined || item.sep !== undefined) {
          // `[name: x]`: an item that is a mapping of one pair.
          const inner = open(line(start), lastLine(start, endOfItem(item)), container, null);
          pair(item, false, new Map(), own, inner, depth + 1);
        } else if (item.value && CST.isCollection(item.value)) {
          const inner = open(line(start), lastLine(start, endOf(item.value)), container, null);
          walk(item.value, own, inner, depth + 1);
        } else if (item.value) scalar(item.value);
        point(endOfItem(item), path, container);
      }
    } else scalar(token);
  };

  const pair = (item: Item, block: boolean, last: ReadonlyMap<string, Item>, path: PathNode | null, container: number, depth: number) => {
    sources(item.start);
    sources(item.sep);
    // `key` with no `:` after it in a block mapping is no pair: the text does not parse.
    if (block && item.key && !item.sep?.some((t) => t.type === 'map-value-ind')) throw new Unread();
    const name = keyName(item);
    const keyStart = item.key?.offset ?? item.sep?.find((t) => t.type === 'map-value-ind')?.offset ?? item.value?.offset;
    if (keyStart === undefined) return;
    if (item.key && CST.isCollection(item.key)) walk(item.key, child(path, '?'), container, depth + 1);
    const key = name ?? '?';
    if (name !== null && item.key) {
      const quoted = item.key.type === 'single-quoted-scalar' || item.key.type === 'double-quoted-scalar';
      out.keys.push({ offset: at + keyStart + (quoted ? 1 : 0), key: name });
    }
    if (name === 'kind' || name === 'apiVersion') noteType(out.containers[container - first], name, scalarValue(item.value) ?? '');
    const own = child(path, key.toLowerCase());
    point(keyStart, own, container);
    const end = endOfItem(item);
    // A key set again later in the same mapping: the applier keeps the last (see Structure.overridden).
    if (name !== null && name !== '<<' && last.get(name) !== item && last.has(name))
      out.overridden.push({ from: at + keyStart, to: at + end });
    if (item.value && CST.isCollection(item.value)) {
      const inner = open(line(keyStart), lastLine(keyStart, end), container, key.toLowerCase());
      walk(item.value, own, inner, depth + 1);
    } else if (item.value) scalar(item.value, name);
    point(end, path, container);
  };

  try {
    let documents = 0;
    for (const token of new Parser().parse(source)) {
      if (token.type === 'document') {
        documents++;
        sources(token.start);
        const value = token.value;
        const from = value?.offset ?? token.offset;
        const end = value ? endOf(value) : token.offset;
        const document = open(line(from), lastLine(from, end), rootContainer, null, true);
        point(token.offset, root, document);
        if (value) walk(value, root, document, 0);
        sources(token.end);
      } else if (token.type === 'doc-end') sources(token.end);
      else sources([token]);
    }
    if (documents === 0) return null;
  } catch (e) {
    if (e instanceof Unread) return null;
    throw e;
  }
  return out;
}

/** A pair's key as written (a scalar's value); null for a key that is a mapping, a list, an alias or absent. */
function keyName(item: Item): string | null {
  const key = item.key;
  if (key === undefined) return null;
  if (key === null) return item.sep?.some((t) => t.type === 'map-value-ind') === true ? '' : null;
  if (key.type !== 'scalar' && key.type !== 'single-quoted-scalar' && key.type !== 'double-quoted-scalar') return null;
  return resolved(key);
}

/** A plain or quoted scalar's value; undefined for anything else (an alias, a collection). */
function scalarValue(token: Token | undefined): string | undefined {
  if (token?.type !== 'scalar' && token?.type !== 'single-quoted-scalar' && token?.type !== 'double-quoted-scalar') return undefined;
  return resolved(token);
}

/**
 * A scalar's value, or Unread where YAML rejects it (a plain scalar opening with a reserved
 * character, `` `machine_type`: `` in a Markdown list held in a heredoc): the indentation scan
 * reads such text, as it reads any that does not parse, never a thrown parse error.
 */
function resolved(token: CST.FlowScalar): string {
  return CST.resolveAsScalar(token, true, () => {
    throw new Unread();
  }).value;
}

/** Where an item's last token ends. */
function endOfItem(item: Item): number {
  if (item.value) return endOf(item.value);
  if (item.key) return endOf(item.key);
  const tokens = [...(item.sep ?? []), ...item.start].filter((t) => t.type !== 'space' && t.type !== 'newline' && t.type !== 'comment');
  const last = tokens.sort((a, b) => a.offset - b.offset).pop();
  return last ? last.offset + last.source.length : 0;
}

/**
 * The last item of a block collection that holds anything but comments: comments indented under a
 * collection after its last entry (a commented-out list item) are an item of their own to the parser,
 * with no token that ends anywhere, and would end the collection at its first line.
 */
function lastItem(items: readonly Item[]): Item | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as Item;
    if (item.key || item.value || endOfItem(item) > 0) return item;
  }
  return undefined;
}

/** Where a token's text ends (its trailing comments and line ends left out); a loop, whatever the nesting. */
function endOf(token: Token): number {
  let t: Token = token;
  for (;;) {
    if (t.type === 'flow-collection') {
      const close = t.end.find((e) => e.type === 'flow-map-end' || e.type === 'flow-seq-end');
      if (close) return close.offset + 1;
      const item = t.items[t.items.length - 1];
      if (!item) return t.start.offset + 1;
      return endOfItem(item);
    }
    if (t.type === 'block-map' || t.type === 'block-seq') {
      const item = lastItem(t.items);
      if (!item) return t.offset;
      const next = item.value ?? item.key;
      if (!next) return endOfItem(item);
      t = next;
      continue;
    }
    if (t.type === 'block-scalar') {
      const header = t.props[t.props.length - 1] as CST.SourceToken | undefined;
      return (header ? header.offset + header.source.length : t.offset) + t.source.length;
    }
    if (t.type === 'document') return t.value ? endOf(t.value) : t.offset;
    const text = (t as { source?: string }).source;
    return t.offset + (text?.length ?? 0);
  }
}
