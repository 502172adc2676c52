import type { Syntax } from './syntax.js';

/**
 * The shape of a text as far as the signal scan needs it, read in one pass without parsing the
 * format (so templates, broken files and unknown languages are read alike):
 * - `masked`: the text with comments blanked (same offsets), so a signal seen in the text but not
 *   in `masked` is in a comment;
 * - `keys`: where each key is written (`gpu_count =`, `acceleratorType:`), for keys that name GPUs;
 * - `points`: the key path at each offset (`spec.template.spec.containers.[].resources.limits`),
 *   for the contexts that show a GPU name to be no capacity (a label, a container's request);
 * - `containers`: the objects the text nests (YAML documents, mappings and items, braced blocks),
 *   with their lines, for the object a parser's declaration stands in.
 */
export interface Structure {
  masked: string;
  keys: KeyAt[];
  points: PathPoint[];
  containers: Container[];
}

/** One element of a key path; `[]` is an item of a list. Shared by every path below it. */
export interface PathNode {
  key: string;
  parent: PathNode | null;
}

interface KeyAt {
  offset: number;
  key: string;
}

/** From `offset` on (to the next point), the path is `path` in container `container`. */
export interface PathPoint {
  offset: number;
  path: PathNode | null;
  container: number;
}

export interface Container {
  /** First and last line (1-based, inclusive). */
  start: number;
  end: number;
  /** Index of the enclosing container; -1 for a document or the file. */
  parent: number;
  /** The key it is the value of (lower case), when it is one. */
  key: string | null;
  /** It holds a `kind` key of its own: a Kubernetes object. */
  hasKind: boolean;
  /** A YAML document, or the whole of a file of another kind. */
  document?: true;
}

const child = (parent: PathNode | null, key: string): PathNode => ({ key, parent });

/** Line starts, for offset → line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

export function scanStructure(text: string, syntax: Syntax): Structure {
  const out: Structure = { masked: '', keys: [], points: [], containers: [] };
  const masked = text.split('');
  const starts = lineStarts(text);
  if (syntax.kind === 'yaml') {
    scanYaml(text, 0, text.length, null, -1, syntax, out, masked, starts, true);
  } else if (syntax.kind === 'brace') {
    scanBraces(text, syntax, out, masked, starts);
  } else {
    scanPlain(text, 0, text.length, syntax, out, masked, starts, null, -1);
  }
  out.masked = masked.join('');
  out.points.sort((a, b) => a.offset - b.offset);
  return out;
}

function blank(masked: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (masked[i] !== '\n') masked[i] = ' ';
}

/** `key:` at the start of a YAML line's content (after any `- `): the key and where its value starts. */
const YAML_KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#{[\]},&*!|>%@`-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=[ \t]|$)/;
const BLOCK_SCALAR = /^[|>][-+0-9]*[ \t]*$/;
/**
 * Keys in text that is not YAML structure (block scalars, heredocs, TOML, files of unknown kind):
 * `key:`, `key =`, and TOML or INI section headers (`[nodepool.gpu]`).
 */
