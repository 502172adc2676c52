import { GpuJustifyError } from '../../../domain/errors.js';
import type { Node, Operand, Parsed, Pipe } from './parse.js';
import { FUNCS } from './funcs.js';
import type { Call } from './funcs.js';
import { goType, isMap, isNil, printed, RenderError, truth } from './values.js';

/** What one render may cost: a template past either is not followed, never cut short silently. */
export interface Limits {
  steps: number;
  outputBytes: number;
  /** Nested `include`/`template`/`tpl` calls (Helm stops recursion at 1000). */
  depth: number;
}

/** One line of output and the line of the main template it came from. */
interface OutLine {
  text: string;
  from: number;
}

/** `{{break}}` and `{{continue}}`, unwinding to their `range`. */
class Break extends GpuJustifyError {
  override readonly kind = 'template-break';
}
class Continue extends GpuJustifyError {
  override readonly kind = 'template-continue';
}

/** Stops on what only the cluster or the chart's other files hold (`.Capabilities`, `.Files`): never guessed. */
export const UNKNOWABLE = Symbol('unknowable');

/**
 * Executes a parsed template as text/template does with Helm's options (missingkey=zero, so a
 * missing map key is nil), with the function set of funcs.ts. Throws RenderError with the line.
 */
export class Exec {
  private steps = 0;
  private bytes = 0;
  private depth = 0;
  private readonly out: OutLine[] = [{ text: '', from: 1 }];
  private settled = false;
  /** Where output of a nested template goes: a string being built, or the main output. */
  private sink: string[] | null = null;
  private line = 1;

  constructor(
    private readonly defines: Map<string, Node[]>,
    private readonly limits: Limits,
    private readonly parseMore: (text: string) => Parsed,
  ) {}

  run(root: Node[], data: unknown): { text: string; lines: number[] } {
    this.list(root, data, [{ name: '$', value: data }]);
    return { text: this.out.map((l) => l.text).join('\n'), lines: this.out.map((l) => l.from) };
  }

  private fail(message: string, fn: string | null = null): never {
    throw new RenderError(message, fn, this.line);
  }

  private step(n = 1): void {
    this.steps += n;
    if (this.steps > this.limits.steps) this.fail(`the render needs more than ${this.limits.steps} steps`);
  }

