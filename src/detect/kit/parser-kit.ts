import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, CapacityKind, Diagnostic, Severity } from '../../domain/index.js';
import { clampLine } from './lines.js';
import type { Accounting, CapacityParser, Coverage, ParseResult, Unfollowed, UnresolvedDecl } from '../parser.js';
import { fileFormat } from './yaml-segments.js';

/** Collects what one parse finds. */
export class Findings {
  readonly decls: CapacityDecl[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly unresolved: UnresolvedDecl[] = [];
  readonly notFollowed: Unfollowed[] = [];

  constructor(readonly file: string) {}

  note(line: number | null, severity: Severity, message: string): void {
    this.diagnostics.push(diagnostic(this.file, line, severity, message));
  }

  unknown(kind: CapacityKind, name: string, line: number, unboundedBy?: string): void {
    this.unresolved.push({ file: this.file, line, kind, name, ...(unboundedBy === undefined ? {} : { unboundedBy }) });
  }

  result(text: string): Required<ParseResult> & Coverage {
    for (const d of this.diagnostics) if (d.line !== null) d.line = clampLine(d.line, text);
    for (const d of this.decls) {
      d.line = clampLine(d.line, text);
      for (const p of d.parts) p.line = clampLine(p.line, text);
    }
    for (const u of this.unresolved) u.line = clampLine(u.line, text);
    for (const n of this.notFollowed) if (n.line !== null) n.line = clampLine(n.line, text);
    const out = { decls: this.decls, diagnostics: this.diagnostics, unresolved: this.unresolved };
    return this.notFollowed.length === 0 ? out : { ...out, notFollowed: this.notFollowed };
  }
}

/**
 * A YAML-based parser: path check by file format, a cheap marker check on the raw text, and a
 * parse that cannot throw (an internal fault becomes one error diagnostic).
 */
export function yamlParser(
  id: string,
  markers: RegExp,
  parse: (path: string, text: string) => ParseResult & Coverage & Accounting,
): CapacityParser {
  return {
    id,
    acceptsPath: (path) => fileFormat(path) !== null,
    mightContain: (path, text) => fileFormat(path, text) !== null && markers.test(text),
    parse(path, text) {
      try {
        if (fileFormat(path, text) === null || !markers.test(text)) return { decls: [], diagnostics: [], unresolved: [] };
        return parse(path, text);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return { decls: [], diagnostics: [diagnostic(path, null, 'error', `${id} parser failed: ${message}`)], unresolved: [] };
      }
    },
  };
}
