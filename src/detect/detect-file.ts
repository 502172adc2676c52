import { diagnostic } from '../domain/index.js';
import { mayNameGpusIn, scansPath } from './kit/signal-scan/account.js';
import { accountedOf } from './parser.js';
import type { AccountedLines, Accounting, CapacityParser, ParseOutcome, ParseResult, Unfollowed } from './parser.js';
import { PARSERS } from './registry.js';

/** Runs every parser that claims the file and merges what they found. */
export function detectFile(path: string, text: string, parsers: readonly CapacityParser[] = PARSERS): ParseOutcome & Accounting {
  const merged: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };
  const notFollowed: Unfollowed[] = [];
  // Each parser's account is resolved here, while it is known which parser gave which finding.
  const accounted: AccountedLines[] = [];
  for (const parser of parsers) {
    let result: ParseOutcome & Accounting;
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
    accounted.push(...accountedOf(result));
  }
  return { ...merged, accounted, ...(notFollowed.length === 0 ? {} : { notFollowed }) };
}

/**
 * True when detection reads the file, judging by its path alone: some parser could want it, or the
 * floor scans it for GPU names (any text that could be applied; see kit/signal-scan/).
 */
export function detectionReads(path: string, parsers: readonly CapacityParser[] = PARSERS): boolean {
  return scansPath(path) || anyParserAccepts(path, parsers);
}

/** Some parser's cheap check passes on the text, or the floor's does (it may name a GPU). */
export function mightHoldCapacity(path: string, text: string, parsers: readonly CapacityParser[] = PARSERS): boolean {
  return mayNameGpusIn(path, text) || parsers.some((p) => (p.acceptsPath?.(path) ?? true) && p.mightContain(path, text));
}

/** True when some parser could want the file, judging by its path alone. */
export function anyParserAccepts(path: string, parsers: readonly CapacityParser[] = PARSERS): boolean {
  return parsers.some((p) => p.acceptsPath?.(path) ?? true);
}
