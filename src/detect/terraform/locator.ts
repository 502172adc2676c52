/**
 * Finds where a value sits in HCL source, since the JSON form has no positions. Two masked
 * copies of the text keep offsets and line breaks: in `code`, comments and heredoc bodies are
 * blanked (so a commented-out block or YAML in a heredoc cannot match); in `shape`, string
 * contents are blanked as well (so braces and `=` inside strings do not count).
 */
import { escapeRegex } from '../../util/escape-regex.js';

export interface Span {
  /** Offset just after the opening brace (or of the attribute, for a plain value). */
  start: number;
  /** Offset of the closing brace (or end of the line). */
  end: number;
  /** 1-based line of the key or block header. */
  line: number;
}

export class Locator {
  private readonly code: string;
  private readonly shape: string;
  private readonly lineStarts: number[] = [0];
  /** Bracket depth of `shape` before each offset: makes `depth` constant-time, not a rescan per match. */
  private readonly depthBefore: Int32Array;
  /** Children found per span and key, with their labels (see `children`). */
  private readonly scans = new Map<string, { labels: string; span: Span }[]>();

  /** `json`: the text is JSON (a `.tf.json` file), whose strings end at the first unescaped quote, `${` or not. */
  constructor(text: string, json = false) {
    [this.code, this.shape] = mask(text, json);
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
    this.depthBefore = new Int32Array(this.shape.length + 1);
    let d = 0;
    for (let i = 0; i < this.shape.length; i++) {
      const c = this.shape[i];
      if (c === '{' || c === '[' || c === '(') d++;
      else if (c === '}' || c === ']' || c === ')') d--;
      this.depthBefore[i + 1] = d;
    }
  }

  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The whole file as a span, to search top-level blocks in. */
  file(): Span {
    return { start: 0, end: this.code.length, line: 1 };
  }

  /**
   * The last direct child of `within` named by `key`: `name`, `name "label"`, `"quoted key"`,
   * a block (`name {`) or an attribute / object key (`name =`, `name:`). Last, because a
   * repeated object key takes the last value.
   */
  child(within: Span, key: string, labels: readonly string[] = []): Span | null {
    return this.children(within, key, labels).at(-1) ?? null;
  }

  /**
   * Every direct child of `within` named by `key`, in order: repeated blocks such as
   * `resource_limits { … }`. The children of one span named by one key are found in one scan,
   * whatever their labels, and kept: a file of thousands of resources is scanned once per key,
   * not once per resource looked up.
   */
  children(within: Span, key: string, labels: readonly string[] = []): Span[] {
    const want = labels.join('\u0000');
    return this.labelled(within, key)
      .filter((c) => c.labels === want)
      .map((c) => c.span);
  }

  private labelled(within: Span, key: string): { labels: string; span: Span }[] {
    const cacheKey = `${within.start}:${within.end}:${key}`;
    const cached = this.scans.get(cacheKey);
    if (cached) return cached;
    const name = `(?:${escapeRegex(key)}|"${escapeRegex(key)}")`;
    const re = new RegExp(`(^|[\\s{,(\\[])${name}((?:\\s+"[^"\\n]*")*)\\s*(\\{|=(?![=>])|:)`, 'g');
    // From the character before the span: a key right after its opening brace (`{"resource":…`,
    // minified JSON or a one-line block) is preceded by that brace, which the pattern must see.
    re.lastIndex = Math.max(0, within.start - 1);
    const found: { labels: string; span: Span }[] = [];
    for (let m = re.exec(this.code); m && m.index < within.end; m = re.exec(this.code)) {
      const at = m.index + (m[1] ?? '').length;
      if (at < within.start || this.depth(within.start, at) !== 0) continue;
      const after = m.index + m[0].length;
      const labels = [...(m[2] ?? '').matchAll(/"([^"\n]*)"/g)].map((l) => l[1] ?? '').join('\u0000');
      found.push({ labels, span: m[3] === '{' ? this.braced(at, after - 1) : this.value(at, after) });
    }
    this.scans.set(cacheKey, found);
    return found;
  }

  /**
   * The first key named `key` at any depth of `within`: a map key inside `merge({…}, {…})`,
   * which is no direct child of the attribute.
   */
  descendant(within: Span, key: string): Span | null {
    const re = new RegExp(`(^|[\\s{,(\\[])(?:${escapeRegex(key)}|"${escapeRegex(key)}")\\s*(\\{|=(?![=>])|:)`, 'g');
    re.lastIndex = within.start;
    const m = re.exec(this.code);
    if (!m || m.index >= within.end) return null;
    const at = m.index + (m[1] ?? '').length;
    const after = m.index + m[0].length;
    return m[2] === '{' ? this.braced(at, after - 1) : this.value(at, after);
  }

