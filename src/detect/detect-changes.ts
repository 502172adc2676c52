import { diagnostic } from '../domain/index.js';
import type { CapacityChange, ChangeSet, Diagnostic, TreeReader } from '../domain/index.js';
import { compareSides } from './compare.js';
import { anyParserAccepts, detectFile } from './detect-file.js';
import { byPosition, pairDecls } from './match-decls.js';
import type { ParseResult } from './parser.js';

export interface DetectedChanges {
  changes: CapacityChange[];
  diagnostics: Diagnostic[];
}

// Readers may be API-backed: a few reads in flight, not one per changed file at once.
const READ_CONCURRENCY = 8;

/**
 * Reads each changed path at base and head (through the ports, so this stays free of I/O
 * of its own), detects capacity on both sides and compares them over all files together,
 * so a queue moved from one file to another is one change, not a removal and an addition.
 *
 * Only head-side diagnostics are returned: they describe the code the PR proposes. Base-side
 * problems were there before the PR and would be noise on it, except for one consequence
 * that is the PR's business: when a declaration's count is unreadable at base but readable
 * at head, the size of the change is unknown, and a warning says so.
 * Reader failures (network, permissions) are not diagnostics; they propagate to the caller.
 */
export async function detectChanges(changes: ChangeSet): Promise<DetectedChanges> {
  const paths = [...new Set(await changes.changedPaths())].filter((p) => anyParserAccepts(p)).sort();
  const sides = await mapLimit(paths, READ_CONCURRENCY, async (path) => ({
    base: await detectSide(changes.base, path),
    head: await detectSide(changes.head, path),
  }));
  const base = merge(sides.map((s) => s.base));
  const head = merge(sides.map((s) => s.head));

  const diagnostics = [...head.diagnostics, ...unknownBefore(base, head)];
  diagnostics.sort((a, b) => byPosition(
    { file: a.file, line: a.line ?? 0, name: a.message },
    { file: b.file, line: b.line ?? 0, name: b.message },
  ));
  return { changes: compareSides(base, head), diagnostics };
}

async function detectSide(reader: TreeReader, path: string): Promise<ParseResult> {
  const text = await reader.read(path);
  return text === null ? { decls: [], diagnostics: [], unresolved: [] } : detectFile(path, text);
}

function merge(results: readonly ParseResult[]): Required<ParseResult> {
  return {
    decls: results.flatMap((r) => r.decls),
    diagnostics: results.flatMap((r) => r.diagnostics),
    unresolved: results.flatMap((r) => r.unresolved ?? []),
  };
}

function unknownBefore(base: ParseResult, head: ParseResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { before, after } of pairDecls(base, head)) {
    if (!before || before.decl || !after?.decl) continue;
    out.push(diagnostic(after.file, after.line, 'warning',
      `${after.name}: the GPU quota before this change (${before.file}:${before.line}) could not be read, so the change is unknown; it is now ${after.decl.gpus} GPUs`));
  }
  return out;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
