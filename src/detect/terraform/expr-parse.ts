import { ExprSyntaxError } from './expr-ast.js';
import type { Expr, Step } from './expr-ast.js';
import { matchingBrace, tokenize } from './expr-tokens.js';
import type { Tok } from './expr-tokens.js';

/**
 * A parser for Terraform's expression language as hcl2json prints it (the text inside `${…}`):
 * literals, traversals, calls, operators, conditionals, tuples, objects, `for` expressions (also
 * grouping ones), splats, and templates with their `%{if}` / `%{for}` directives. The tree it
 * returns is in `expr-ast.ts`, its tokens in `expr-tokens.ts`.
 */
export type { Expr, Step } from './expr-ast.js';
export { ExprSyntaxError } from './expr-ast.js';

/** Parses one expression (the text inside `${…}` as hcl2json prints it). */
export function parseExpr(src: string): Expr {
  const p = new Parser(src);
  const e = p.expr();
  if (!p.done()) throw new ExprSyntaxError(`unexpected "${p.peek()?.v ?? ''}"`);
  return e;
}

/**
 * Splits a template into literal text, `${…}` interpolations and `%{…}` directives; `$${` and
 * `%%{` are escapes. `~` beside a marker strips the whitespace on that side, as Terraform does.
 */
export function parseTemplate(src: string): (string | Expr)[] {
  const t = new TemplateParser(src);
  const { parts, stop } = t.parts(new Set());
  if (stop !== null) throw new ExprSyntaxError(`%{${stop}} with no directive it closes`);
  if (parts.length === 0) parts.push('');
  return parts;
}

type Keyword = 'else' | 'endif' | 'endfor';

class TemplateParser {
  private i = 0;
  private stripNext = false;
  constructor(private readonly src: string) {}

  parts(stops: ReadonlySet<Keyword>): { parts: (string | Expr)[]; stop: Keyword | null } {
    const parts: (string | Expr)[] = [];
    let lit = '';
    const flush = () => {
      if (lit) parts.push(lit);
      lit = '';
    };
    const src = this.src;
    while (this.i < src.length) {
      if (src.startsWith('$${', this.i) || src.startsWith('%%{', this.i)) {
        lit += this.take(src.slice(this.i + 1, this.i + 3));
        this.i += 3;
        continue;
      }
      const interp = src.startsWith('${', this.i);
      if (!interp && !src.startsWith('%{', this.i)) {
        // Literal text up to the next marker or escape (`$${`, `%%{`), in one slice.
        let j = this.i + 1;
        while (
          j < src.length &&
          !((src[j] === '$' || src[j] === '%') && (src[j + 1] === '{' || (src[j + 1] === src[j] && src[j + 2] === '{')))
        )
          j++;
        lit += this.take(src.slice(this.i, j));
        this.i = j;
        continue;
      }
      const end = matchingBrace(src, this.i + 1);
      if (end < 0) throw new ExprSyntaxError(`unclosed ${interp ? '${' : '%{'}`);
      let inner = src.slice(this.i + 2, end);
      if (inner.startsWith('~')) {
        lit = lit.replace(/\s+$/, '');
        inner = inner.slice(1);
      }
      const stripAfter = inner.endsWith('~');
      if (stripAfter) inner = inner.slice(0, -1);
      this.i = end + 1;
      if (interp) {
        flush();
        parts.push(parseExpr(inner));
        this.stripNext = stripAfter;
        continue;
      }
      const m = /^\s*([A-Za-z]+)\b([\s\S]*)$/.exec(inner);
      const word = m?.[1] ?? '';
      const rest = m?.[2] ?? '';
      if (word === 'else' || word === 'endif' || word === 'endfor') {
        flush();
        this.stripNext = stripAfter;
        if (!stops.has(word)) throw new ExprSyntaxError(`%{${word}} with no directive it closes`);
        return { parts, stop: word };
      }
      flush();
      this.stripNext = stripAfter;
      if (word === 'if') parts.push(this.ifDirective(rest));
      else if (word === 'for') parts.push(this.forDirective(rest));
      else throw new ExprSyntaxError(`unknown template directive %{${word}}`);
    }
    flush();
    if (stops.size > 0) throw new ExprSyntaxError(`unclosed %{${stops.has('endfor') ? 'for' : 'if'}}`);
    return { parts, stop: null };
  }