  /** Follows a path of keys; each step may be `[key, ...labels]` or a plain key. */
  path(within: Span, steps: readonly (string | readonly string[])[]): Span | null {
    let span: Span | null = within;
    for (const step of steps) {
      if (!span) return null;
      const [key, ...labels] = typeof step === 'string' ? [step] : step;
      span = this.child(span, key ?? '', labels);
    }
    return span;
  }

  /** The n-th (0-based) `{ … }` element of a list value such as `x = [{…}, {…}]`. */
  element(list: Span, n: number): Span | null {
    let seen = 0;
    for (let i = list.start; i < list.end; i++) {
      if (this.shape[i] !== '{' || this.depth(list.start, i) !== 0) continue;
      if (seen++ === n) return this.braced(i, i);
    }
    return null;
  }

  /** True when the span is the inside of a list (`[ … ]`). */
  opensList(span: Span): boolean {
    return this.shape[span.start - 1] === '[';
  }

  /** Net brace/bracket depth of `shape` between two offsets. */
  private depth(from: number, to: number): number {
    const clamp = (i: number) => Math.max(0, Math.min(i, this.shape.length));
    return (this.depthBefore[clamp(to)] ?? 0) - (this.depthBefore[clamp(from)] ?? 0);
  }

  private braced(keyAt: number, open: number): Span {
    return { start: open + 1, end: this.closing(open), line: this.lineAt(keyAt) };
  }

  /** An attribute's value: to its closing bracket when it opens one, else to the end of the line. */
  private value(keyAt: number, after: number): Span {
    let i = after;
    while (i < this.shape.length && (this.shape[i] === ' ' || this.shape[i] === '\t')) i++;
    const c = this.shape[i];
    if (c === '{' || c === '[') return { start: i + 1, end: this.closing(i), line: this.lineAt(keyAt) };
    // A call (`merge(…)`) runs to its closing parenthesis, over lines.
    const call = /^[A-Za-z_][\w]*\(/.exec(this.shape.slice(i, i + 64));
    if (call) return { start: i + call[0].length, end: this.closing(i + call[0].length - 1), line: this.lineAt(keyAt) };
    const eol = this.shape.indexOf('\n', i);
    return { start: i, end: eol < 0 ? this.shape.length : eol, line: this.lineAt(keyAt) };
  }

  private closing(open: number): number {
    let d = 0;
    for (let i = open; i < this.shape.length; i++) {
      const c = this.shape[i];
      if (c === '{' || c === '[' || c === '(') d++;
      else if ((c === '}' || c === ']' || c === ')') && --d === 0) return i;
    }
    return this.shape.length;
  }
}

/** Returns [code, shape]: see Locator. Both keep every newline so offsets map to lines. */
function mask(text: string, json: boolean): [string, string] {
  const code = text.split('');
  const shape = text.split('');
  const blank = (arr: string[], from: number, to: number) => {
    for (let k = from; k < to && k < arr.length; k++) if (arr[k] !== '\n') arr[k] = ' ';
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const eol = text.indexOf('\n', i);
      const end = eol < 0 ? n : eol;
      blank(code, i, end);
      blank(shape, i, end);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? n : close + 2;
      blank(code, i, end);
      blank(shape, i, end);
      i = end;
    } else if (c === '<' && text[i + 1] === '<') {
      const m = /^<<-?([A-Za-z_][\w-]*)[ \t]*\r?\n/.exec(text.slice(i, i + 200));
      if (!m) {
        i += 2;
        continue;
      }
      const bodyStart = i + m[0].length;
      const closer = new RegExp(`^[ \\t]*${m[1]}[ \\t]*$`, 'm');
      const rest = text.slice(bodyStart);
      const found = closer.exec(rest);
      const end = found ? bodyStart + found.index + found[0].length : n;
      blank(code, i, end);
      blank(shape, i, end);
      i = end;
    } else if (c === '"') {
      const end = json ? jsonStringEnd(text, i) : stringEnd(text, i);
      blank(shape, i + 1, end - 1);
      i = end;
    } else {
      i++;
    }
  }
  return [code.join(''), shape.join('')];
}

/**
 * Offset just after the closing quote of a JSON string opening at `open`: an interpolation inside
 * it escapes its quotes (`"${x == \"\" ? a : b}"`), so it is no nesting to follow.
 */
function jsonStringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** Offset just after the closing quote of the string opening at `open`, `${…}` included. */
function stringEnd(text: string, open: number): number {
  let i = open + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"' || c === '\n') return i + 1;
    if ((c === '$' || c === '%') && text[i + 1] === '{') {
      let d = 0;
      for (; i < text.length; i++) {
        const x = text[i];
        if (x === '"') {
          i = stringEnd(text, i) - 1;
          continue;
        }
        if (x === '{') d++;
        else if (x === '}' && --d === 0) break;
      }
      i++;
      continue;
    }
    i++;
  }
  return text.length;
}
