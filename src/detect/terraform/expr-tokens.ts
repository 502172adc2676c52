import { ExprSyntaxError } from './expr-ast.js';
import type { Expr } from './expr-ast.js';

/**
 * The tokens of one Terraform expression. A quoted string or a heredoc is a template: the caller's
 * template parser reads it as the token is made, so a bad template fails where it stands.
 */

const PUNCT = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '=>',
  '...',
  '[*]',
  '.*',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '?',
  ':',
  '.',
  ',',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '=',
];

export interface Tok {
  k: 'num' | 'str' | 'id' | 'p';
  v: string;
  at: number;
  /** For a string: its offset just past the closing quote. */
  end?: number;
  parts?: (string | Expr)[];
}

const NUM = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ID = /[A-Za-z_][\w-]*(?:::[A-Za-z_][\w-]*)*/y;

/** Reads `src` into tokens; `template` parses the text of each string and heredoc. */
export function tokenize(src: string, template: (raw: string) => (string | Expr)[]): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const at = (re: RegExp): string | null => {
    re.lastIndex = i;
    return re.exec(src)?.[0] ?? null;
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    // Comments survive inside multi-line expressions as hcl2json prints them.
    if (c === '#' || src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
      continue;
    }
    const num = c >= '0' && c <= '9' ? at(NUM) : null;
    if (num) {
      toks.push({ k: 'num', v: num, at: i });
      i += num.length;
      continue;
    }
    const id = at(ID);
    if (id) {
      toks.push({ k: 'id', v: id, at: i });
      i += id.length;
      continue;
    }
    if (c === '"') {
      const { raw, end } = quoted(src, i);
      toks.push({ k: 'str', v: raw, at: i, end, parts: template(raw) });
      i = end;
      continue;
    }
    if (c === '<' && src.startsWith('<<', i)) {
      const heredoc = heredocAt(src, i);
      if (heredoc) {
        toks.push({ k: 'str', v: heredoc.raw, at: i, end: heredoc.end, parts: template(heredoc.raw) });
        i = heredoc.end;
        continue;
      }
    }
    const p = PUNCT.find((x) => src.startsWith(x, i));
    if (!p) throw new ExprSyntaxError(`unexpected character "${c}"`);
    toks.push({ k: 'p', v: p, at: i });
    i += p.length;
  }
  return toks;
}

/** The offset of the `}` that closes the `{` at `open`, skipping quoted text; -1 when none does. */
export function matchingBrace(src: string, open: number): number {
  let depth = 0;
  let quote = false;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === '"') quote = false;
      continue;
    }
    if (c === '"') quote = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** A quoted string at `open`: its template text (escapes undone, `${…}` kept whole) and the offset past it. */
function quoted(src: string, open: number): { raw: string; end: number } {
  let j = open + 1;
  const out: string[] = [];
  let from = j;
  while (j < src.length && src[j] !== '"') {
    if (src[j] === '\\') {
      out.push(src.slice(from, j), unescape(src, j));
      j += src[j + 1] === 'u' ? 6 : src[j + 1] === 'U' ? 10 : 2;
      from = j;
      continue;
    }
    if ((src[j] === '$' || src[j] === '%') && src[j + 1] === '{') {
      const end = matchingBrace(src, j + 1);
      if (end < 0) throw new ExprSyntaxError('unclosed ${');
      j = end + 1;
      continue;
    }
    j++;
  }
  if (j >= src.length) throw new ExprSyntaxError('unclosed string');
  out.push(src.slice(from, j));
  return { raw: out.join(''), end: j + 1 };
}

/**
 * `<<EOT` / `<<-EOT` heredoc inside an expression, as a template; null when it is not one. As in
 * hclsyntax: the closing marker may be indented in both forms and stands alone on its line (a
 * carriage return before its newline too); `<<-` strips the least leading white space of the
 * lines that are not blank, and leaves blank lines as written (parser_template.go,
 * flushHeredocTemplateParts).
 */
function heredocAt(src: string, open: number): { raw: string; end: number } | null {
  const m = /^<<(-?)([A-Za-z_][\w-]*)[ \t]*\r?\n/.exec(src.slice(open, open + 200));
  if (!m) return null;
  const bodyStart = open + m[0].length;
  const closer = new RegExp(`^[ \\t]*${m[2] ?? ''}[ \\t\\r]*$`, 'm');
  const found = closer.exec(src.slice(bodyStart));
  if (!found) throw new ExprSyntaxError('unclosed heredoc');
  let raw = src.slice(bodyStart, bodyStart + found.index);
  if (m[1] === '-') {
    const lines = raw.split('\n');
    const blank = (l: string, i: number): boolean => l.trim() === '' && i < lines.length - 1;
    const indent = Math.min(...lines.filter((l, i) => !blank(l, i) && l !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0));
    raw = lines.map((l, i) => (blank(l, i) ? l : l.slice(Number.isFinite(indent) ? indent : 0))).join('\n');
  }
  return { raw, end: bodyStart + found.index + found[0].length };
}

function unescape(src: string, at: number): string {
  const c = src[at + 1] ?? '';
  if (c === 'u' || c === 'U') {
    const hex = src.slice(at + 2, at + (c === 'u' ? 6 : 10));
    const code = Number.parseInt(hex, 16);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c;
}
