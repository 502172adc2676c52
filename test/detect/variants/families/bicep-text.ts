import type { Tree } from '../../real-fixtures.js';
import { baseName, dirOf } from '../shapes/kube-files.js';

/**
 * Where Bicep code is, as opposed to string text and comments: `code[i]` is true when the
 * character at i is code (an interpolation `${…}` inside a string is code again). Strings are
 * `'…'` with `\` escapes and `'''…'''` without; comments are `//` and `/* … *\/`.
 */
export function codeMask(text: string): boolean[] {
  const code: boolean[] = new Array<boolean>(text.length).fill(true);
  // Open interpolations: the brace depth inside each, innermost last.
  const stack: number[] = [];
  let i = 0;
  const inString = (): void => {
    // At the opening quote of a one-line string; returns with i after its closing quote, or at an interpolation.
    while (i < text.length) {
      const ch = text[i];
      if (ch === '\\') {
        code[i] = false;
        code[i + 1] = false;
        i += 2;
        continue;
      }
      if (ch === "'") {
        code[i] = false;
        i++;
        return;
      }
      if (ch === '$' && text[i + 1] === '{') {
        code[i] = false;
        code[i + 1] = false;
        i += 2;
        stack.push(0);
        return;
      }
      code[i] = false;
      i++;
    }
  };
  while (i < text.length) {
    const ch = text[i];
    if (text.startsWith("'''", i)) {
      const end = text.indexOf("'''", i + 3);
      const stop = end < 0 ? text.length : end + 3;
      for (let k = i; k < stop; k++) code[k] = false;
      i = stop;
    } else if (ch === "'") {
      code[i] = false;
      i++;
      inString();
    } else if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') code[i++] = false;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let k = i; k < stop; k++) code[k] = false;
      i = stop;
    } else if (stack.length > 0 && ch === '{') {
      stack[stack.length - 1] = (stack.at(-1) ?? 0) + 1;
      i++;
    } else if (stack.length > 0 && ch === '}') {
      if ((stack.at(-1) ?? 0) === 0) {
        // The interpolation closes: back into its string.
        stack.pop();
        code[i] = false;
        i++;
        inString();
      } else {
        stack[stack.length - 1] = (stack.at(-1) ?? 0) - 1;
        i++;
      }
    } else i++;
  }
  return code;
}

/** Index of the bracket closing the one at `open` (`{`, `[` or `(`), code only; -1 when it never closes. */
export function closeOf(text: string, open: number, code: readonly boolean[] = codeMask(text)): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (!code[i]) continue;
    const ch = text[i];
    if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if (ch === '}' || ch === ']' || ch === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** One line of a Bicep file: the declaration it belongs to (its first line), and the bracket depth at its start. */
export interface BicepLine {
  text: string;
  /** Start offset of the line in the file. */
  at: number;
  decl: string | null;
  depth: number;
}

export function bicepLines(text: string): BicepLine[] {
  const code = codeMask(text);
  const out: BicepLine[] = [];
  let depth = 0;
  let decl: string | null = null;
  let at = 0;
  for (const line of text.split('\n')) {
    if (depth === 0) decl = /^\s*$|^\s*\/\//.test(line) ? decl : line;
    out.push({ text: line, at, decl, depth });
    for (let k = 0; k < line.length; k++) {
      if (!code[at + k]) continue;
      const ch = line[k];
      if (ch === '{' || ch === '[' || ch === '(') depth++;
      else if (ch === '}' || ch === ']' || ch === ')') depth--;
    }
    at += line.length + 1;
  }
  return out;
}

/** `'..'`, a whole number or a bool on its own: a literal Bicep reads without evaluating anything. */
export const LITERAL = String.raw`'(?:[^'\\$\n]|\\[^$])*'|-?\d+|true|false`;

/** Resolves a module path (`'modules/x.bicep'`) written in `from` to a repository path. */
export function resolveFrom(from: string, rel: string): string {
  const parts = dirOf(from) === '' ? [] : dirOf(from).split('/');
  for (const seg of rel.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** The relative path from folder `fromDir` to the file `to`, as Bicep writes module paths. */
export function relativePath(fromDir: string, to: string): string {
  const a = fromDir === '' ? [] : fromDir.split('/');
  const b = to.split('/');
  let k = 0;
  while (k < a.length && k < b.length - 1 && a[k] === b[k]) k++;
  const up = a.slice(k).map(() => '..');
  const rest = b.slice(k);
  return up.length === 0 ? `./${rest.join('/')}` : [...up, ...rest].join('/');
}

/** Local module paths a Bicep file calls: `module x './y.bicep' = …` (a registry reference `br:`/`ts:` is not local). */
export const MODULE = /^(\s*module\s+[A-Za-z_]\w*\s+')([^':]+)(')/gm;

/** `.bicep` files no other file of the tree calls as a module: the templates a deployment starts from. */
export function entryTemplates(files: Tree): string[] {
  const called = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.bicep')) continue;
    for (const m of text.matchAll(MODULE)) called.add(resolveFrom(path, m[2] ?? ''));
  }
  return Object.keys(files).filter((p) => p.endsWith('.bicep') && !called.has(p));
}

/** The `.bicepparam` files whose `using` names `template`. */
export function paramFilesOf(files: Tree, template: string): string[] {
  return Object.entries(files)
    .filter(([p, text]) => {
      if (!p.endsWith('.bicepparam')) return false;
      const m = /^\s*using\s+'([^']+)'/m.exec(text);
      return m !== null && resolveFrom(p, m[1] ?? '') === template;
    })
    .map(([p]) => p);
}

/** `main.bicep` → `main.bicepparam` beside it. */
export const paramPathOf = (template: string): string => `${template.slice(0, -'.bicep'.length)}.bicepparam`;

/** `./main.bicep` for a template beside its parameter file. */
export const usingOf = (template: string): string => `./${baseName(template)}`;
