import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseAllDocumentsLinear, parseYamlLinear } from './yaml-linear.js';

/** The kinds of error of each document, as one string to compare. */
const codes = (docs: unknown): string =>
  (Array.isArray(docs) ? (docs as { errors: { code: string }[] }[]) : [])
    .map((d) => [...new Set(d.errors.map((e) => e.code))].sort().join(','))
    .join('|');

const SHAPES = [
  'a: 1\na: 2\n',
  '{a: 1, b: 2, a: 3}',
  'x:\n  - {k: 1, k: 2}\n  - a\n',
  '1: a\n"1": b\n',
  '1: a\n1: b\n',
  'a: &x {b: 1, b: 2}\nc: *x\n',
  '---\na: 1\n---\nb: 1\nb: 2\n',
  '? [a]\n: 1\n? [a]\n: 2\n',
  '<<: {a: 1}\n<<: {b: 1}\n',
  'a: 1\nb: 2\n',
  `x: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
  '',
];

describe('YAML parsed with a linear duplicate-key check', () => {
  it('refuses the same documents as the package does', () => {
    for (const text of SHAPES) expect(codes(parseAllDocumentsLinear(text)), text.slice(0, 40)).toBe(codes(parseAllDocuments(text)));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', '"a"', '1', '"1"', 'true', 'null', '~'), fc.nat(3)), { maxLength: 8 }),
        (pairs) => {
          const block = pairs.map(([k, v]) => `${k}: ${v}`).join('\n');
          const flow = `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`;
          for (const text of [block, flow, `top:\n${pairs.map(([k, v]) => `  ${k}: ${v}`).join('\n')}`])
            expect(codes(parseAllDocumentsLinear(text))).toBe(codes(parseAllDocuments(text)));
        },
      ),
    );
  });

  it('gives what the package parses, and throws where it throws', () => {
    expect(parseYamlLinear('a: [1, {b: c}]\n')).toEqual(parse('a: [1, {b: c}]\n'));
    expect(() => parseYamlLinear('a: 1\na: 2\n')).toThrow(/Map keys must be unique/);
  });

  it('checks 40,000 keys on one line in about the time it takes to parse them', () => {
    const text = `labels: {${Array.from({ length: 40_000 }, (_, i) => `k${i}: v${i}`).join(', ')}}\n`;
    const started = performance.now();
    const plain = parseAllDocuments(text, { uniqueKeys: false });
    const parseMs = performance.now() - started;
    const before = performance.now();
    const docs = parseAllDocumentsLinear(text);
    expect(docs[0]?.errors).toEqual([]);
    expect(Array.isArray(plain)).toBe(true);
    // The package's own check takes minutes here (each key against every key before it).
    expect(performance.now() - before).toBeLessThan(parseMs * 5 + 2_000);
  });
});
