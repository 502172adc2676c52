/**
 * A parser for the part of the Terraform expression language that static node-pool sizes are
 * written in: literals, traversals, calls, operators, conditionals, tuples, objects and `for`
 * expressions. Splats and grouped (`...`) `for` objects parse to an opaque node: they are
 * reported, not evaluated.
 */
export type Expr =
  | { t: 'lit'; value: null | boolean | number | string }
  | { t: 'tpl'; parts: (string | Expr)[] }
  | { t: 'ref'; root: string; steps: Step[]; text: string }
  /** `sources`: each argument's source text; `spread`: the last argument is expanded (`f(list...)`). */
  | { t: 'call'; name: string; args: Expr[]; text: string; sources: string[]; spread: boolean }
  | { t: 'un'; op: string; arg: Expr }
  | { t: 'bin'; op: string; left: Expr; right: Expr }
  | { t: 'cond'; test: Expr; then: Expr; else: Expr }
  | { t: 'tuple'; items: Expr[] }
  /** `sources`: each value's source text, so a caller can read one field without the others. */
  | { t: 'object'; entries: [Expr, Expr][]; sources: string[] }
  | { t: 'index'; target: Expr; steps: Step[] }
  /** `[for k, v in coll : body if cond]`, or `{for k, v in coll : key => body if cond}` when `key` is set. */
  | { t: 'for'; keyVar: string | null; valueVar: string; coll: Expr; key: Expr | null; body: Expr; cond: Expr | null }
  | { t: 'opaque'; what: string; text: string };

export type Step = { attr: string } | { index: Expr };

export class ExprSyntaxError extends Error {
  readonly kind = 'expr-syntax';
}

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

interface Tok {
  k: 'num' | 'str' | 'id' | 'p';
  v: string;
  at: number;
  parts?: (string | Expr)[];
}

/** Parses one expression (the text inside `${…}` as hcl2json prints it). */
export function parseExpr(src: string): Expr {
  const p = new Parser(src);
  const e = p.expr();
  if (!p.done()) throw new ExprSyntaxError(`unexpected "${p.peek()?.v ?? ''}"`);
  return e;
}

/** Splits a template string into literal text and `${…}` parts; `$${` is an escaped `${`. */
export function parseTemplate(src: string): (string | Expr)[] {
  const parts: (string | Expr)[] = [];
  let lit = '';
  let i = 0;
  while (i < src.length) {
    if (src.startsWith('$${', i) || src.startsWith('%%{', i)) {
      lit += src.slice(i + 1, i + 3);
      i += 3;
      continue;
    }
    if (src.startsWith('%{', i)) throw new ExprSyntaxError('template directive');
    if (!src.startsWith('${', i)) {
      lit += src[i];
      i++;
      continue;
    }
    const end = matchingBrace(src, i + 1);
    if (end < 0) throw new ExprSyntaxError('unclosed ${');
    if (lit) parts.push(lit);
    lit = '';
    parts.push(parseExpr(src.slice(i + 2, end).replace(/^~|~$/g, '')));
    i = end + 1;
  }
  if (lit || parts.length === 0) parts.push(lit);
  return parts;
}

