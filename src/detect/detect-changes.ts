import { MAX_FILE_CHARS, describeSize, diagnostic } from '../domain/index.js';
import type { CapacityChange, ChangeSet, Diagnostic, TreeReader } from '../domain/index.js';
import { compareSides } from './compare.js';
import { anyParserAccepts, detectFile } from './detect-file.js';
import { byPosition, pairDecls } from './match-decls.js';
import type { CapacityParser, ParseResult, SetParseResult, SourceFile } from './parser.js';
import { PARSERS } from './registry.js';

export interface DetectedChanges {
  changes: CapacityChange[];
  diagnostics: Diagnostic[];
}

// Readers may be API-backed: a few reads in flight, not one per changed file at once.
const READ_CONCURRENCY = 8;

export { MAX_FILE_CHARS };

/** A file too large to read is reported when it could hold capacity, never silently skipped. */
function oversize(path: string, text: string, parsers: readonly CapacityParser[]): ParseResult {
  if (!parsers.some((p) => p.mightContain(path, text))) return EMPTY;
  return {
    decls: [],
    diagnostics: [diagnostic(path, null, 'error', `${describeSize(text.length)}, over the ${describeSize(MAX_FILE_CHARS)} gpu-justify reads: its GPU capacity was not checked`)],
    unresolved: [],
  };
}

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
export async function detectChanges(changes: ChangeSet, parsers: readonly CapacityParser[] = PARSERS): Promise<DetectedChanges> {
  const paths = [...new Set(await changes.changedPaths())].filter((p) => anyParserAccepts(p, parsers)).sort();
  const fileParsers = parsers.filter((p) => !p.parseSet);
  const setParsers = parsers.filter((p) => p.parseSet);
  const sides = { base: cachedReader(changes.base), head: cachedReader(changes.head) };
  const perFile = await mapLimit(paths, READ_CONCURRENCY, async (path) => ({
    base: await detectSide(sides.base, path, fileParsers),
    head: await detectSide(sides.head, path, fileParsers),
  }));
  const perSet: { base: SetParseResult; head: SetParseResult }[] = [];
  for (const parser of setParsers) {
    const dirs = [...new Set(paths.filter((p) => parser.acceptsPath?.(p) ?? true).map(dirOf))].sort();
    perSet.push(...await mapLimit(dirs, READ_CONCURRENCY, async (dir) => ({
      base: await detectDirectory(sides.base, dir, paths, parser),
      head: await detectDirectory(sides.head, dir, paths, parser),
    })));
  }
  const base = combine(perFile.map((s) => s.base), perSet.map((s) => s.base));
  const head = combine(perFile.map((s) => s.head), perSet.map((s) => s.head));

  const diagnostics = [...head.diagnostics, ...unknownBefore(base, head)];
  diagnostics.sort((a, b) => byPosition(
    { file: a.file, line: a.line ?? 0, name: a.message },
    { file: b.file, line: b.line ?? 0, name: b.message },
  ));
  return { changes: compareSides(base, head), diagnostics };
}

const EMPTY: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };

/** Each path is read at most once per side, however many parsers want it. */
function cachedReader(reader: TreeReader): TreeReader {
  const cache = new Map<string, Promise<string | null>>();
  const cached: TreeReader = {
    label: reader.label,
    read(path) {
      let text = cache.get(path);
      if (!text) cache.set(path, (text = reader.read(path)));
      return text;
    },
  };
  if (reader.list) cached.list = (dir) => (reader.list as (d: string) => Promise<string[]>)(dir);
  return cached;
}

async function detectSide(reader: TreeReader, path: string, parsers: readonly CapacityParser[]): Promise<ParseResult> {
  if (!parsers.some((p) => p.acceptsPath?.(path) ?? true)) return EMPTY;
  const text = await reader.read(path);
  if (text === null) return EMPTY;
  return text.length > MAX_FILE_CHARS ? oversize(path, text, parsers) : detectFile(path, text, parsers);
}

