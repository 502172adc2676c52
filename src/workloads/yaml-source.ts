import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import { parseDocumentLinear } from '../util/yaml-linear.js';
import type { Document, Node } from 'yaml';
import { diagnostic } from '../domain/diagnostic.js';
import { MAX_FILE_CHARS, describeSize } from '../domain/limits.js';
import type { Diagnostic } from '../domain/diagnostic.js';

export type FieldPath = readonly PropertyKey[];

/** Parser errors that a misindented line causes, whatever the message says. */
const INDENT_ERRORS = new Set(['BAD_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY', 'MISSING_CHAR', 'UNEXPECTED_TOKEN']);

/** Maps a field path (as zod reports it) to the 1-based line that names it; null when unknown. */
export type LineOf = (path: FieldPath) => number | null;

export type YamlSource =
  | { kind: 'value'; value: unknown; lineOf: LineOf; diagnostics: Diagnostic[] }
  | { kind: 'empty'; diagnostics: Diagnostic[] }
  | { kind: 'invalid'; diagnostics: Diagnostic[] };

/** Parses one YAML document, keeping positions so later errors can name a line. Never throws. */
export function loadYaml(file: string, text: string): YamlSource {
  if (text.length > MAX_FILE_CHARS) {
    return {
      kind: 'invalid',
      diagnostics: [
        diagnostic(
          file,
          null,
          'error',
          `${describeSize(text.length)}, over the ${describeSize(MAX_FILE_CHARS)} gpu-justify reads: not read`,
        ),
      ],
    };
  }
  const lineCounter = new LineCounter();
  // Merge keys (`<<: *base`) are resolved as YAML 1.1, kubectl and Probot's own loader read them:
  // an entry built through one is read as written, never dropped as malformed, so demand a pull
  // request declares that way is judged as declared demand like any other entry.
  const doc = parseDocumentLinear(text, { lineCounter, prettyErrors: false, merge: true });
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line;
  const warnings = doc.warnings.map((w) => diagnostic(file, lineAt(w.pos[0]), 'warning', `YAML: ${w.message}`));
  if (doc.errors.length > 0) {
    // One mistake often trips several parser errors on the same line; the first says the most.
    // The later ones still tell how far the mistake reaches, and whether indentation caused it.
    const byLine = new Map<number, { message: string; end: number; indent: boolean }>();
    for (const e of doc.errors) {
      const line = lineAt(e.pos[0]);
      const end = lineAt(Math.max(e.pos[0], e.pos[1] - 1));
      const indent = INDENT_ERRORS.has(e.code);
      const seen = byLine.get(line);
      if (seen === undefined) byLine.set(line, { message: e.message, end, indent });
      else byLine.set(line, { ...seen, end: Math.max(seen.end, end), indent: seen.indent || indent });
    }
    const errors = [...byLine].map(([line, e]) => {
      const where = e.end > line ? `lines ${line}–${e.end}` : `line ${line}`;
      const hint = e.indent && !/indent/i.test(e.message) ? `; check the indentation of ${where}` : e.end > line ? ` (${where})` : '';
      return diagnostic(file, line, 'error', `invalid YAML: ${e.message}${hint}`);
    });
    return { kind: 'invalid', diagnostics: [...errors, ...warnings] };
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return { kind: 'empty', diagnostics: warnings };
  }
  let value: unknown;
  try {
    // The alias limit guards against "billion laughs" documents.
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      kind: 'invalid',
      diagnostics: [diagnostic(file, null, 'error', `invalid YAML: ${message}`), ...warnings],
    };
  }
  return { kind: 'value', value, lineOf: lineFinder(doc, lineAt), diagnostics: warnings };
}

/**
 * The line of the deepest node along `path`. A map entry is located by its key, so an unknown or
 * mistyped field points at the line that names it; a missing field falls back to its parent.
 */
function lineFinder(doc: Document, lineAt: (offset: number) => number): LineOf {
  const lineOfNode = (node: Node | null | undefined): number | null => (node?.range ? lineAt(node.range[0]) : null);
  return (path) => {
    let node: unknown = doc.contents;
    let line = lineOfNode(doc.contents);
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
        if (!pair) return line;
        line = lineOfNode(pair.key as Node | null) ?? line;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item: unknown = node.items[segment];
        if (item === undefined) return line;
        line = lineOfNode(item as Node) ?? line;
        node = item;
      } else {
        return line;
      }
    }
    return line;
  };
}
