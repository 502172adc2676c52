/**
 * The lexer of Go's text/template, as Helm uses it (delimiters `{{` `}}`): the template cut into
 * text and actions, trim markers (`{{- ` and ` -}}`, a dash with white space) applied to the text
 * beside them, comments dropped, each action cut into tokens. Offsets are kept so every piece knows
 * its line.
 */

import { GpuJustifyError } from '../../../domain/errors.js';

export type Token =
  | { t: 'ident' | 'field' | 'var' | 'str' | 'num' | 'char' | 'bool'; v: string; space: boolean }
  | { t: 'dot' | 'nil' | 'lparen' | 'rparen' | 'pipe' | 'declare' | 'assign' | 'comma'; v: string; space: boolean };

export type Piece = { k: 'text'; text: string; line: number } | { k: 'action'; tokens: Token[]; line: number };

export class TemplateSyntaxError extends GpuJustifyError {
  override readonly kind = 'template-syntax';

  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const SPACE = /[ \t\r\n]/;

function lineAt(src: string, offset: number, from: { offset: number; line: number }): number {
  let line = from.line;
  for (let i = from.offset; i < offset; i++) if (src.charCodeAt(i) === 10) line++;
  from.offset = offset;
  from.line = line;
  return line;
}

/** Cuts `src` into text and actions. Throws TemplateSyntaxError on an unclosed action or string. */
export function lex(src: string): Piece[] {
  const out: Piece[] = [];
  const cursor = { offset: 0, line: 1 };
  let pos = 0;
  let trimNext = false;
  while (pos <= src.length) {
    const open = src.indexOf('{{', pos);
    let textEnd = open < 0 ? src.length : open;
    const trimLeft = open >= 0 && src[open + 2] === '-' && SPACE.test(src[open + 3] ?? '');
    let textStart = pos;
    if (trimNext) while (textStart < textEnd && SPACE.test(src[textStart] ?? '')) textStart++;
    if (trimLeft) while (textEnd > textStart && SPACE.test(src[textEnd - 1] ?? '')) textEnd--;
    if (textEnd > textStart) out.push({ k: 'text', text: src.slice(textStart, textEnd), line: lineAt(src, textStart, cursor) });
    if (open < 0) break;
    const line = lineAt(src, open, cursor);
    let at = open + (trimLeft ? 4 : 2);
    const inside = actionTokens(src, at, line);
    at = inside.end;
    trimNext = inside.trimRight;
    if (inside.tokens.length > 0) out.push({ k: 'action', tokens: inside.tokens, line });
    else if (!inside.comment) throw new TemplateSyntaxError('missing value for command', line);
    pos = at;
  }
  return out;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /[+-]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)i?/y;

function actionTokens(src: string, start: number, line: number): { tokens: Token[]; end: number; trimRight: boolean; comment: boolean } {
  let at = start;
  const tokens: Token[] = [];
  let space = true;
  // A comment is the whole action: `{{/* … */}}`, `{{- /* … */ -}}`.
  if (src.startsWith('/*', at)) {
    const close = src.indexOf('*/', at + 2);
    if (close < 0) throw new TemplateSyntaxError('unclosed comment', line);
    const tail = /^([ \t\r\n]-)?\}\}/.exec(src.slice(close + 2, close + 6));
    if (!tail) throw new TemplateSyntaxError('comment ends before closing delimiter', line);
    return { tokens, end: close + 2 + tail[0].length, trimRight: tail[1] !== undefined, comment: true };
  }
  for (;;) {
    const ch = src[at];
    if (ch === undefined) throw new TemplateSyntaxError('unclosed action', line);
    if (SPACE.test(ch)) {
      // ` -}}` closes with a trim; a newline inside an action is allowed (Go 1.16+).
      if (src.startsWith('-}}', at + 1)) return { tokens, end: at + 4, trimRight: true, comment: false };
      at++;
      space = true;
      continue;
    }
    if (src.startsWith('}}', at)) return { tokens, end: at + 2, trimRight: false, comment: false };
    const push = (t: Token['t'], v: string, len: number) => {
      tokens.push({ t, v, space });
      at += len;
      space = false;
    };
    if (ch === '"' || ch === '`' || ch === "'") {
      const end = quoted(src, at, ch, line);
      push(ch === "'" ? 'char' : 'str', src.slice(at, end), end - at);
    } else if (ch === '(') push('lparen', ch, 1);
    else if (ch === ')') push('rparen', ch, 1);
    else if (ch === '|') push('pipe', ch, 1);
    else if (ch === ',') push('comma', ch, 1);
    else if (src.startsWith(':=', at)) push('declare', ':=', 2);
    else if (ch === '=') push('assign', '=', 1);
    else if (ch === '$') {
      IDENT.lastIndex = at + 1;
      const m = IDENT.exec(src);
      push('var', `$${m?.[0] ?? ''}`, 1 + (m?.[0].length ?? 0));
    } else if (ch === '.' && !/\d/.test(src[at + 1] ?? '')) {
      IDENT.lastIndex = at + 1;
      const m = IDENT.exec(src);
      if (m) push('field', m[0], 1 + m[0].length);
      else push('dot', '.', 1);
    } else if (/[\d.+-]/.test(ch)) {
      NUMBER.lastIndex = at;
      const m = NUMBER.exec(src);
      if (!m) throw new TemplateSyntaxError(`bad character ${JSON.stringify(ch)}`, line);
      push('num', m[0], m[0].length);
    } else {
      IDENT.lastIndex = at;
      const m = IDENT.exec(src);
      if (!m) throw new TemplateSyntaxError(`bad character ${JSON.stringify(ch)}`, line);
      const w = m[0];
      push(w === 'true' || w === 'false' ? 'bool' : w === 'nil' ? 'nil' : 'ident', w, w.length);
    }
  }
}

function quoted(src: string, at: number, q: string, line: number): number {
  for (let i = at + 1; i < src.length; i++) {
    const ch = src[i];
    if (q !== '`' && ch === '\\') i++;
    else if (ch === q) return i + 1;
    else if (ch === '\n' && q !== '`') break;
  }
  throw new TemplateSyntaxError('unterminated quoted string', line);
}

/** The value of a Go string literal (interpreted or raw). */
export function unquote(lit: string): string {
  if (lit.startsWith('`')) return lit.slice(1, -1);
  const body = lit.slice(1, -1);
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_, e: string) => {
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      a: '\x07',
      b: '\b',
      f: '\f',
      v: '\v',
      '\\': '\\',
      '"': '"',
      "'": "'",
    };
    if (e.length === 1) return simple[e] ?? e;
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return String.fromCodePoint(parseInt(e.slice(1), 16));
  });
}
