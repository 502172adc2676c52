import { assignments } from './shell-text.js';
import type { SourceFile } from '../parser.js';

/** A variable's value where the files give it one value; `null` where they give several (set under conditions). */
export type Vars = ReadonlyMap<string, { value: string; file: string; line: number } | null>;

/** A command's text with its variables put in, and the ones no file here sets. */
export interface Resolved {
  text: string;
  unresolved: string[];
}

const DEPTH = 6;

/** The variables of a script and the files it sources (those first: the script's own come after, and win). */
export function variablesOf(files: readonly SourceFile[]): Vars {
  const vars = new Map<string, { value: string; file: string; line: number } | null>();
  for (const f of files) {
    const own = new Map<string, { value: string; file: string; line: number } | null>();
    for (const a of assignments(f.path, f.text)) {
      const had = own.get(a.name);
      // Set twice to different values: which one a command sees depends on the path taken.
      own.set(
        a.name,
        had === undefined ? { value: a.value, file: f.path, line: a.line } : had !== null && had.value === a.value ? had : null,
      );
    }
    for (const [k, v] of own) vars.set(k, v);
  }
  return vars;
}

/**
 * Variables put into a command as the shell (or Make, or a workflow) would: `$X`, `${X}`,
 * `${X:-default}` and `${X:=default}`, Make's `$(X)`, a workflow's `${{ env.X }}`, Jinja's
 * `{{ x }}`. A command substitution (`$(…)` outside Make), a secret, an input or a variable set
 * nowhere here is left unresolved and named.
 */
export function resolve(text: string, vars: Vars, make: boolean): Resolved {
  const unresolved = new Set<string>();
  const lookup = (name: string, fallback: string | undefined, depth: number): string => {
    const v = vars.get(name);
    if (v === undefined || v === null || depth >= DEPTH) {
      if (fallback !== undefined) return fallback;
      unresolved.add(name);
      return `⟨${name}⟩`;
    }
    return put(v.value, depth + 1);
  };
  const put = (s: string, depth: number): string =>
    s
      .replace(/\$\{\{\s*(?:env|vars)\.(\w+)\s*\}\}/g, (_m, n: string) => lookup(n, undefined, depth))
      .replace(/\$\{\{([^}]*)\}\}/g, (_m, e: string) => {
        unresolved.add(e.trim());
        return `⟨${e.trim()}⟩`;
      })
      .replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, n: string) => lookup(n, undefined, depth))
      // A shell array's elements (`"\${args[@]}"`: its words, not one quoted word) or one of them (`\${args[2]}`).
      .replace(/"\$\{(\w+)\[([@*])\]\}"/g, (_m, n: string, at: string) => element(lookup(n, undefined, depth), at))
      .replace(/\$\{(\w+)\[([@*]|\d+)\]\}/g, (_m, n: string, at: string) => element(lookup(n, undefined, depth), at))
      .replace(/\$\{(\w+)(?::?[-=]([^}]*))?\}/g, (_m, n: string, d: string | undefined) => lookup(n, d, depth))
      .replace(/\$\((\w+)\)/g, (m, n: string) => (make ? lookup(n, undefined, depth) : m))
      .replace(/\$\([^)]*\)|`[^`]*`/g, (m) => {
        unresolved.add(m);
        return `⟨${m}⟩`;
      })
      .replace(/\$(?:env:)?([A-Za-z_]\w*)(\.[\w.]+)?/g, (_m, n: string, member: string | undefined) => {
        if (member === undefined) return lookup(n, undefined, depth);
        unresolved.add(`$${n}${member}`);
        return `⟨${n}${member}⟩`;
      });
  const out = put(text, 0);
  return { text: out, unresolved: [...unresolved] };
}

/** All of an array's words (`@`, `*`), or the one at an index; an unresolved array stays as its mark. */
function element(words: string, at: string): string {
  if (at === '@' || at === '*' || words.startsWith('⟨')) return words;
  return words.match(/"[^"]*"|'[^']*'|\S+/g)?.[Number(at)] ?? '';
}