function matchingBrace(src: string, open: number): number {
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

class Parser {
  private toks: Tok[];
  private i = 0;
  constructor(private readonly src: string) {
    this.toks = tokenize(src);
  }

  done(): boolean {
    return this.i >= this.toks.length;
  }
  peek(): Tok | undefined {
    return this.toks[this.i];
  }
  private next(): Tok {
    const t = this.toks[this.i++];
    if (!t) throw new ExprSyntaxError('unexpected end of expression');
    return t;
  }
  private isP(v: string): boolean {
    const t = this.peek();
    return t?.k === 'p' && t.v === v;
  }
  private eat(v: string): void {
    const t = this.next();
    if (t.k !== 'p' || t.v !== v) throw new ExprSyntaxError(`expected "${v}", found "${t.v}"`);
  }
  private textFrom(start: number): string {
    const from = this.toks[start]?.at ?? 0;
    const last = this.toks[this.i - 1];
    return this.src.slice(from, last ? last.at + rawLength(this.src, last) : from).trim();
  }

  expr(): Expr {
    const test = this.binary(0);
    if (!this.isP('?')) return test;
    this.next();
    const then = this.expr();
    this.eat(':');
    return { t: 'cond', test, then, else: this.expr() };
  }

  private static LEVELS = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

  private binary(level: number): Expr {
    const ops = Parser.LEVELS[level];
    if (!ops) return this.unary();
    let left = this.binary(level + 1);
    while (this.peek()?.k === 'p' && ops.includes(this.peek()?.v ?? '')) {
      const op = this.next().v;
      left = { t: 'bin', op, left, right: this.binary(level + 1) };
    }
    return left;
  }

  private unary(): Expr {
    if (this.isP('!') || this.isP('-')) {
      const op = this.next().v;
      return { t: 'un', op, arg: this.unary() };
    }
    return this.postfix();
  }

  private postfix(): Expr {
    const start = this.i;
    const base = this.primary();
    const steps: Step[] = [];
    for (;;) {
      if (this.isP('[*]') || this.isP('.*')) return this.opaqueFrom(start, 'a splat expression');
      if (this.isP('.')) {
        this.next();
        const t = this.next();
        if (t.k !== 'id' && t.k !== 'num') throw new ExprSyntaxError('expected an attribute name');
        steps.push(t.k === 'num' ? { index: { t: 'lit', value: Number(t.v) } } : { attr: t.v });
      } else if (this.isP('[')) {
        this.next();
        steps.push({ index: this.expr() });
        this.eat(']');
      } else break;
    }
    if (base.t === 'ref') return { ...base, steps: [...base.steps, ...steps], text: this.textFrom(start) };
    return steps.length ? { t: 'index', target: base, steps } : base;
  }

  private opaqueFrom(start: number, what: string): Expr {
    // Skip to the end of the enclosing expression: nothing after a splat is evaluated.
    let depth = 0;
    while (!this.done()) {
      const t = this.peek() as Tok;
      if (t.k === 'p' && ['(', '[', '{'].includes(t.v)) depth++;
      if (t.k === 'p' && [')', ']', '}'].includes(t.v)) {
        if (depth === 0) break;
        depth--;
      }
      if (depth === 0 && t.k === 'p' && [',', '?', ':'].includes(t.v)) break;
      this.next();
    }
    return { t: 'opaque', what, text: this.textFrom(start) };
  }

  private primary(): Expr {
    const start = this.i;
    const t = this.next();
    if (t.k === 'num') return { t: 'lit', value: Number(t.v) };
    if (t.k === 'str') return { t: 'tpl', parts: t.parts ?? [''] };
    if (t.k === 'id') {
      if (t.v === 'true' || t.v === 'false') return { t: 'lit', value: t.v === 'true' };
      if (t.v === 'null') return { t: 'lit', value: null };
      if (this.isP('(')) {
        this.next();
        const args: Expr[] = [];
        const sources: string[] = [];
        let spread = false;
        while (!this.isP(')')) {
          const argStart = this.i;
          args.push(this.expr());
          sources.push(this.textFrom(argStart));
          if (this.isP('...')) {
            this.next();
            spread = true;
          }
          if (!this.isP(')')) this.eat(',');
        }
        this.eat(')');
        return { t: 'call', name: t.v, args, text: this.textFrom(start), sources, spread };
      }
      return { t: 'ref', root: t.v, steps: [], text: t.v };
    }
    if (t.v === '(') {
      const e = this.expr();
      this.eat(')');
      return e;
    }
    if (t.v === '[') {
      if (this.peek()?.v === 'for') return this.forExpr(']', start);
      const items: Expr[] = [];
      while (!this.isP(']')) {
        items.push(this.expr());
        if (!this.isP(']')) this.eat(',');
      }
      this.eat(']');
      return { t: 'tuple', items };
    }
    if (t.v === '{') {
      if (this.peek()?.v === 'for') return this.forExpr('}', start);
      const entries: [Expr, Expr][] = [];
      const sources: string[] = [];
      while (!this.isP('}')) {
        const keyTok = this.peek();
        const key: Expr =
          keyTok?.k === 'id' && ['=', ':'].includes(this.toks[this.i + 1]?.v ?? '')
            ? (this.next(), { t: 'lit', value: keyTok.v })
            : this.expr();
        if (this.isP('=')) this.next();
        else this.eat(':');
        const valueStart = this.i;
        entries.push([key, this.expr()]);
        sources.push(this.textFrom(valueStart));
        if (this.isP(',')) this.next();
      }
      this.eat('}');
      return { t: 'object', entries, sources };
    }
    throw new ExprSyntaxError(`unexpected "${t.v}"`);
  }

  /** After `[` or `{`, at `for`: the rest of the for expression, up to `close`. */
  private forExpr(close: ']' | '}', start: number): Expr {
    this.next();
    const first = this.next();
    if (first.k !== 'id') throw new ExprSyntaxError(`unexpected "${first.v}" after for`);
    let keyVar: string | null = null;
    let valueVar = first.v;
    if (this.isP(',')) {
      this.next();
      keyVar = first.v;
      valueVar = this.next().v;
    }
    if (this.next().v !== 'in') throw new ExprSyntaxError('expected "in" in a for expression');
    const coll = this.expr();
    this.eat(':');
    let key: Expr | null = null;
    let body = this.expr();
    if (close === '}') {
      this.eat('=>');
      key = body;
      body = this.expr();
      // Grouping mode collects values per key: not what a pool size is written with.
      if (this.isP('...')) {
        this.i = start;
        return this.skipBracketed('a grouping for expression');
      }
    }
    let cond: Expr | null = null;
    if (this.peek()?.k === 'id' && this.peek()?.v === 'if') {
      this.next();
      cond = this.expr();
    }
    this.eat(close);
    return { t: 'for', keyVar, valueVar, coll, key, body, cond };
  }

  private skipBracketed(what: string): Expr {
    const start = this.i;
    let depth = 0;
    do {
      const t = this.next();
      if (t.k === 'p' && ['(', '[', '{'].includes(t.v)) depth++;
      if (t.k === 'p' && [')', ']', '}'].includes(t.v)) depth--;
    } while (depth > 0);
    return { t: 'opaque', what, text: this.textFrom(start) };
  }
}

function rawLength(src: string, tok: Tok): number {
  if (tok.k !== 'str') return tok.v.length;
  let i = tok.at + 1;
  while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
  return i + 1 - tok.at;
}

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
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
    const num = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      toks.push({ k: 'num', v: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][\w-]*/.exec(src.slice(i));
    if (id) {
      toks.push({ k: 'id', v: id[0], at: i });
      i += id[0].length;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let raw = '';
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\') {
          raw += unescape(src[j + 1] ?? '');
          j += 2;
          continue;
        }
        if (src.startsWith('${', j)) {
          const end = matchingBrace(src, j + 1);
          if (end < 0) throw new ExprSyntaxError('unclosed ${');
          raw += src.slice(j, end + 1);
          j = end + 1;
          continue;
        }
        raw += src[j];
        j++;
      }
      if (j >= src.length) throw new ExprSyntaxError('unclosed string');
      toks.push({ k: 'str', v: raw, at: i, parts: parseTemplate(raw) });
      i = j + 1;
      continue;
    }
    const p = PUNCT.find((x) => src.startsWith(x, i));
    if (!p) throw new ExprSyntaxError(`unexpected character "${c}"`);
    toks.push({ k: 'p', v: p, at: i });
    i += p.length;
  }
  return toks;
}

function unescape(c: string): string {
  return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c;
}
