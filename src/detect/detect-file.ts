import { diagnostic } from '../domain/index.js';
import type { CapacityParser, ParseOutcome, ParseResult, Unfollowed } from './parser.js';
import { PARSERS } from './registry.js';

/** Runs every parser that claims the file and merges what they found. */
export function detectFile(path: string, text: string, parsers: readonly CapacityParser[] = PARSERS): ParseOutcome {
  const merged: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };
  const notFollowed: Unfollowed[] = [];
  for (const parser of parsers) {
    let result: ParseOutcome;
    try {
      if (!parser.mightContain(path, text)) continue;
      result = parser.parse(path, text);
    } catch (err) {
      // Parsers must not throw; one that does must not take the other formats down with it.
      const message = err instanceof Error ? err.message : String(err);
      merged.diagnostics.push(diagnostic(path, null, 'error', `${parser.id} parser failed: ${message}`));
      continue;
    }
    merged.decls.push(...result.decls);
    merged.diagnostics.push(...result.diagnostics);
    merged.unresolved.push(...(result.unresolved ?? []));
    notFollowed.push(...(result.notFollowed ?? []));
  }
  return notFollowed.length === 0 ? merged : { ...merged, notFollowed };
}

/** True when some parser could want the file, judging by its path alone. */
export function anyParserAccepts(path: string, parsers: readonly CapacityParser[] = PARSERS): boolean {
  return parsers.some((p) => p.acceptsPath?.(path) ?? true);
}
