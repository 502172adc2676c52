import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusFiles } from '../../test/detect/corpus.js';
import { loadAllReal } from '../../test/detect/real-fixtures.js';
import { lineCount } from './kit/lines.js';
import type { Accounting, CapacityParser, ParseResult, SourceFile } from './parser.js';
import { PARSERS } from './registry.js';

/** Folders of detect/ that are not formats: what several formats share. */
const NOT_FORMATS = new Set(['kit']);

const formatFolders = readdirSync(import.meta.dirname, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !NOT_FORMATS.has(entry.name))
  .map((entry) => entry.name)
  .sort();

function isParser(value: unknown): value is CapacityParser {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Partial<CapacityParser>;
  return typeof p.id === 'string' && typeof p.parse === 'function' && typeof p.mightContain === 'function';
}

/** A parser a format's index.ts exports; a factory's (`factory`) is made here over no inner parsers. */
interface Exported {
  name: string;
  parser: CapacityParser;
  factory: boolean;
}

/**
 * What a format's index.ts exports: parsers, or factories over the manifest parsers (Helm values,
 * Terraform's embedded manifests). Anything else, or no index.ts, is a problem the test names.
 */
async function faceOf(folder: string): Promise<{ parsers: Exported[]; problems: string[] }> {
  if (!existsSync(path.join(import.meta.dirname, folder, 'index.ts'))) return { parsers: [], problems: [`${folder}/ has no index.ts`] };
  const face = (await import(`./${folder}/index.ts`)) as Record<string, unknown>;
  const parsers: Exported[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(face)) {
    const factory = typeof value === 'function';
    const parser: unknown = factory ? (value as (inner: readonly CapacityParser[]) => unknown)([]) : value;
    if (isParser(parser)) parsers.push({ name, parser, factory });
    else problems.push(`${folder}/index.ts exports ${name}, which is neither a parser nor a parser factory`);
  }
  if (parsers.length === 0) problems.push(`${folder}/index.ts exports no parser`);
  return { parsers, problems };
}

const faces = new Map(await Promise.all(formatFolders.map(async (f) => [f, await faceOf(f)] as const)));

/** Every real file the tests hold: test/corpus/ and the detect fixtures, by source and path. */
const corpus: (SourceFile & { from: string })[] = [
  ...corpusFiles().map((f) => ({ ...f, from: 'corpus' })),
  ...Object.entries(loadAllReal()).map(([path, text]) => ({ path, text, from: 'fixtures/real' })),
];

/** The files of each directory of each source, as a parser that reads a directory at once gets them. */
const directories = (() => {
  const byDir = new Map<string, SourceFile[]>();
  for (const f of corpus) {
    const dir = `${f.from}: ${f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '.'}`;
    byDir.set(dir, [...(byDir.get(dir) ?? []), { path: f.path, text: f.text }]);
  }
  return [...byDir];
})();

function expectWellFormed(result: ParseResult & Accounting, files: readonly SourceFile[]): void {
  const lines = new Map(files.map((f) => [f.path, lineCount(f.text)]));
  const inFile = (file: string, line: number) => {
    expect(lines.has(file), `${file} is one of the files read`).toBe(true);
    expect(Number.isInteger(line)).toBe(true);
    expect(line).toBeGreaterThanOrEqual(1);
    expect(line).toBeLessThanOrEqual(lines.get(file) ?? 0);
  };
  for (const decl of result.decls) {
    expect(decl.name).not.toBe('');
    expect(Number.isFinite(decl.gpus)).toBe(true);
    expect(decl.gpus).toBeGreaterThanOrEqual(0);
    inFile(decl.file, decl.line);
    for (const part of decl.parts) {
      inFile(decl.file, part.line);
      expect(Number.isFinite(part.gpus)).toBe(true);
    }
  }
  for (const d of result.diagnostics) {
    expect(lines.has(d.file), `${d.file} is one of the files read`).toBe(true);
    expect(['error', 'warning', 'info']).toContain(d.severity);
    expect(d.message).not.toBe('');
    if (d.line !== null) inFile(d.file, d.line);
  }
  for (const u of result.unresolved ?? []) inFile(u.file, u.line);
  // What a parser says it read are lines of the files it was given, first to last.
  for (const a of result.accounted ?? []) {
    inFile(a.file, a.from);
    inFile(a.file, a.to);
    expect(a.to).toBeGreaterThanOrEqual(a.from);
  }
}

const UNRELATED: [string, string][] = [
  ['src/index.ts', 'export const answer = 42;\n'],
  ['README.md', '# Hello\n\nNothing about queues here.\n'],
  ['deploy/app.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n'],
  ['image.png', '\u0089PNG\r\n\u001a\n'],
  ['notes.txt', 'kind: ClusterQueue is mentioned, but in a text file\n'],
];

describe('the registry', () => {
  it('holds each parser once, by a distinct id', () => {
    const ids = PARSERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(formatFolders)('lists every parser of %s/, a format folder whose index.ts exports its parsers', (folder) => {
    const face = faces.get(folder);
    expect(face?.problems).toEqual([]);
    const ids = PARSERS.map((p) => p.id);
    for (const { name, parser, factory } of face?.parsers ?? []) {
      // A parser is listed as it is; a factory's parser is listed by its id (made over the manifest parsers).
      if (factory) expect(ids, `${folder}/index.ts: ${name} is not in PARSERS`).toContain(parser.id);
      else expect(PARSERS.includes(parser), `${folder}/index.ts: ${name} is not in PARSERS`).toBe(true);
    }
  });

  it('holds no parser that no format folder exports', () => {
    const exported = new Set([...faces.values()].flatMap((face) => face.parsers.map(({ parser }) => parser.id)));
    expect(PARSERS.map((p) => p.id).filter((id) => !exported.has(id))).toEqual([]);
  });
});

describe.each(PARSERS.map((p) => [p.id, p] as [string, CapacityParser]))('parser %s', (_id, parser) => {
  it('has a non-empty id', () => {
    expect(parser.id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it.each(corpus.map((f) => [`${f.from}: ${f.path}`, f] as const))('never throws and stays within %s', (_name, file) => {
    expectWellFormed(parser.parse(file.path, file.text), [file]);
  });

  // Parsers that read a directory at once (Terraform, Kustomize, Bicep) get each one whole.
  if (parser.parseSet) {
    it.each(directories)('reads the directory %s together within the contract', (_dir, files) => {
      const taken = files.filter((f) => parser.acceptsPath?.(f.path) ?? true);
      const result = taken.length > 0 ? parser.parseSet?.(taken) : undefined;
      if (result) expectWellFormed(result, taken);
    });
  }

  it.each(UNRELATED)('says "not mine" to unrelated %s', (path, text) => {
    expect(parser.mightContain(path, text)).toBe(false);
  });

  it('survives truncated and shuffled corpus files', () => {
    const texts = corpus.filter((f) => f.from === 'corpus' && parser.mightContain(f.path, f.text));
    fc.assert(
      fc.property(
        fc.constantFrom(...(texts.length ? texts : corpus)),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (file, cut, drops) => {
          const lines = file.text.slice(0, cut % (file.text.length + 1)).split('\n');
          for (const d of drops) lines.splice(d % Math.max(1, lines.length), 1);
          const text = lines.join('\n');
          expectWellFormed(parser.parse(file.path, text), [{ path: file.path, text }]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('survives arbitrary text around a ClusterQueue marker', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const text = `${a}\nkind: ClusterQueue\n${b}`;
        expectWellFormed(parser.parse('q.yaml', text), [{ path: 'q.yaml', text }]);
      }),
      { numRuns: 200 },
    );
  });
});
