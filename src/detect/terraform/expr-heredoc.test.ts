import { describe, expect, it } from 'vitest';
import { TerraformBudget } from './expr-budget.js';
import { evalSource } from './expr-eval.js';
import { expressionExtent } from './expr-extent.js';
import { parseHcl } from './hcl.js';
import type { Scope } from './expr-scope.js';

/*
 * Heredocs read as HashiCorp's own parser reads them: hcl2json runs hclsyntax, and gives an
 * attribute that is one heredoc as the string it makes. Each generated heredoc is read both ways
 * and must come to the same string, and read inside a call it must come to what the call makes.
 */

const scope = (): Scope => ({
  variable: (name) => {
    throw new Error(`var.${name}`);
  },
  local: (name) => {
    throw new Error(`local.${name}`);
  },
  bound: new Map(),
  budget: new TerraformBudget(),
});

/** A small seeded generator, so a failing heredoc can be written down again. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const INDENTS = ['', ' ', '  ', '    ', '\t', '\t\t', '  \t'];
const WORDS = ['DEV1-M', 'b3-8', 'a2-highgpu-1g', 'key = value', '"quoted"', 'with $${literal}', 'back\\slash'];

/** A heredoc of random lines, indents, blank lines and closer, in `\n` or `\r\n`. */
function generated(random: () => number): { text: string; marker: string; flush: boolean } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const marker = pick(['EOT', 'EOF', 'END_OF-TEXT']);
  const flush = random() < 0.7;
  const nl = random() < 0.2 ? '\r\n' : '\n';
  const lines: string[] = [];
  for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) {
    const r = random();
    lines.push(
      r < 0.15 ? pick(INDENTS) : r < 0.25 ? `${pick(INDENTS)}%{ if true }${pick(WORDS)}%{ endif }` : `${pick(INDENTS)}${pick(WORDS)}`,
    );
  }
  const text = `<<${flush ? '-' : ''}${marker}${nl}${lines.map((l) => l + nl).join('')}${pick(INDENTS)}${marker}`;
  return { text, marker, flush };
}

/** What hclsyntax makes of the heredoc, through hcl2json. */
function byHcl(heredoc: string, nl: string): unknown {
  const parsed = parseHcl('main.tf', `x = ${heredoc}${nl}`);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const x = parsed.value.x;
  // hcl2json prints a template's directives back as text: `%{if true}…%{endif}`, which evaluates the same.
  return typeof x === 'string' ? evalSource(JSON.stringify(x), scope()) : x;
}

describe('a heredoc, as hclsyntax reads it', () => {
  const random = seeded(20261208);
  for (let k = 0; k < 120; k++) {
    const { text } = generated(random);
    const nl = text.includes('\r\n') ? '\r\n' : '\n';
    it(`heredoc ${k}: ${JSON.stringify(text)}`, () => {
      const expected = byHcl(text, nl);
      expect(evalSource(text, scope())).toEqual(expected);
      // Inside a call, broken over lines: chomp drops the last line break, as Terraform's does.
      const call = `chomp(${text}${nl}  )`;
      expect(evalSource(call, scope())).toEqual(typeof expected === 'string' ? expected.replace(/(?:\r\n|\n)+$/, '') : expected);
      const file = `a = ${call}${nl}b = 1${nl}`;
      const extent = expressionExtent(file, 4);
      expect(extent && file.slice(4, extent.end)).toBe(call);
    });
  }
});

describe('the extent of an expression written over lines', () => {
  const extentOf = (text: string): string | null => {
    const e = expressionExtent(text, 0);
    return e === null ? null : text.slice(0, e.end);
  };

  it('ends at the first newline outside brackets, strings and heredocs', () => {
    expect(extentOf('"a" # note\nb = 1')).toBe('"a" # note');
    expect(extentOf('join("", [\n  "a",\n  "b",\n])\nb = 1')).toBe('join("", [\n  "a",\n  "b",\n])');
    expect(extentOf('"${join("\\n", ["a", "b"])}" \nb')).toBe('"${join("\\n", ["a", "b"])}"');
    expect(extentOf('jsondecode(<<EOF\n{"a": ")"}\nEOF\n).a\nb')).toBe('jsondecode(<<EOF\n{"a": ")"}\nEOF\n).a');
  });

  it('takes a marker only alone on a line, at its start', () => {
    expect(extentOf('<<EOT\nnot EOT\nEOT more\n  EOT\nb')).toBe('<<EOT\nnot EOT\nEOT more\n  EOT');
    expect(extentOf('<<EOT\n${"x"}EOT\nEOT\nb')).toBe('<<EOT\n${"x"}EOT\nEOT');
  });

  it('reads an interpolation holding a heredoc, inside a heredoc', () => {
    expect(extentOf('<<A\n${chomp(<<B\nA\nB\n)}\nA\nb')).toBe('<<A\n${chomp(<<B\nA\nB\n)}\nA');
  });

  it('is null for what is left open: a bracket, a string, a heredoc, a comment', () => {
    for (const text of ['join("", [\n"a"', '"abc\n"', 'chomp(<<EOT\nabc\n)', '<<EOT\nabc', '(1 /* x\n', '[1, 2)'])
      expect(extentOf(text), JSON.stringify(text)).toBeNull();
  });
});
