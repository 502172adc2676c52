import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineCount } from './kit/lines.js';
import type { CapacityParser, ParseResult } from './parser.js';
import { PARSERS } from './registry.js';
import { corpusFiles } from '../../test/detect/corpus.js';

const corpus = corpusFiles();

function expectWellFormed(result: ParseResult, file: string, text: string): void {
  const max = lineCount(text);
  const inFile = (line: number) => {
    expect(Number.isInteger(line)).toBe(true);
    expect(line).toBeGreaterThanOrEqual(1);
    expect(line).toBeLessThanOrEqual(max);
  };
  for (const decl of result.decls) {
    expect(decl.file).toBe(file);
    expect(decl.name).not.toBe('');
    expect(Number.isFinite(decl.gpus)).toBe(true);
    expect(decl.gpus).toBeGreaterThanOrEqual(0);
    inFile(decl.line);
    for (const part of decl.parts) {
      inFile(part.line);
      expect(Number.isFinite(part.gpus)).toBe(true);
    }
  }
  for (const d of result.diagnostics) {
    expect(d.file).toBe(file);
    expect(['error', 'warning', 'info']).toContain(d.severity);
    expect(d.message).not.toBe('');
    if (d.line !== null) inFile(d.line);
  }
  for (const u of result.unresolved ?? []) {
    expect(u.file).toBe(file);
    inFile(u.line);
  }
}

const UNRELATED: [string, string][] = [
  ['src/index.ts', 'export const answer = 42;\n'],
  ['README.md', '# Hello\n\nNothing about queues here.\n'],
  ['deploy/app.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n'],
  ['image.png', '\u0089PNG\r\n\u001a\n'],
  ['notes.txt', 'kind: ClusterQueue is mentioned, but in a text file\n'],
];

describe.each(PARSERS.map((p) => [p.id, p] as [string, CapacityParser]))('parser %s', (_id, parser) => {
  it('has a non-empty id', () => {
    expect(parser.id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it.each(corpus.map((f) => [f.path, f] as const))('never throws and stays within %s', (_path, file) => {
    const result = parser.parse(file.path, file.text);
    expectWellFormed(result, file.path, file.text);
  });

  it.each(UNRELATED)('says "not mine" to unrelated %s', (path, text) => {
    expect(parser.mightContain(path, text)).toBe(false);
  });

  it('survives truncated and shuffled corpus files', () => {
    const texts = corpus.filter((f) => parser.mightContain(f.path, f.text));
    fc.assert(
      fc.property(
        fc.constantFrom(...(texts.length ? texts : corpus)),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (file, cut, drops) => {
          const lines = file.text.slice(0, cut % (file.text.length + 1)).split('\n');
          for (const d of drops) lines.splice(d % Math.max(1, lines.length), 1);
          const text = lines.join('\n');
          expectWellFormed(parser.parse(file.path, text), file.path, text);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('survives arbitrary text around a ClusterQueue marker', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const text = `${a}\nkind: ClusterQueue\n${b}`;
        expectWellFormed(parser.parse('q.yaml', text), 'q.yaml', text);
      }),
      { numRuns: 200 },
    );
  });
});
