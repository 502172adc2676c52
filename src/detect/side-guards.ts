import { diagnostic } from '../domain/index.js';
import type { Diagnostic } from '../domain/index.js';
import { pairDecls } from './match-decls.js';
import type { ParseResult } from './parser.js';

/*
 * What one side of a change may not hide about the other: a count that could not be read on
 * either side makes the change unknown, and a head that cannot be parsed is not a removal.
 */

/**
 * A head whose count cannot be read (not a number, negative, absurd, a template expression) where
 * the base's was known, or a new object of unknown count: the PR may grow GPU capacity by any
 * amount, so the change is unreadable. An error, so no confident verdict is given on it; a file
 * the head cannot parse at all keeps its base objects (see keepUnparsed), so it is never read as
 * the declarations removed.
 */
export function unknownAfter(base: ParseResult, head: ParseResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A file with an error already says why it cannot be read.
  const erred = new Set(head.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  for (const { before, after } of pairDecls(base, head)) {
    if (!after || after.decl || after.unboundedBy !== undefined || (before && !before.decl) || erred.has(after.file)) continue;
    const was = before?.decl ? `it was ${before.decl.gpus} GPUs at ${before.file}:${before.line}` : 'it is new';
    out.push(
      diagnostic(
        after.file,
        after.line,
        'error',
        `${after.name}: the GPU count after this change could not be read (${was}), so the change is unknown`,
      ),
    );
  }
  return out;
}

/**
 * The base's objects of a file the head side has an error on and no objects in: the head could not
 * be read, which is not the same as its objects having been removed. Kept as unresolved at head.
 */
export function keepUnparsed<R extends ParseResult>(base: ParseResult, head: R): R {
  const unreadable = new Set(head.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  const present = new Set([...head.decls, ...(head.unresolved ?? [])].map((d) => d.file));
  const kept = [...base.decls, ...(base.unresolved ?? [])]
    .filter((d) => unreadable.has(d.file) && !present.has(d.file))
    .map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name }));
  return kept.length === 0 ? head : { ...head, unresolved: [...(head.unresolved ?? []), ...kept] };
}

/** A count known at head that was not before: the change is unknown (or the pool was unbounded). */
export function unknownBefore(base: ParseResult, head: ParseResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { before, after } of pairDecls(base, head)) {
    if (!before || before.decl || !after?.decl) continue;
    if (before.unboundedBy !== undefined) {
      // A pool with no GPU limit is not an unknown quota: nothing bounded it.
      out.push(
        diagnostic(
          after.file,
          after.line,
          'warning',
          `${after.name}: the pool was unbounded before this change (no ${before.unboundedBy} limit at ${before.file}:${before.line}); it is now limited to ${after.decl.gpus} GPUs`,
        ),
      );
      continue;
    }
    out.push(
      diagnostic(
        after.file,
        after.line,
        'warning',
        `${after.name}: the GPU quota before this change (${before.file}:${before.line}) could not be read, so the change is unknown; it is now ${after.decl.gpus} GPUs`,
      ),
    );
  }
  return out;
}