/**
 * A format whose files depend on their siblings (Terraform modules) reads the changed files of
 * a directory together with the directory's other files, when the reader can list them.
 */
async function detectDirectory(reader: TreeReader, dir: string, changed: readonly string[], parser: CapacityParser): Promise<SetParseResult> {
  const accepts = (p: string) => dirOf(p) === dir && (parser.acceptsPath?.(p) ?? true);
  const sibling = (p: string) => dirOf(p) === dir && (parser.acceptsSibling ? parser.acceptsSibling(p) : (parser.acceptsPath?.(p) ?? true));
  const siblings = reader.list ? await reader.list(dir) : [];
  const paths = [...new Set([...changed.filter(accepts), ...siblings.filter(sibling)])].sort();
  const files: SourceFile[] = [];
  const tooLarge: ParseResult[] = [];
  for (const path of paths) {
    const text = await reader.read(path);
    if (text === null) continue;
    if (text.length > MAX_FILE_CHARS) tooLarge.push(oversize(path, text, [parser]));
    else files.push({ path, text });
  }
  if (parser.references) await readReferences(reader, parser, files, tooLarge);
  if (!files.some((f) => parser.mightContain(f.path, f.text))) return merge(tooLarge);
  try {
    const result = (parser.parseSet as (f: readonly SourceFile[]) => SetParseResult)(files);
    return { ...merge([...tooLarge, result]), supersedes: result.supersedes ?? [] };
  } catch (err) {
    // Parsers must not throw; one that does must not take the other formats down with it.
    const message = err instanceof Error ? err.message : String(err);
    return { decls: [], diagnostics: [diagnostic(files[0]?.path ?? dir, null, 'error', `${parser.id} parser failed: ${message}`)], unresolved: [] };
  }
}

// A kustomization names its bases and patch files; a chain of overlays is short.
const MAX_REFERENCED_FILES = 64;

/** Adds the files the set's files name (and those they name), as far as they exist on this side. */
async function readReferences(reader: TreeReader, parser: CapacityParser, files: SourceFile[], tooLarge: ParseResult[]): Promise<void> {
  const seen = new Set(files.map((f) => f.path));
  const queue = [...files];
  let added = 0;
  while (queue.length > 0 && added < MAX_REFERENCED_FILES) {
    const file = queue.shift() as SourceFile;
    let refs: string[] = [];
    try {
      refs = (parser.references as (f: SourceFile) => string[])(file);
    } catch {
      // Parsers must not throw; one that does only loses its references.
    }
    for (const path of refs) {
      if (seen.has(path) || added >= MAX_REFERENCED_FILES) continue;
      seen.add(path);
      const text = await reader.read(path);
      if (text === null) continue;
      added++;
      if (text.length > MAX_FILE_CHARS) {
        tooLarge.push(oversize(path, text, [parser]));
        continue;
      }
      const ref = { path, text };
      files.push(ref);
      queue.push(ref);
    }
  }
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Per-file results, less those of files a set result reads in context (kustomize patches), plus the set results. */
function combine(files: readonly ParseResult[], sets: readonly SetParseResult[]): Required<ParseResult> {
  const gone = new Set(sets.flatMap((r) => r.supersedes ?? []));
  const kept = (x: { file: string }) => !gone.has(x.file);
  const perFile = merge(files);
  const own = merge(sets);
  return {
    decls: [...perFile.decls.filter(kept), ...own.decls],
    diagnostics: [...perFile.diagnostics.filter(kept), ...own.diagnostics],
    unresolved: [...perFile.unresolved.filter(kept), ...own.unresolved],
  };
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
    if (before.unboundedBy !== undefined) {
      // A pool with no GPU limit is not an unknown quota: nothing bounded it.
      out.push(diagnostic(after.file, after.line, 'warning',
        `${after.name}: the pool was unbounded before this change (no ${before.unboundedBy} limit at ${before.file}:${before.line}); it is now limited to ${after.decl.gpus} GPUs`));
      continue;
    }
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
