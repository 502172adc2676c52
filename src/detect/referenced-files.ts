import { MAX_FILE_CHARS, describeSize, diagnostic } from '../domain/index.js';
import type { TreeReader } from '../domain/index.js';
import { mayBeApplied } from './detect-file.js';
import type { CapacityParser, ParseResult, SourceFile } from './parser.js';
import type { Sides } from './side-readers.js';

const NOTHING: ParseResult = { decls: [], diagnostics: [], unresolved: [] };

/**
 * A file too large to read is reported, never silently skipped: a changed one whatever it holds
 * (unread as a whole, it is not judged by a part), an unchanged one read beside it when it could
 * hold capacity. Documentation, lock files and binaries, which nothing applies (the floor's rule,
 * `mayBeApplied`), are not read over the limit, and nothing is said: a 2 MB package-lock.json is no
 * capacity, and the App does not download it either.
 */
export function oversize(path: string, text: string, parsers: readonly CapacityParser[], changed: boolean): ParseResult {
  if (!mayBeApplied(path)) return NOTHING;
  if (!changed && !parsers.some((p) => p.mightContain(path, text))) return NOTHING;
  return {
    decls: [],
    diagnostics: [
      diagnostic(
        path,
        null,
        'error',
        `${describeSize(text.length)}, over the ${describeSize(MAX_FILE_CHARS)} gpu-justify reads: its GPU capacity was not checked`,
      ),
    ],
    unresolved: [],
  };
}

// A kustomization names its bases and patch files; a chain of overlays is short.
const MAX_REFERENCED_FILES = 64;

/** Adds the files the set's files name (and those they name), as far as they exist on this side. */
export async function readReferences(
  reader: TreeReader,
  mayExist: Sides['mayExist'],
  parser: CapacityParser,
  files: SourceFile[],
  tooLarge: ParseResult[],
): Promise<void> {
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
      const text = (await mayExist(path)) ? await reader.read(path) : null;
      if (text === null) continue;
      added++;
      if (text.length > MAX_FILE_CHARS) {
        tooLarge.push(oversize(path, text, [parser], false));
        continue;
      }
      const ref = { path, text };
      files.push(ref);
      queue.push(ref);
    }
  }
}