  /** Text after a directive that ends in `~` loses its leading whitespace. */
  private take(text: string): string {
    if (!this.stripNext) return text;
    const out = text.replace(/^\s+/, '');
    if (out !== '') this.stripNext = false;
    return out;
  }

  private ifDirective(cond: string): Expr {
    const test = parseExpr(cond);
    const then = this.parts(new Set(['else', 'endif']));
    let other: (string | Expr)[] = [];
    if (then.stop === 'else') other = this.parts(new Set(['endif'])).parts;
    return { t: 'tplIf', cond: test, then: { t: 'tpl', parts: then.parts }, else: { t: 'tpl', parts: other } };
  }

  private forDirective(head: string): Expr {
    const m = /^\s*([A-Za-z_][\w-]*)\s*(?:,\s*([A-Za-z_][\w-]*)\s*)?in\b([\s\S]*)$/.exec(head);
    if (!m) throw new ExprSyntaxError('a %{for} directive this tool cannot read');
    const body = this.parts(new Set(['endfor']));
    return {
      t: 'tplFor',
      keyVar: m[2] === undefined ? null : (m[1] ?? null),
      valueVar: m[2] ?? m[1] ?? '',
      coll: parseExpr(m[3] ?? ''),
      body: { t: 'tpl', parts: body.parts },
    };
  }
}

class Parser {
  private toks: Tok[];
  private i = 0;
  constructor(private readonly src: string) {
    this.toks = tokenize(src, parseTemplate);
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
    return this.src.slice(from, last ? (last.end ?? last.at + last.v.length) : from).trim();
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

  /** `.attr`, `.0` or `[index]`, or null when the next token starts none. */
  private step(attrOnly: boolean): Step | null {
    if (this.isP('.')) {
      const after = this.toks[this.i + 1];
      if (after?.k !== 'id' && after?.k !== 'num') return null;
      this.next();
      const t = this.next();
      return t.k === 'num' ? { index: { t: 'lit', value: Number(t.v) } } : { attr: t.v };
    }
    if (!attrOnly && this.isP('[')) {
      this.next();
      const index = this.expr();
      this.eat(']');
      return { index };
    }
    return null;
  }

  private postfix(): Expr {
    const start = this.i;
    let base = this.primary();
    const steps: Step[] = [];
    for (;;) {
      if (this.isP('[*]') || this.isP('.*')) {
        // A full splat (`[*]`) takes index steps too; an attribute-only one (`.*`) attributes only.
        const attrOnly = this.next().v === '.*';
        const target: Expr =
          base.t === 'ref'
            ? { ...base, steps: [...base.steps, ...steps], text: this.textFrom(start) }
            : steps.length
              ? { t: 'index', target: base, steps: [...steps] }
              : base;
        const each: Step[] = [];
        for (let s = this.step(attrOnly); s !== null; s = this.step(attrOnly)) each.push(s);
        base = { t: 'splat', target, steps: each };
        steps.length = 0;
        continue;
      }
      const s = this.step(false);
      if (s === null) break;
      steps.push(s);
    }
    if (base.t === 'ref') return { ...base, steps: [...base.steps, ...steps], text: this.textFrom(start) };
    return steps.length ? { t: 'index', target: base, steps } : base;
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
        // `provider::aws::arn_parse(…)` parses as a name here only up to the first `::`; such calls are unknown anyway.
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
      if (this.peek()?.v === 'for' && this.peek()?.k === 'id') return this.forExpr(']');
      const items: Expr[] = [];
      while (!this.isP(']')) {
        items.push(this.expr());
        if (!this.isP(']')) this.eat(',');
      }
      this.eat(']');
      return { t: 'tuple', items };
    }
    if (t.v === '{') {
      if (this.peek()?.v === 'for' && this.peek()?.k === 'id') return this.forExpr('}');
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
  private forExpr(close: ']' | '}'): Expr {
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
    let group = false;
    if (close === '}') {
      this.eat('=>');
      key = body;
      body = this.expr();
      if (this.isP('...')) {
        this.next();
        group = true;
      }
    }
    let cond: Expr | null = null;
    if (this.peek()?.k === 'id' && this.peek()?.v === 'if') {
      this.next();
      cond = this.expr();
    }
    this.eat(close);
    return { t: 'for', keyVar, valueVar, coll, key, body, cond, group };
  }
}