const PLAIN_KEY = /(?:^|[\s{,[(])(["']?)([A-Za-z_][A-Za-z0-9_./-]*)\1[ \t]*(?::(?![:=])|=(?![=>~]))|^[ \t]*\[\[?()([^\]\n]+)\]/gm;

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
function scanYaml(
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
      if (key === 'kind') {
        const c = out.containers[parent.container];
        if (c) c.hasKind = true;
      }
      const value = rest.slice(m[0].length).trim();
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

function plainKeys(line: string, offset: number, out: Structure): void {
  PLAIN_KEY.lastIndex = 0;
  for (let m = PLAIN_KEY.exec(line); m; m = PLAIN_KEY.exec(line)) {
    const key = m[2] ?? m[4] ?? '';
    out.keys.push({ offset: offset + m.index + m[0].indexOf(key), key });
  }
}

/** Text of no known structure: comments are whole lines; keys are `key:` or `key =`. */
function scanPlain(
  text: string,
  from: number,
  to: number,
  syntax: Syntax,
  out: Structure,
  masked: string[],
  starts: readonly number[],
  path: PathNode | null,
  container: number,
): void {
  const whole =
    out.containers.push({
      start: lineAt(starts, from),
      end: lineAt(starts, Math.max(from, to - 1)),
      parent: container,
      key: null,
      hasKind: false,
      document: true,
    }) - 1;
  out.points.push({ offset: from, path, container: whole });
  let offset = from;
  while (offset < to) {
    let end = text.indexOf('\n', offset);
    if (end < 0 || end > to) end = to;
    const line = text.slice(offset, end);
    const trimmed = line.trimStart();
    if ((syntax.hash && trimmed.startsWith('#')) || trimmed.startsWith('//') || (trimmed.startsWith(';') && !trimmed.startsWith(';;'))) {
      blank(masked, offset, end);
    } else if (syntax.keys) {
      plainKeys(line, offset, out);
    }
    offset = end + 1;
  }
}

interface BraceLevel {
  close: string;
  node: PathNode | null;
  container: number;
}

const IDENT = /[A-Za-z0-9_$./-]/;
const CONTROL = /^(?:if|elif|else|while|for|def|class|with|try|except|finally|lambda|case|default|return|match)$/;
const HEREDOC = /^<<[-~]?[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_]*)\1/;
// YAML held in a heredoc (a manifest for `kubectl apply`, a `yamlencode`-free HCL string).
const LOOKS_YAML = /^[ \t]*(?:- )?["']?[A-Za-z_][\w./-]*["']?:(?:[ \t]|$)/m;

/**
 * Braces and brackets (HCL, JSON, Jsonnet, Bicep, code): a key is the name or string before `:`
 * or `=`, or an HCL block's type and labels before `{`. Strings, comments and heredocs are
 * skipped; a heredoc holding YAML is read as YAML under its key.
 */
function scanBraces(text: string, syntax: Syntax, out: Structure, masked: string[], starts: readonly number[]): void {
  const file = out.containers.push({ start: 1, end: starts.length, parent: -1, key: null, hasKind: false, document: true }) - 1;
  const stack: BraceLevel[] = [{ close: '', node: null, container: file }];
  const cur = () => stack[stack.length - 1] as BraceLevel;
  /** Names and strings of the statement so far at this level (an HCL block header). */
  let header: { text: string; offset: number; quoted: boolean }[] = [];
  let pending: { key: string; node: PathNode } | null = null;
  const point = (offset: number) => out.points.push({ offset, path: pending?.node ?? cur().node, container: cur().container });
  const addKey = (key: string, offset: number) => {
    if (syntax.keys) out.keys.push({ offset, key });
  };
  const endValue = (offset: number) => {
    if (pending) {
      pending = null;
      point(offset);
    }
    header = [];
  };
  point(0);
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    const next = text[i + 1] ?? '';
    if (c === '\n') {
      // A newline ends an HCL or YAML-like value, not a JSON or code one inside brackets.
      if (cur().close !== ']' && cur().close !== ')') endValue(i);
      i++;
      continue;
    }
    if ((syntax.hash && c === '#') || (syntax.slash && c === '/' && next === '/')) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      blank(masked, i, stop);
      i = stop;
      continue;
    }
    if (syntax.slash && c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      blank(masked, i, stop);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < n) {
        if (text[j] === '\\') j += 2;
        else if (text.startsWith(quote, j)) break;
        else if (!triple && c !== '`' && text[j] === '\n') break;
        else j++;
      }
      const stop = Math.min(n, j + quote.length);
      header.push({ text: text.slice(i + quote.length, j), offset: i + quote.length, quoted: true });
      i = stop;
      continue;
    }
    if (c === '<' && next === '<') {
      const m = HEREDOC.exec(text.slice(i, i + 80));
      if (m) {
        const tag = m[2] ?? '';
        const bodyStart = text.indexOf('\n', i) + 1;
        const endRe = new RegExp(`^[ \\t]*${tag}[ \\t]*$`, 'm');
        endRe.lastIndex = 0;
        const rest = bodyStart > 0 ? text.slice(bodyStart) : '';
        const found = endRe.exec(rest);
        const bodyEnd = found ? bodyStart + found.index : n;
        if (bodyStart > 0 && bodyEnd > bodyStart) {
          const node = pending?.node ?? cur().node;
          const body = text.slice(bodyStart, bodyEnd);
          if (LOOKS_YAML.test(body))
            scanYaml(text, bodyStart, bodyEnd, node, cur().container, { ...syntax, kind: 'yaml', hash: true }, out, masked, starts, true);
          else scanPlain(text, bodyStart, bodyEnd, { ...syntax, hash: false }, out, masked, starts, node, cur().container);
          out.points.push({ offset: bodyEnd, path: pending?.node ?? cur().node, container: cur().container });
        }
        i = found ? bodyEnd + found[0].length : n;
        continue;
      }
    }
    if (c === '{' || c === '[' || c === '(') {
      let node: PathNode | null = cur().node;
      let key: string | null = null;
      if (pending) {
        node = c === '[' ? child(pending.node, '[]') : pending.node;
        key = pending.key;
      } else if (c === '{' && header.length > 0) {
        // An HCL block: `resource "aws_instance" "gpu" {`, `spec {`: its type and labels.
        for (const h of header) {
          node = child(node, h.text.toLowerCase());
          addKey(h.text, h.offset);
        }
        key = (header[0]?.text ?? '').toLowerCase();
      } else if (c !== '(') {
        node = child(node, '[]');
      }
      const container =
        out.containers.push({ start: lineAt(starts, i), end: lineAt(starts, i), parent: cur().container, key, hasKind: false }) - 1;
      stack.push({ close: c === '{' ? '}' : c === '[' ? ']' : ')', node, container });
      pending = null;
      header = [];
      point(i);
      i++;
      continue;
    }
    if (c === '}' || c === ']' || c === ')') {
      const at = stack.map((s) => s.close).lastIndexOf(c);
      if (at > 0) {
        while (stack.length > at) {
          const level = stack.pop() as BraceLevel;
          const box = out.containers[level.container];
          if (box) box.end = lineAt(starts, i);
        }
      }
      pending = null;
      header = [];
      point(i + 1);
      i++;
      continue;
    }
    if (c === ',' || c === ';') {
      endValue(i);
      i++;
      continue;
    }
    if (
      (c === ':' && next !== ':' && next !== '=') ||
      (c === '=' && next !== '=' && next !== '>' && text[i - 1] !== '=' && !/[!<>+\-*/%&|^~]/.test(text[i - 1] ?? ''))
    ) {
      const name = header[header.length - 1];
      // `if use_gpu:` and `case gpu:` test a name; they set nothing.
      const control = c === ':' && CONTROL.test(header[0]?.text ?? '');
      if (name && !pending && !control) {
        const key = name.text;
        const node = child(cur().node, key.toLowerCase());
        pending = { key: key.toLowerCase(), node };
        addKey(key, name.offset);
        if (key === 'kind') {
          const box = out.containers[cur().container];
          if (box) box.hasKind = true;
        }
        out.points.push({ offset: name.offset, path: node, container: cur().container });
      }
      header = [];
      i++;
      continue;
    }
    if (IDENT.test(c)) {
      let j = i + 1;
      while (j < n && IDENT.test(text[j] as string)) j++;
      header.push({ text: text.slice(i, j), offset: i, quoted: false });
      i = j;
      continue;
    }
    i++;
  }
  while (stack.length > 1) {
    const level = stack.pop() as BraceLevel;
    const box = out.containers[level.container];
    if (box) box.end = starts.length;
  }
}
