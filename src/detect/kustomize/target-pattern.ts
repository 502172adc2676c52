import { GpuJustifyError } from '../../domain/errors.js';
import { fail, ok, type Result } from '../../domain/result.js';

/**
 * Kustomize selects patch targets with Go regular expressions anchored at both ends (`^(?:p)$`,
 * api/types/selector.go). Go's engine (RE2) runs in time linear in the text; JavaScript's
 * backtracks, and a pattern such as `(a+)+b` written in a pull request could hold the parser for
 * minutes. So patterns are compiled here to a small automaton and run by simulating every state
 * at once (Thompson's construction, Pike's VM without captures): each character of the name costs
 * at most the program's length. The syntax is RE2's common part: literals, `.`, classes with
 * ranges and negation, `\d \w \s` and their negations, groups (plain, `?:`, named), alternation,
 * `* + ?` and `{n,m}` (greedy or lazy, the same for a whole-string match), `^ $ \A \z`. Anything
 * else (flags, `\b`, Unicode classes, POSIX classes) is named as not read, and what Go would
 * reject is named as invalid: in both cases the kustomization is not followed.
 */

/** A compiled pattern is its test: whether a whole name matches. */
export type CompiledPattern = Result<(value: string) => boolean, string>;

type CharTest = (c: string) => boolean;

type Node =
  | { t: 'char'; test: CharTest }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number | null }
  | { t: 'begin' }
  | { t: 'end' };

type Inst =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; a: number; b: number }
  | { op: 'jmp'; to: number }
  | { op: 'begin' | 'end'; next: number }
  | { op: 'match' };

/** Go's limit on a counted repetition. */
const MAX_REPEAT = 1000;
/** Program size past which a pattern is not run (Go refuses large programs too). */
const MAX_PROGRAM = 10_000;

class PatternError extends GpuJustifyError {
  constructor(
    override readonly kind: 'invalid' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

const DIGIT: CharTest = (c) => c >= '0' && c <= '9';
const WORD: CharTest = (c) => DIGIT(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const SPACE: CharTest = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r' || c === '\v';
const CONTROLS: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\u0007' };
const not =
  (f: CharTest): CharTest =>
  (c) =>
    !f(c);

class Parser {
  private i = 0;
  private readonly s: string[];
  /** The character the last `\\x` escape stood for, so that it can bound a range. */
  private lastHex: string | null = null;

  constructor(pattern: string) {
    this.s = Array.from(pattern);
  }

  parse(): Node {
    const node = this.alt();
    if (this.i < this.s.length) throw new PatternError('invalid', `unexpected ${this.s[this.i] ?? ''}`);
    return node;
  }

  private peek(): string | undefined {
    return this.s[this.i];
  }

  private alt(): Node {
    const items = [this.cat()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.cat());
    }
    return items.length === 1 ? (items[0] as Node) : { t: 'alt', items };
  }

  private cat(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) items.push(this.repeat());
    return { t: 'cat', items };
  }

  private repeat(): Node {
    let node = this.atom();
    let repeated = false;
    for (;;) {
      const bounds = this.quantifier();
      if (bounds === null) return node;
      if (repeated) throw new PatternError('invalid', 'invalid nested repetition operator');
      if (node.t === 'begin' || node.t === 'end') throw new PatternError('invalid', 'missing argument to repetition operator');
      repeated = true;
      if (this.peek() === '?') this.i++; // lazy: the same strings match the whole name
      node = { t: 'rep', node, min: bounds[0], max: bounds[1] };
    }
  }

  private quantifier(): [number, number | null] | null {
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      return c === '*' ? [0, null] : c === '+' ? [1, null] : [0, 1];
    }
    if (c !== '{') return null;
    // `{` that is not a well-formed repetition is a literal, as in Go.
    const rest = this.s.slice(this.i).join('');
    const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
    if (min > MAX_REPEAT || (max !== null && (max > MAX_REPEAT || max < min)))
      throw new PatternError('invalid', `invalid repeat count ${m[0]}`);
    this.i += Array.from(m[0]).length;
    return [min, max];
  }

