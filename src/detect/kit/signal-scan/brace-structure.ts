import { blank, child, lineAt, noteType, scanPlain } from './structure.js';
import type { PathNode, Structure } from './structure.js';
import type { Syntax } from './syntax.js';
import { scanYamlText } from './parsed-yaml-structure.js';

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
export function scanBraces(text: string, syntax: Syntax, out: Structure, masked: string[], starts: readonly number[]): void {
  const file = out.containers.push({ start: 1, end: starts.length, parent: -1, key: null, hasKind: false, document: true }) - 1;
  const stack: BraceLevel[] = [{ close: '', node: null, container: file }];
  const cur = () => stack[stack.length - 1] as BraceLevel;
  /** Names and strings of the statement so far at this level (an HCL block header). */
  let header: { text: string; offset: number; quoted: boolean }[] = [];
  let pending: { key: string; node: PathNode } | null = null;
  /** A `kind` or `apiVersion` key just set, whose value (a string first thing after it) types its container. */
  let typed: { key: string; container: number } | null = null;
  const point = (offset: number) => out.points.push({ offset, path: pending?.node ?? cur().node, container: cur().container });
  const addKey = (key: string, offset: number) => {
    if (syntax.keys) out.keys.push({ offset, key });
  };
  const endValue = (offset: number) => {
    typed = null;
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
      if (typed !== null && header.length === 0) noteType(out.containers[typed.container], typed.key, text.slice(i + quote.length, j));
      typed = null;
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
            scanYamlText(text, bodyStart, bodyEnd, node, cur().container, { ...syntax, kind: 'yaml', hash: true }, out, masked, starts);
          else scanPlain(text, bodyStart, bodyEnd, { ...syntax, hash: false }, out, masked, starts, node, cur().container);
          out.points.push({ offset: bodyEnd, path: pending?.node ?? cur().node, container: cur().container });
        }
        i = found ? bodyEnd + found[0].length : n;
        continue;
      }
    }
    if (c === '{' || c === '[' || c === '(') {
      typed = null;
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
        if (key === 'kind') noteType(out.containers[cur().container], key, '');
        if (key === 'kind' || key === 'apiVersion') typed = { key, container: cur().container };
        out.points.push({ offset: name.offset, path: node, container: cur().container });
      }
      header = [];
      i++;
      continue;
    }
    if (IDENT.test(c)) {
      typed = null;
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
