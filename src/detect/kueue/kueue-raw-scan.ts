import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { isGpuResource } from '../kit/gpu-resources.js';
import { KUEUE_KIND } from './kueue-queue.js';
import type { UnresolvedDecl } from '../parser.js';
import { findTemplateExpression, hasTemplateSyntax } from '../kit/template.js';

/**
 * Reads what it can from the raw lines of a ClusterQueue document the YAML parser rejected:
 * Helm and Go templates are not YAML until rendered, so their quotas are found line by line
 * and reported by expression rather than counted.
 */
export interface BrokenDocument {
  /** 1-based, inclusive. */
  fromLine: number;
  toLine: number;
  errorLine: number;
  errorMessage: string;
}

export interface ScanResult {
  diagnostics: Diagnostic[];
  unresolved: UnresolvedDecl[];
}

const KIND_LINE_RE = /^(\s*)(?:-\s+)?kind:\s*(\S+?)\s*(?:#.*)?$/;
const QUOTA_LINE_RE = /^(\s*)(?:-\s+)?nominalQuota:\s*(.*?)\s*(?:\s#.*)?$/;
const NAME_LINE_RE = /^(\s*)(?:-\s+)?name:\s*(.*?)\s*(?:\s#.*)?$/;

export function scanBrokenDocument(file: string, lines: readonly string[], doc: BrokenDocument, embedded: boolean): ScanResult {
  const result: ScanResult = { diagnostics: [], unresolved: [] };
  const line = (n: number) => lines[n - 1] ?? '';
  const queueStarts: number[] = [];
  for (let n = doc.fromLine; n <= doc.toLine; n++) {
    if (unquote(KIND_LINE_RE.exec(line(n))?.[2] ?? '') === 'ClusterQueue') queueStarts.push(n);
  }
  if (queueStarts.length === 0) {
    const body = lines.slice(doc.fromLine - 1, doc.toLine).join('\n');
    if (/\bClusterQueue\b/.test(body) && !hasTemplateSyntax(body)) {
      result.diagnostics.push(yamlError(file, doc, embedded, 'a document that mentions ClusterQueue'));
    }
    return result;
  }

  for (const start of queueStarts) {
    const end = regionEnd(lines, start, doc.toLine);
    const name = queueName(lines, start, end, doc.fromLine);
    const label = name === null ? 'ClusterQueue (templated name)' : `ClusterQueue ${name}`;
    const region = lines.slice(start - 1, end).join('\n');
    if (name !== null) result.unresolved.push({ file, line: start, kind: KUEUE_KIND, name });

    if (!hasTemplateSyntax(region)) {
      result.diagnostics.push(yamlError(file, doc, embedded, label));
      continue;
    }
    let reported = 0;
    for (let n = start; n <= end; n++) {
      const quota = QUOTA_LINE_RE.exec(line(n));
      const value = quota?.[2] ?? '';
      if (!quota || findTemplateExpression(value) === null) continue;
      const resource = resourceName(lines, n, (quota[1] ?? '').length);
      if (resource !== null && findTemplateExpression(resource) === null && !isGpuResource(resource)) continue;
      const what =
        resource === null || findTemplateExpression(resource) !== null
          ? `a resource named by template (${resource ?? 'unknown'})`
          : resource;
      result.diagnostics.push(
        diagnostic(
          file,
          n,
          'warning',
          `${label}: nominalQuota of ${what} is the template expression ${value}; the GPU quota cannot be read until the template is rendered`,
        ),
      );
      reported++;
    }
    if (reported === 0) {
      result.diagnostics.push(
        diagnostic(
          file,
          start,
          'warning',
          `${label} is a template that is not valid YAML until rendered (line ${doc.errorLine}); its GPU quota was not read`,
        ),
      );
    }
  }
  return result;
}

function yamlError(file: string, doc: BrokenDocument, embedded: boolean, what: string): Diagnostic {
  // Examples in docs and scripts are not applied as they stand: a warning, not an error.
  return diagnostic(
    file,
    doc.errorLine,
    embedded ? 'warning' : 'error',
    `YAML error in ${what}: ${doc.errorMessage}; its GPU quota was not read`,
  );
}

/** The object ends at the next `kind:` at the same or a shallower indentation. */
function regionEnd(lines: readonly string[], start: number, last: number): number {
  const indent = (KIND_LINE_RE.exec(lines[start - 1] ?? '')?.[1] ?? '').length;
  for (let n = start + 1; n <= last; n++) {
    const m = KIND_LINE_RE.exec(lines[n - 1] ?? '');
    if (m && (m[1] ?? '').length <= indent) return n - 1;
  }
  return last;
}

/** metadata.name when written literally; null when absent or templated. */
function queueName(lines: readonly string[], start: number, end: number, docStart: number): string | null {
  const search = (from: number, to: number): string | null => {
    for (let n = from; n <= to; n++) {
      const meta = /^(\s*)metadata:\s*$/.exec(lines[n - 1] ?? '');
      if (!meta) continue;
      for (let k = n + 1; k <= to; k++) {
        const m = NAME_LINE_RE.exec(lines[k - 1] ?? '');
        if (m && (m[1] ?? '').length > (meta[1] ?? '').length) {
          const value = unquote(m[2] ?? '');
          return value === '' || findTemplateExpression(value) !== null ? null : value;
        }
      }
      return null;
    }
    return null;
  };
  return search(start, end) ?? search(docStart, start - 1);
}

/** The `name:` of the list item holding the quota line, looking up to the item's dash. */
function resourceName(lines: readonly string[], quotaLine: number, quotaIndent: number): string | null {
  const own = /^(\s*)-\s/.exec(lines[quotaLine - 1] ?? '');
  if (own) {
    // `- nominalQuota: …` opens the item: its name follows.
    const itemIndent = (own[1] ?? '').length;
    for (let n = quotaLine + 1; n <= Math.min(lines.length, quotaLine + 12); n++) {
      const text = lines[n - 1] ?? '';
      if (/^\s*(#|\{\{|$)/.test(text)) continue;
      if ((/^(\s*)/.exec(text)?.[1] ?? '').length <= itemIndent) break;
      const m = NAME_LINE_RE.exec(text);
      if (m) return unquote(m[2] ?? '');
    }
    return null;
  }
  for (let n = quotaLine - 1; n >= Math.max(1, quotaLine - 12); n--) {
    const text = lines[n - 1] ?? '';
    if (/^\s*(#|\{\{|$)/.test(text)) continue;
    const m = NAME_LINE_RE.exec(text);
    if (m && (m[1] ?? '').length <= quotaIndent) return unquote(m[2] ?? '');
    const dash = /^(\s*)-\s/.exec(text);
    if (dash && (dash[1] ?? '').length < quotaIndent) break;
    if ((/^(\s*)/.exec(text)?.[1] ?? '').length < quotaIndent) break;
  }
  return null;
}

function unquote(value: string): string {
  const m = /^(["'])(.*)\1$/.exec(value);
  return m ? (m[2] ?? '') : value;
}
