import type { Lines } from './kit/lines.js';
import { escapeRegex } from '../util/escape-regex.js';

/**
 * The variables a `.tf.json` file declares (`{"variable": {"gpu_type": {…}}}`), each with the
 * lines of its object: the feed judges them as it judges an HCL `variable` block. A file that is
 * not JSON declares none (the Terraform parser reports it).
 */
export function jsonVariables(text: string): (Lines & { name: string })[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const blocks = (body as { variable?: unknown } | null)?.variable;
  const names = [...new Set((Array.isArray(blocks) ? blocks : [blocks]).flatMap((b) => (isObject(b) ? Object.keys(b) : [])))];
  const at = text.search(/"variable"\s*:/);
  if (at < 0) return [];
  const out: (Lines & { name: string })[] = [];
  for (const name of names) {
    const key = new RegExp(`"${escapeRegex(name)}"\\s*:\\s*`, 'g');
    key.lastIndex = at;
    const m = key.exec(text);
    if (m === null) continue;
    const open = m.index + m[0].length;
    out.push({ name, from: lineAt(text, m.index), to: lineAt(text, closingOf(text, open)) });
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The index of what closes the JSON value opening at `from` (its last character for a scalar). */
function closingOf(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (depth === 0 && !inString && (c === '}' || c === ']' || c === ',' || c === '\n')) return i;
  }
  return text.length - 1;
}

interface Member {
  name: string;
  /** Where the key starts, and the value's first and last characters. */
  key: number;
  value: number;
  end: number;
}

/** The members of the JSON object or the items of the array opening at `open` (items named ''). */
function members(text: string, open: number): Member[] {
  const out: Member[] = [];
  const array = text[open] === '[';
  let i = open + 1;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i] ?? '')) i++;
    if (i >= text.length || text[i] === '}' || text[i] === ']') return out;
    const key = i;
    let name = '';
    if (!array) {
      if (text[i] !== '"') return out;
      const close = stringEnd(text, i);
      try {
        name = JSON.parse(text.slice(i, close + 1)) as string;
      } catch {
        return out;
      }
      i = close + 1;
      while (i < text.length && /[\s:]/.test(text[i] ?? '')) i++;
    }
    const end = closingOf(text, i);
    // A scalar ends at the `,`, `}` or newline after it: its last character is before that.
    const last = text[i] === '{' || text[i] === '[' ? end : end - 1;
    out.push({ name, key, value: i, end: last });
    if (end <= i) return out;
    i = last + 1;
  }
}

/** The index of the quote closing the JSON string opening at `from`. */
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** The objects a JSON block value holds: itself, or each object of an array of them. */
const objectsOf = (text: string, m: Member): Member[] =>
  text[m.value] === '{' ? [m] : text[m.value] === '[' ? members(text, m.value).filter((x) => text[x.value] === '{') : [];

/** A `module` block of a `.tf.json` file: its name and lines, its `source`, and each argument's lines. */
export interface JsonModuleCall {
  name: string;
  from: number;
  to: number;
  source: string | undefined;
  args: { name: string; from: number; to: number }[];
}

/**
 * The module calls of a `.tf.json` file (`{"module": {"gpu": {"source": "./modules/gpu", …}}}`,
 * arrays of blocks between the keys or not), so each argument is judged by what it feeds in the
 * called module, as an HCL call's is. Text that is not a JSON object holds none.
 */
export function jsonModuleCalls(text: string): JsonModuleCall[] {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return [];
  const at = (index: number) => lineAt(text, index);
  const out: JsonModuleCall[] = [];
  const tops = members(text, start).filter((m) => m.name === 'module');
  for (const top of tops.flatMap((t) => objectsOf(text, t))) {
    for (const call of members(text, top.value)) {
      for (const body of objectsOf(text, call)) {
        const args = members(text, body.value);
        const source = args.find((a) => a.name === 'source');
        let value: unknown;
        try {
          value = source ? JSON.parse(text.slice(source.value, source.end + 1)) : undefined;
        } catch {
          value = undefined;
        }
        out.push({
          name: call.name,
          // Each copy of an array of blocks has its own lines: what one copy's arguments feed is its own.
          from: at(body.key),
          to: at(body.end),
          source: typeof value === 'string' ? value : undefined,
          args: args.map((a) => ({ name: a.name, from: at(a.key), to: at(a.end) })),
        });
      }
    }
  }
  return out;
}

/** A top-level block of a `.tf.json` file, as hclBlocks gives an HCL one; `entries` are a `locals` block's names. */
export interface JsonBlock {
  type: string;
  labels: string[];
  from: number;
  to: number;
  entries: { name: string; from: number; to: number }[];
}

/** Labels each block type takes in Terraform's JSON syntax (`resource.<type>.<name>`); one for any other but `locals` and `terraform`. */
const LABELS: Readonly<Record<string, number>> = { resource: 2, data: 2, ephemeral: 2, locals: 0, terraform: 0 };

/**
 * The top-level blocks of a `.tf.json` file (`{"locals": {…}}`, `{"output": {"x": {…}}}`), arrays
 * of blocks between the keys or not, each copy with its own lines. Not a JSON object: none.
 */
export function jsonBlocks(text: string): JsonBlock[] {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return [];
  const at = (index: number) => lineAt(text, index);
  const out: JsonBlock[] = [];
  const walk = (m: Member, type: string, labels: string[], left: number): void => {
    for (const o of objectsOf(text, m)) {
      if (left === 0) {
        const entries = type === 'locals' ? members(text, o.value).map((e) => ({ name: e.name, from: at(e.key), to: at(e.end) })) : [];
        out.push({ type, labels, from: at(o.key), to: at(o.end), entries });
      } else for (const inner of members(text, o.value)) walk(inner, type, [...labels, inner.name], left - 1);
    }
  };
  for (const top of members(text, start)) walk(top, top.name, [], LABELS[top.name] ?? 1);
  return out;
}

/** Blocks whose lines overlap: Terraform's JSON syntax written with several on one line, whose lines cannot tell them apart. */
export function sharesLines(blocks: readonly Lines[]): boolean {
  const sorted = [...blocks].sort((a, b) => a.from - b.from);
  return sorted.some((x, i) => i > 0 && x.from <= (sorted[i - 1]?.to ?? 0));
}