  private atom(): Node {
    const c = this.s[this.i++];
    switch (c) {
      case undefined:
        throw new PatternError('invalid', 'unexpected end');
      case '(':
        return this.group();
      case '[':
        return { t: 'char', test: this.charClass() };
      case '.':
        return { t: 'char', test: (x) => x !== '\n' };
      case '^':
        return { t: 'begin' };
      case '$':
        return { t: 'end' };
      case '*':
      case '+':
      case '?':
        throw new PatternError('invalid', 'missing argument to repetition operator');
      case '\\':
        return this.escape(false);
      default:
        return { t: 'char', test: (x) => x === c };
    }
  }

  private group(): Node {
    if (this.peek() === '?') {
      const rest = this.s.slice(this.i).join('');
      const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(rest);
      if (rest.startsWith('?:')) this.i += 2;
      else if (named) this.i += named[0].length;
      else throw new PatternError('unsupported', 'flags or look-around in a group');
    }
    const node = this.alt();
    if (this.s[this.i++] !== ')') throw new PatternError('invalid', 'missing closing )');
    return node;
  }

  /** After a backslash; inside a class, only what stands for characters. */
  private escape(inClass: boolean): Node & { t: 'char' | 'begin' | 'end' } {
    const c = this.s[this.i++];
    if (c === undefined) throw new PatternError('invalid', 'trailing backslash');
    const shorthand: Record<string, CharTest> = { d: DIGIT, D: not(DIGIT), w: WORD, W: not(WORD), s: SPACE, S: not(SPACE) };
    this.lastHex = null;
    if (shorthand[c]) return { t: 'char', test: shorthand[c] };
    if (CONTROLS[c] !== undefined) {
      const ch = CONTROLS[c];
      return { t: 'char', test: (x) => x === ch };
    }
    if (!inClass && c === 'A') return { t: 'begin' };
    if (!inClass && c === 'z') return { t: 'end' };
    if (c === 'x') {
      const rest = this.s.slice(this.i).join('');
      const m = /^(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(rest);
      if (!m) throw new PatternError('invalid', 'invalid escape \\x');
      this.i += m[0].length;
      const code = parseInt(m[1] ?? m[2] ?? '0', 16);
      if (code > 0x10ffff) throw new PatternError('invalid', 'invalid escape \\x');
      const ch = String.fromCodePoint(code);
      this.lastHex = ch;
      return { t: 'char', test: (x) => x === ch };
    }
    // Go lets any punctuation be escaped to stand for itself; letters and digits are classes or errors.
    if (/^[\p{P}\p{S}]$/u.test(c) && c.charCodeAt(0) < 128) return { t: 'char', test: (x) => x === c };
    if (/^[A-Za-z0-9]$/.test(c)) throw new PatternError(/^[bBpPQEC0-7]$/.test(c) ? 'unsupported' : 'invalid', `escape \\${c}`);
    throw new PatternError('invalid', `escape \\${c}`);
  }

  private charClass(): CharTest {
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.i++;
    }
    const parts: CharTest[] = [];
    let first = true;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) throw new PatternError('invalid', 'missing closing ]');
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === '[' && this.s[this.i + 1] === ':') throw new PatternError('unsupported', 'POSIX class');
      const lo = this.classChar();
      if (typeof lo !== 'string') {
        parts.push(lo);
        continue;
      }
      if (this.peek() === '-' && this.s[this.i + 1] !== ']' && this.s[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classChar();
        if (typeof hi !== 'string' || hi < lo) throw new PatternError('invalid', 'invalid character class range');
        parts.push((x) => x >= lo && x <= hi);
      } else parts.push((x) => x === lo);
    }
    const inClass: CharTest = (x) => parts.some((p) => p(x));
    return negate ? not(inClass) : inClass;
  }

  /** One member of a class: a character (which may bound a range) or a shorthand class. */
  private classChar(): string | CharTest {
    const c = this.s[this.i++] as string;
    if (c !== '\\') return c;
    const next = this.peek();
    if (next === undefined) throw new PatternError('invalid', 'trailing backslash');
    if (/^[\p{P}\p{S}]$/u.test(next) && next.charCodeAt(0) < 128) {
      this.i++;
      return next;
    }
    const node = this.escape(true);
    if (node.t !== 'char') throw new PatternError('invalid', 'escape in a class');
    if (next === 'x' && this.lastHex !== null) return this.lastHex;
    return CONTROLS[next] ?? node.test;
  }
}

