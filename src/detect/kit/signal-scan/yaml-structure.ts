import { blank, child, lineAt, noteType, plainKeys } from './structure.js';
import type { PathNode, Structure } from './structure.js';
import type { Syntax } from './syntax.js';

/** `key:` at the start of a YAML line's content (after any `- `): the key and where its value starts. */
const YAML_KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#{[\]},&*!|>%@`-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=[ \t]|$)/;
const BLOCK_SCALAR = /^[|>][-+0-9]*[ \t]*$/;

function unquote(key: string): string {
  const k = key.trim();
  if ((k.startsWith('"') && k.endsWith('"')) || (k.startsWith("'") && k.endsWith("'"))) return k.slice(1, -1);
  return k;
}

/** Where a `#` comment starts on a YAML line (outside quotes, at the start or after a blank), or -1. */
function yamlComment(line: string): number {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s:[{,-]/.test(line[i - 1] ?? ''))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return i;
  }
  return -1;
}

interface YamlLevel {
  indent: number;
  node: PathNode | null;
  container: number;
  item: boolean;
}

/**
 * YAML by indentation: each line's path is the keys of the lines above it with less indentation.
 * Works on Helm templates and other YAML that does not parse. `root`/`rootContainer` place a
 * YAML text held in another (a heredoc) under its path.
 */
export function scanYaml(
  text: string,
  from: number,
  to: number,
  root: PathNode | null,
  rootContainer: number,
  syntax: Syntax,
  out: Structure,
  masked: string[],
  starts: readonly number[],
  documents: boolean,
): void {
  const open = (start: number, parent: number, key: string | null, document = false): number => {
    out.containers.push({ start, end: start, parent, key, hasKind: false, ...(document ? { document: true as const } : {}) });
    return out.containers.length - 1;
  };
  let doc = open(lineAt(starts, from), rootContainer, null, true);
  let stack: YamlLevel[] = [];
  let block: { indent: number; node: PathNode | null; container: number } | null = null;
  let last = lineAt(starts, from);
  const close = (level: YamlLevel) => {
    const c = out.containers[level.container];
    if (c) c.end = Math.max(c.start, last);
  };
  const top = (): { node: PathNode | null; container: number } => stack[stack.length - 1] ?? { node: root, container: doc };
  let offset = from;
  while (offset < to) {
    let end = text.indexOf('\n', offset);
    if (end < 0 || end > to) end = to;
    const line = text.slice(offset, end);
    const lineNo = lineAt(starts, offset);
    const indent = line.length - line.trimStart().length;
    if (block) {
      if (line.trim() === '' || indent > block.indent) {
        out.points.push({ offset, path: block.node, container: block.container });
        if (syntax.keys) plainKeys(line, offset, out);
        if (line.trim() !== '') last = lineNo;
        offset = end + 1;
        continue;
      }
      block = null;
    }
    const hash = yamlComment(line);
    if (hash >= 0) blank(masked, offset + hash, end);
    const code = hash >= 0 ? line.slice(0, hash) : line;
    if (code.trim() === '') {
      offset = end + 1;
      continue;
    }
    if (documents && /^(?:---|\.\.\.)(?:\s|$)/.test(code)) {
      for (const level of stack) close(level);
      const d = out.containers[doc];
      if (d) d.end = Math.max(d.start, last);
      stack = [];
      doc = open(lineNo + 1, rootContainer, null, true);
      out.points.push({ offset, path: root, container: doc });
      offset = end + 1;
      continue;
    }
    let pos = indent;
    let rest = code.slice(indent);
    // `- - key: v`: each dash opens an item.
    while (rest.startsWith('-') && (rest.length === 1 || rest[1] === ' ' || rest[1] === '\t')) {
      while (stack.length > 0) {
        const t = stack[stack.length - 1] as YamlLevel;
        if (t.indent > pos || (t.indent === pos && t.item)) close(stack.pop() as YamlLevel);
        else break;
      }
      const parent = top();
      stack.push({ indent: pos, node: child(parent.node, '[]'), container: open(lineNo, parent.container, null), item: true });
      const skip = 1 + (rest.slice(1).length - rest.slice(1).trimStart().length);
      pos += skip;
      rest = rest.slice(skip);
    }
    const m = YAML_KEY.exec(rest);
    if (m) {
      const key = unquote(m[1] ?? '');
      while (stack.length > 0 && (stack[stack.length - 1] as YamlLevel).indent >= pos) close(stack.pop() as YamlLevel);
      const parent = top();
      const node = child(parent.node, key.toLowerCase());
      out.keys.push({ offset: offset + pos + (m[1] ?? '').indexOf(key), key });
      const value = rest.slice(m[0].length).trim();
      if (key === 'kind' || key === 'apiVersion') noteType(out.containers[parent.container], key, unquote(value));
      out.points.push({ offset, path: node, container: parent.container });
      if (value === '') {
        stack.push({ indent: pos, node, container: open(lineNo, parent.container, key.toLowerCase()), item: false });
      } else if (BLOCK_SCALAR.test(value)) {
        block = { indent: pos, node, container: parent.container };
      }
    } else {
      const t = top();
      out.points.push({ offset, path: t.node, container: t.container });
    }
    last = lineNo;
    offset = end + 1;
  }
  for (const level of stack) close(level);
  const d = out.containers[doc];
  if (d) d.end = Math.max(d.start, last);
}
