import { lex, TemplateSyntaxError, unquote } from './lex.js';
import type { Token } from './lex.js';

/**
 * The parse tree of text/template (text/template/parse): lists of text, actions and control
 * structures; pipelines of commands; operands that are fields, variables, literals, functions or
 * parenthesised pipelines with a field chain.
 */

export type Operand =
  | { k: 'field'; path: string[] }
  | { k: 'var'; name: string; path: string[] }
  | { k: 'dot' }
  | { k: 'nil' }
  | { k: 'lit'; v: unknown }
  | { k: 'fn'; name: string }
  | { k: 'pipe'; pipe: Pipe; path: string[] };

export interface Pipe {
  decl: string[];
  /** `=` rather than `:=`: assigns variables declared before. */
  assign: boolean;
  cmds: Operand[][];
  line: number;
}

export type Node =
  | { k: 'text'; text: string; line: number }
  | { k: 'action'; pipe: Pipe; line: number }
  | { k: 'if' | 'with' | 'range'; pipe: Pipe; list: Node[]; else: Node[] | null; line: number }
  | { k: 'template'; name: string; pipe: Pipe | null; line: number }
  | { k: 'break' | 'continue'; line: number };

export interface Parsed {
  root: Node[];
  defines: Map<string, Node[]>;
}

/** Go's integer literals are `int`, others `float64`: bigint and number here. */
function numberLit(text: string, line: number): bigint | number {
  const s = text.replace(/_/g, '');
  if (s.endsWith('i')) throw new TemplateSyntaxError(`complex constant ${text}`, line);
  if (/^[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|\d+)$/.test(s)) {
    const neg = s.startsWith('-');
    const body = s.replace(/^[+-]/, '');
    const octal = /^0\d/.test(body) ? `0o${body.slice(1)}` : body;
    // `09` is no number in Go: a leading 0 is octal.
    if (/^0o.*[89]/.test(octal)) throw new TemplateSyntaxError(`bad number syntax: ${text}`, line);
    const v = BigInt(octal);
    return neg ? -v : v;
  }
  const f = Number(s);
  if (Number.isNaN(f)) throw new TemplateSyntaxError(`bad number syntax: ${text}`, line);
  return f;
}

function charLit(text: string): bigint {
  const s = unquote(`"${text.slice(1, -1).replace(/"/g, '\\"')}"`);
  return BigInt(s.codePointAt(0) ?? 0);
}

class Tokens {
  i = 0;
  constructor(
    readonly list: Token[],
    readonly line: number,
  ) {}
  peek(): Token | undefined {
    return this.list[this.i];
  }
  next(): Token {
    const t = this.list[this.i++];
    if (t === undefined) throw new TemplateSyntaxError('unexpected end of action', this.line);
    return t;
  }
  fail(what: string): never {
    throw new TemplateSyntaxError(what, this.line);
  }
}

function fieldChain(ts: Tokens): string[] {
  const path: string[] = [];
  for (let t = ts.peek(); t?.t === 'field' && !t.space; t = ts.peek()) path.push(ts.next().v);
  return path;
}

function operand(ts: Tokens): Operand | null {
  const t = ts.peek();
  if (t === undefined) return null;
  switch (t.t) {
    case 'field': {
      ts.next();
      return { k: 'field', path: [t.v, ...fieldChain(ts)] };
    }
    case 'var':
      ts.next();
      return { k: 'var', name: t.v, path: fieldChain(ts) };
    case 'dot':
      ts.next();
      if (ts.peek()?.t === 'field' && !ts.peek()?.space) ts.fail('unexpected . after term');
      return { k: 'dot' };
    case 'nil':
      ts.next();
      return { k: 'nil' };
    case 'bool':
      ts.next();
      return { k: 'lit', v: t.v === 'true' };
    case 'str':
      ts.next();
      return { k: 'lit', v: unquote(t.v) };
    case 'char':
      ts.next();
      return { k: 'lit', v: charLit(t.v) };
    case 'num':
      ts.next();
      return { k: 'lit', v: numberLit(t.v, ts.line) };
    case 'ident':
      ts.next();
      return { k: 'fn', name: t.v };
    case 'lparen': {
      ts.next();
      const pipe = pipeline(ts, 'rparen');
      if (ts.next().t !== 'rparen') ts.fail('unclosed left paren');
      return { k: 'pipe', pipe, path: fieldChain(ts) };
    }
    default:
      return null;
  }
}