/** The program of a node, appended to `prog`; the instructions' `next` is patched by the caller. */
function emit(node: Node, prog: Inst[]): void {
  if (prog.length > MAX_PROGRAM) throw new PatternError('unsupported', `more than ${MAX_PROGRAM} states`);
  switch (node.t) {
    case 'char':
      prog.push({ op: 'char', test: node.test, next: prog.length + 1 });
      return;
    case 'begin':
    case 'end':
      prog.push({ op: node.t, next: prog.length + 1 });
      return;
    case 'cat':
      for (const item of node.items) emit(item, prog);
      return;
    case 'alt': {
      const jumps: Inst[] = [];
      node.items.forEach((item, k) => {
        if (k === node.items.length - 1) return emit(item, prog);
        const split: Inst = { op: 'split', a: prog.length + 1, b: 0 };
        prog.push(split);
        emit(item, prog);
        const jmp: Inst = { op: 'jmp', to: 0 };
        prog.push(jmp);
        jumps.push(jmp);
        split.b = prog.length;
      });
      for (const j of jumps) if (j.op === 'jmp') j.to = prog.length;
      return;
    }
    case 'rep': {
      for (let k = 0; k < node.min; k++) emit(node.node, prog);
      if (node.max === null) {
        // x*: L: split body, out; body; jmp L
        const split: Inst = { op: 'split', a: prog.length + 1, b: 0 };
        const start = prog.length;
        prog.push(split);
        emit(node.node, prog);
        prog.push({ op: 'jmp', to: start });
        split.b = prog.length;
        return;
      }
      const splits: Inst[] = [];
      for (let k = node.min; k < node.max; k++) {
        const split: Inst = { op: 'split', a: prog.length + 1, b: 0 };
        prog.push(split);
        splits.push(split);
        emit(node.node, prog);
      }
      for (const s of splits) if (s.op === 'split') s.b = prog.length;
      return;
    }
  }
}

function compileProgram(pattern: string): Inst[] {
  const prog: Inst[] = [];
  emit(new Parser(pattern).parse(), prog);
  prog.push({ op: 'match' });
  if (prog.length > MAX_PROGRAM) throw new PatternError('unsupported', `more than ${MAX_PROGRAM} states`);
  return prog;
}

/** Whether the program matches the whole of `value`: every live state advanced one character at a time. */
function run(prog: readonly Inst[], value: string): boolean {
  const chars = Array.from(value);
  let current: number[] = [];
  const seen = new Int32Array(prog.length).fill(-1);
  // Adds a state and what it reaches without reading, at position `pos` (generation `gen`).
  const add = (list: number[], pc: number, pos: number, gen: number): void => {
    const stack = [pc];
    while (stack.length > 0) {
      const at = stack.pop() as number;
      if (seen[at] === gen) continue;
      seen[at] = gen;
      const inst = prog[at] as Inst;
      switch (inst.op) {
        case 'jmp':
          stack.push(inst.to);
          break;
        case 'split':
          stack.push(inst.b, inst.a);
          break;
        case 'begin':
          if (pos === 0) stack.push(inst.next);
          break;
        case 'end':
          if (pos === chars.length) stack.push(inst.next);
          break;
        default:
          list.push(at);
      }
    }
  };
  add(current, 0, 0, 0);
  for (let pos = 0; pos < chars.length && current.length > 0; pos++) {
    const c = chars[pos] as string;
    const next: number[] = [];
    for (const pc of current) {
      const inst = prog[pc] as Inst;
      if (inst.op === 'char' && inst.test(c)) add(next, inst.next, pos + 1, pos + 1);
    }
    current = next;
  }
  return current.some((pc) => prog[pc]?.op === 'match');
}

const CACHE = new Map<string, CompiledPattern>();
const MAX_CACHED = 10_000;

/** A kustomize target pattern, anchored at both ends as kustomize anchors it. */
export function compilePattern(pattern: string): CompiledPattern {
  const cached = CACHE.get(pattern);
  if (cached) return cached;
  let compiled: CompiledPattern;
  if (!/[\\^$.*+?()[\]{}|]/.test(pattern)) compiled = ok((v) => v === pattern);
  else {
    try {
      const prog = compileProgram(pattern);
      compiled = ok((v) => run(prog, v));
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      compiled = fail(
        err.kind === 'invalid'
          ? `is not a valid regular expression (${err.message})`
          : `uses what this reader does not run (${err.message})`,
      );
    }
  }
  if (CACHE.size >= MAX_CACHED) CACHE.clear();
  CACHE.set(pattern, compiled);
  return compiled;
}
