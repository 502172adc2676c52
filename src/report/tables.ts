import { markdownTable } from 'markdown-table';
import type { CapacityChange, ChangeReview, Diagnostic, Finding } from '../domain/index.js';
import { monthlyUsd, usd } from './cost.js';
import { code, codeCell, MAX_SENTENCE, md } from './escape.js';

const MAX_ROWS = 50;

/** Cuts a long table and says how much was left out, so the comment stays within GitHub's limit. */
function capped(header: string[], rows: string[][], what: string): string {
  const shown = rows.slice(0, MAX_ROWS);
  const table = markdownTable([header, ...shown]);
  const left = rows.length - shown.length;
  return left > 0 ? `${table}\n\n…and ${left} more ${what} not shown.` : table;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** `file:line`, linked to the PR head when a base URL for blobs is known. */
export function location(file: string, line: number | null, headUrl?: string): string {
  const where = line === null ? file : `${file}:${line}`;
  if (!headUrl) return codeCell(where);
  const text = md(where, MAX_SENTENCE);
  const anchor = line === null ? '' : `#L${line}`;
  return `[${text}](${headUrl}/${file.split('/').map(encodeURIComponent).join('/')}${anchor})`;
}

export function changesTable(changes: CapacityChange[], headUrl?: string): string {
  // The cost column only when the detector priced at least one change; unpriced rows say so.
  const priced = changes.some((c) => monthlyUsd(c) !== null);
  const rows = changes.map((c) => {
    const cost = monthlyUsd(c);
    return [
      location(c.file, c.line, headUrl),
      c.kind,
      md(c.name),
      md(c.gpuModel ?? '—'),
      `${c.gpusBefore} → ${c.gpusAfter}`,
      signed(c.delta),
      ...(priced ? [cost === null ? 'unknown' : usd(cost, true)] : []),
    ];
  });
  const header = ['Where', 'Kind', 'Pool or queue', 'GPU model', 'GPUs before → after', 'Δ GPUs', ...(priced ? ['Δ USD/month'] : [])];
  return capped(header, rows, 'changes');
}

export function reviewsTable(reviews: ChangeReview[]): string {
  const rows = reviews.map((r) => [
    md(r.change.name),
    r.verdict,
    r.need === null ? 'unknown' : String(r.need),
    r.gpusNeeded === null ? 'unknown' : String(r.gpusNeeded),
    md(r.reason, MAX_SENTENCE),
  ]);
  return capped(['Pool or queue', 'Verdict', 'GPUs needed in all', 'GPUs to add', 'Why'], rows, 'changes');
}

export function leversTable(findings: Finding[]): string {
  const rows = findings.map((f) => [
    f.lever,
    String(f.gpusFreed),
    f.meetsNeed ? 'yes' : 'no',
    f.confidence ?? '—',
    md(f.summary, MAX_SENTENCE),
    f.evidence.map((e) => `${e.source}: ${md(e.ref, MAX_SENTENCE)}`).join('<br>'),
  ]);
  return capped(['Lever', 'GPUs freed', 'Meets the need', 'Confidence', 'What', 'Evidence'], rows, 'findings');
}

export function diagnosticsList(diagnostics: Diagnostic[]): string {
  const lines = diagnostics.map((d) => {
    const where = d.line === null ? d.file : `${d.file}:${d.line}`;
    return `- **${d.severity}** ${code(where)}: ${md(d.message, MAX_SENTENCE)}`;
  });
  const shown = lines.slice(0, MAX_ROWS);
  const left = lines.length - shown.length;
  return shown.join('\n') + (left > 0 ? `\n- …and ${left} more not shown.` : '');
}