  private write(text: string, from: number): void {
    if (text === '') return;
    this.step(1 + (text.length >> 6));
    if (this.sink !== null) {
      this.sink.push(text);
      this.bytes += text.length;
    } else {
      this.bytes += text.length;
      const parts = text.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) {
          this.out.push({ text: '', from });
          this.settled = false;
        }
        const cur = this.out[this.out.length - 1] as OutLine;
        // A line belongs to the template line that wrote its first non-blank character.
        if (!this.settled && (cur.text === '' || part.trim() !== '')) cur.from = from;
        if (part.trim() !== '') this.settled = true;
        cur.text += part;
      });
    }
    if (this.bytes > this.limits.outputBytes) this.fail(`the render writes more than ${this.limits.outputBytes} bytes`);
  }

  private list(nodes: readonly Node[], dot: unknown, vars: Var[]): void {
    const mark = vars.length;
    for (const n of nodes) this.node(n, dot, vars);
    vars.length = mark;
  }

  private node(n: Node, dot: unknown, vars: Var[]): void {
    this.step();
    this.line = n.line;
    switch (n.k) {
      case 'text': {
        // Each line of a text node keeps its own line number.
        if (this.sink !== null) return this.write(n.text, n.line);
        n.text.split('\n').forEach((part, i) => this.write(i === 0 ? part : `\n${part}`, n.line + i));
        return;
      }
      case 'action': {
        const v = this.pipe(n.pipe, dot, vars);
        if (n.pipe.decl.length === 0) this.write(printed(v), n.line);
        return;
      }
      case 'if':
      case 'with': {
        const mark = vars.length;
        const v = this.pipe(n.pipe, dot, vars);
        if (truth(v)) this.list(n.list, n.k === 'with' ? v : dot, vars);
        else if (n.else !== null) this.list(n.else, dot, vars);
        vars.length = mark;
        return;
      }
      case 'range':
        return this.range(n, dot, vars);
      case 'template': {
        const data = n.pipe === null ? null : this.pipe(n.pipe, dot, vars);
        this.call(n.name, data, (body, d) => this.list(body, d, [{ name: '$', value: d }]));
        return;
      }
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
    }
  }

  private range(n: Node & { k: 'if' | 'with' | 'range' }, dot: unknown, vars: Var[]): void {
    const mark = vars.length;
    const v = this.pipe({ ...n.pipe, decl: [] }, dot, vars);
    let items: [unknown, unknown][];
    if (Array.isArray(v)) items = v.map((x, i) => [BigInt(i), x]);
    else if (isMap(v))
      items = Object.keys(v)
        .sort()
        .map((k) => [k, v[k]]);
    else if (typeof v === 'bigint') items = Array.from({ length: Math.max(0, Number(v)) }, (_, i) => [BigInt(i), BigInt(i)]);
    else if (isNil(v)) items = [];
    else this.fail(`range can't iterate over ${goType(v)} ${printed(v)}`);
    if (items.length === 0) {
      if (n.else !== null) this.list(n.else, dot, vars);
      return;
    }
    for (const [key, value] of items) {
      this.step();
      const [first, second] = n.pipe.decl;
      if (second !== undefined) vars.push({ name: first as string, value: key }, { name: second, value });
      else if (first !== undefined) vars.push({ name: first, value });
      try {
        this.list(n.list, value, vars);
      } catch (e) {
        if (e instanceof Break) break;
        if (!(e instanceof Continue)) throw e;
      } finally {
        vars.length = mark;
      }
    }
  }

  /** A named template with its data, rendered into the current sink or a string. */
  private call(name: string, data: unknown, body: (nodes: Node[], data: unknown) => void): void {
    const nodes = this.defines.get(name);
    if (nodes === undefined) this.fail(`no such template "${name}"`);
    if (++this.depth > this.limits.depth) this.fail(`templates nested more than ${this.limits.depth} deep`);
    const line = this.line;
    try {
      body(nodes, data);
    } catch (e) {
      // The error is reported at the line that called the named template, saying which one failed.
      if (e instanceof RenderError) throw new RenderError(`${e.message} (in "${name}")`, e.fn, line);
      throw e;
    } finally {
      this.depth--;
      this.line = line;
    }
  }

  /** Renders a named template (include) or a template text (tpl) to a string. */
  private toString(render: () => void): string {
    const outer = this.sink;
    const line = this.line;
    this.sink = [];
    try {
      render();
      return this.sink.join('');
    } finally {
      this.sink = outer;
      this.line = line;
    }
  }

  private pipe(p: Pipe, dot: unknown, vars: Var[]): unknown {
    let value: unknown = undefined;
    let has = false;
    for (const cmd of p.cmds) {
      value = this.command(cmd, dot, vars, has ? { value } : null);
      has = true;
    }
    if (p.decl.length > 0) {
      const name = p.decl[0] as string;
      if (p.assign) {
        const found = [...vars].reverse().find((v) => v.name === name);
        if (found === undefined) this.fail(`undefined variable: ${name}`);
        found.value = value;
      } else vars.push({ name, value });
    }
    return value;
  }

  private command(cmd: readonly Operand[], dot: unknown, vars: Var[], final: { value: unknown } | null): unknown {
    this.step();
    const [head, ...args] = cmd as [Operand, ...Operand[]];
    if (head.k === 'fn') return this.func(head.name, args, dot, vars, final);
    if (args.length > 0 || final !== null) {
      // What a method of Helm's objects would read (`.Files.Get`) is named before the call is.
      if (head.k === 'field') this.chain(dot, head.path.slice(0, -1));
      if (head.k === 'field' || head.k === 'var' || head.k === 'pipe') this.fail(`${describe(head)} is not a method but has arguments`);
      this.fail(`can't give argument to non-function ${describe(head)}`);
    }
    if (head.k === 'nil') this.fail('nil is not a command');
    return this.operand(head, dot, vars);
  }

  private operand(o: Operand, dot: unknown, vars: Var[]): unknown {
    switch (o.k) {
      case 'dot':
        return dot;
      case 'nil':
        return null;
      case 'lit':
        return o.v;
      case 'fn':
        return this.func(o.name, [], dot, vars, null);
      case 'field':
        return this.chain(dot, o.path);
      case 'var': {
        const found = [...vars].reverse().find((v) => v.name === o.name);
        if (found === undefined) this.fail(`undefined variable: ${o.name}`);
        return this.chain(found.value, o.path);
      }
      case 'pipe':
        return this.chain(this.pipe(o.pipe, dot, vars), o.path);
    }
  }

  /** `.a.b.c` from a receiver: a missing key is nil, and a field of that nil is Go's error. */
  private chain(receiver: unknown, path: readonly string[]): unknown {
    let at = receiver;
    for (let i = 0; i < path.length; i++) {
      const name = path[i] as string;
      this.step();
      if (at === UNKNOWABLE) this.fail(`.${path.slice(0, i).join('.')} is outside what the renderer reads`);
      if (isNil(at)) {
        // A value out of a pipeline or variable is an invalid reflect.Value: its fields are zero.
        if (i === 0) return null;
        this.fail(`nil pointer evaluating interface {}.${name}`);
      }
      if (!isMap(at)) this.fail(`can't evaluate field ${name} in type ${goType(at) === 'slice' ? '[]interface {}' : goType(at)}`);
      at = Object.hasOwn(at, name) ? at[name] : null;
    }
    if (at === UNKNOWABLE) this.fail(`.${path.join('.')} is outside what the renderer reads`);
    return at;
  }

  private func(name: string, args: readonly Operand[], dot: unknown, vars: Var[], final: { value: unknown } | null): unknown {
    // `and` and `or` stop at the first argument that decides them (Go 1.18).
    if (name === 'and' || name === 'or') {
      const all = [...args.map((a) => () => this.operand(a, dot, vars)), ...(final ? [() => final.value] : [])];
      if (all.length === 0) this.fail(`wrong number of args for ${name}: want at least 1 got 0`, name);
      let v: unknown = undefined;
      for (const get of all) {
        v = get();
        if (truth(v) === (name === 'or')) return v;
      }
      return v;
    }
    const fn = FUNCS[name];
    if (fn === undefined) this.fail(`function "${name}" is outside the renderer's set`, name);
    const values = args.map((a) => this.operand(a, dot, vars));
    if (final !== null) values.push(final.value);
    const call: Call = {
      include: (tname, data) => this.toString(() => this.call(tname, data, (body, d) => this.list(body, d, [{ name: '$', value: d }]))),
      tpl: (text, data) =>
        this.toString(() => {
          const parsed = this.parseMore(text);
          for (const [k, v] of parsed.defines) this.defines.set(k, v);
          if (++this.depth > this.limits.depth) this.fail(`templates nested more than ${this.limits.depth} deep`);
          try {
            this.list(parsed.root, data, [{ name: '$', value: data }]);
          } finally {
            this.depth--;
          }
        }),
      step: (n) => this.step(n),
    };
    try {
      return fn(values, call);
    } catch (e) {
      if (e instanceof RenderError && e.line === null) throw new RenderError(e.message, e.fn ?? name, this.line);
      throw e;
    }
  }
}

interface Var {
  name: string;
  value: unknown;
}

function describe(o: Operand): string {
  if (o.k === 'field') return `.${o.path.join('.')}`;
  if (o.k === 'var') return [o.name, ...o.path].join('.');
  if (o.k === 'lit') return String(o.v);
  return o.k;
}
