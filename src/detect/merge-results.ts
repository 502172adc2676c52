import { accountedOf } from './parser.js';
import type { AccountedLines, Accounting, Coverage, ObjectRef, ParseResult, SetParseResult, Unfollowed } from './parser.js';

/** Merged findings, with what was not followed and what each result accounts for always listed. */
export type Merged = Required<ParseResult> & { notFollowed: Unfollowed[]; accounted: AccountedLines[] };

/**
 * Per-file results, less those of files a set result reads in context (kustomize patches) and of
 * objects a set result reports as rendered (a base's queue through its overlays), plus the set
 * results. Two sets may render the same overlay (a PR changing a base and an overlay's patch):
 * what they find is counted once.
 */
export function combine(
  files: readonly (ParseResult & Coverage & Accounting)[],
  sets: readonly (SetParseResult & Coverage & Accounting)[],
): Merged {
  const gone = new Set(sets.flatMap((r) => r.supersedes ?? []));
  const refKey = (r: ObjectRef) => `${r.file}\u0000${r.kind}\u0000${r.name}`;
  const rendered = new Set(sets.flatMap((r) => (r.replaces ?? []).map(refKey)));
  const kept = (x: { file: string }) => !gone.has(x.file);
  const keptObject = (x: ObjectRef) => kept(x) && !rendered.has(refKey(x));
  const perFile = merge(files);
  const own = merge(sets);
  return {
    decls: [...perFile.decls.filter(keptObject), ...unique(own.decls, (d) => `${refKey(d)}\u0000${d.line}`)],
    diagnostics: [
      ...perFile.diagnostics.filter(kept),
      ...unique(own.diagnostics, (d) => `${d.file}\u0000${d.line}\u0000${d.severity}\u0000${d.message}`),
    ],
    unresolved: [...perFile.unresolved.filter(keptObject), ...unique(own.unresolved, (u) => `${refKey(u)}\u0000${u.line}`)],
    notFollowed: [
      ...perFile.notFollowed.filter(kept),
      ...unique(own.notFollowed, (n) => `${n.file}\u0000${n.line}\u0000${n.reason}\u0000${n.subject}`),
    ],
    // What a parser read stays read, whichever reading of the file is kept (a kustomize patch is
    // read on its own and in its overlay's render).
    accounted: [...perFile.accounted, ...own.accounted],
  };
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && Boolean(seen.add(key(item))));
}

export function merge(results: readonly (ParseResult & Coverage & Accounting)[]): Merged {
  return {
    decls: results.flatMap((r) => r.decls),
    diagnostics: results.flatMap((r) => r.diagnostics),
    unresolved: results.flatMap((r) => r.unresolved ?? []),
    notFollowed: results.flatMap((r) => r.notFollowed ?? []),
    accounted: results.flatMap(accountedOf),
  };
}