function pipeline(ts: Tokens, end: 'rparen' | null, allowDecl = true): Pipe {
  const pipe: Pipe = { decl: [], assign: false, cmds: [], line: ts.line };
  // `$x :=`, `$x =`, `$i, $v :=`.
  const save = ts.i;
  if (allowDecl && ts.peek()?.t === 'var') {
    const names = [ts.next().v];
    if (ts.peek()?.t === 'comma') {
      ts.next();
      const second = ts.next();
      if (second.t !== 'var') ts.fail('expected a variable after the comma');
      names.push(second.v);
    }
    const op = ts.peek()?.t;
    if (op === 'declare' || op === 'assign') {
      ts.next();
      pipe.decl = names;
      pipe.assign = op === 'assign';
    } else ts.i = save;
  }
  let cmd: Operand[] = [];
  for (;;) {
    const t = ts.peek();
    if (t === undefined || (end !== null && t.t === end)) break;
    if (t.t === 'pipe') {
      ts.next();
      if (cmd.length === 0) ts.fail('missing command before |');
      pipe.cmds.push(cmd);
      cmd = [];
      continue;
    }
    const o = operand(ts);
    if (o === null) ts.fail(`unexpected ${JSON.stringify(t.v)} in command`);
    cmd.push(o);
  }
  if (cmd.length === 0) ts.fail(pipe.cmds.length === 0 ? 'missing value for command' : 'missing command after |');
  pipe.cmds.push(cmd);
  return pipe;
}

type Frame = { node: Node & { k: 'if' | 'with' | 'range' }; list: Node[]; elseChain: boolean };

/** Parses a template and its `define`s. Throws TemplateSyntaxError with the line where Go would. */
export function parseTemplate(src: string): Parsed {
  const defines = new Map<string, Node[]>();
  const root: Node[] = [];
  let target = root;
  const stack: { frames: Frame[]; define: { name: string; outer: Node[] } | null }[] = [{ frames: [], define: null }];
  const top = () => stack[stack.length - 1] as (typeof stack)[number];
  for (const piece of lex(src)) {
    if (piece.k === 'text') {
      target.push(piece);
      continue;
    }
    const ts: Tokens = new Tokens(piece.tokens, piece.line);
    const first = ts.peek();
    const word = first?.t === 'ident' ? first.v : '';
    const open = (k: 'if' | 'with' | 'range', elseChain: boolean) => {
      ts.next();
      const node = { k, pipe: pipeline(ts, null), list: [] as Node[], else: null, line: piece.line };
      target.push(node);
      top().frames.push({ node, list: target, elseChain });
      target = node.list;
    };
    if (word === 'if' || word === 'with' || word === 'range') open(word, false);
    else if (word === 'else') {
      ts.next();
      const frame = top().frames[top().frames.length - 1];
      if (frame === undefined || frame.node.else !== null) ts.fail('unexpected {{else}}');
      frame.node.else = [];
      target = frame.node.else;
      const chained = ts.peek();
      if (chained?.t === 'ident' && (chained.v === 'if' || chained.v === 'with') && frame.node.k !== 'range') {
        // `{{else if x}}` is `{{else}}{{if x}}…{{end}}{{end}}` sharing one `end`.
        open(chained.v, true);
      } else if (chained !== undefined) ts.fail('unexpected token after else');
    } else if (word === 'end') {
      ts.next();
      if (ts.peek() !== undefined) ts.fail('unexpected token in end');
      let frame: Frame | undefined = top().frames.pop();
      if (frame === undefined) {
        const d = top().define;
        if (d === null) ts.fail('unexpected {{end}}');
        stack.pop();
        target = d.outer;
        continue;
      }
      // An `else if` chain shares the `end` of the `if` it started from.
      while (frame?.elseChain === true) frame = top().frames.pop();
      if (frame === undefined) ts.fail('unexpected {{end}}');
      target = frame.list;
    } else if (word === 'define' || word === 'block') {
      ts.next();
      const name = ts.next();
      if (name.t !== 'str') ts.fail(`${word} needs a quoted name`);
      const body: Node[] = [];
      if (word === 'block') {
        target.push({
          k: 'template',
          name: unquote(name.v),
          pipe: ts.peek() === undefined ? null : pipeline(ts, null, false),
          line: piece.line,
        });
      } else if (ts.peek() !== undefined) ts.fail('unexpected token in define');
      defines.set(unquote(name.v), body);
      stack.push({ frames: [], define: { name: unquote(name.v), outer: target } });
      target = body;
    } else if (word === 'template') {
      ts.next();
      const name = ts.next();
      if (name.t !== 'str') ts.fail('template needs a quoted name');
      target.push({
        k: 'template',
        name: unquote(name.v),
        pipe: ts.peek() === undefined ? null : pipeline(ts, null, false),
        line: piece.line,
      });
    } else if (word === 'break' || word === 'continue') {
      ts.next();
      if (!top().frames.some((f) => f.node.k === 'range')) ts.fail(`{{${word}}} outside {{range}}`);
      target.push({ k: word, line: piece.line });
    } else target.push({ k: 'action', pipe: pipeline(ts, null), line: piece.line });
    if (ts.peek() !== undefined && word !== '') ts.fail(`unexpected ${JSON.stringify(ts.peek()?.v)}`);
  }
  if (top().frames.length > 0 || stack.length > 1)
    throw new TemplateSyntaxError('unexpected EOF: a block is not closed', src.split('\n').length);
  return { root, defines };
}
