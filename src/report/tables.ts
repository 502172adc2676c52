import { gpusText } from './numbers.js';
import { markdownTable } from 'markdown-table';
import type { CapacityChange, ChangeReview, Diagnostic, Finding } from '../domain/index.js';
import { monthlyUsd, usd } from './cost.js';
import { gpusCell, sharingSentence } from './sharing.js';
import { code, codeCell, MAX_SENTENCE, md } from './escape.js';
import { reviewReason } from './reasons.js';
import { evidenceRef } from './bound-proof.js';
import { findingText } from './findings.js';

const MAX_ROWS = 50;

/** Cuts a long table and says how much was left out, so the comment stays within GitHub's limit. */
export function capped(header: string[], rows: string[][], what: string): string {
  const shown = rows.slice(0, MAX_ROWS);
  const table = markdownTable([header, ...shown]);
  const left = rows.length - shown.length;
  return left > 0 ? `${table}\n\n…and ${left} more ${what} not shown.` : table;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** `file:line`, linked to the PR head when a base URL for blobs is known. */
function location(file: string, line: number | null, headUrl?: string): string {
  const where = line === null ? file : `${file}:${line}`;
  if (!headUrl) return codeCell(where);
  const text = md(where, MAX_SENTENCE);
  const anchor = line === null ? '' : `#L${line}`;
  return `[${text}](${headUrl}/${file.split('/').map(urlSegment).join('/')}${anchor})`;
}

/** A path segment for a URL; a lone surrogate (no path GitHub serves has one) would make encodeURIComponent throw. */
function urlSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
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
      md(gpusCell(c)),
      signed(c.delta),
      ...(priced ? [cost === null ? 'unknown' : usd(cost, true)] : []),
    ];
  });
  const header = ['Where', 'Kind', 'Pool or queue', 'GPU model', 'GPUs before → after', 'Δ GPUs', ...(priced ? ['Δ USD/month'] : [])];
  return capped(header, rows, 'changes');
}

const CONFIDENCE: Record<NonNullable<ChangeReview['confidence']>, string> = {
  high: 'high',
  medium: 'medium: some telemetry missing',
  low: 'low: telemetry answered too little',
  inferred: 'inferred: from telemetry, no catalog',
};

/** Without telemetry every number is as the files document it: one word for that, everywhere. */
const FILES_ONLY = 'low: files only';

function confidenceCell(level: ChangeReview['confidence'], filesOnly: boolean): string {
  if (filesOnly) return FILES_ONLY;
  return level === undefined ? '—' : CONFIDENCE[level];
}

export function reviewsTable(reviews: ChangeReview[], filesOnly: boolean): string {
  // Columns for the measured review only when some change has them, so file-only reviews stay short.
  const withLevers = reviews.some((r) => r.needWithoutLevers !== undefined && r.needWithoutLevers !== r.need);
  const trusted = reviews.some((r) => r.confidence !== undefined);
  const rows = reviews.map((r) => [
    md(r.change.name),
    r.verdict,
    ...(withLevers ? [r.needWithoutLevers === undefined || r.needWithoutLevers === null ? 'unknown' : String(r.needWithoutLevers)] : []),
    r.need === null ? 'unknown' : String(r.need),
    r.gpusNeeded === null ? 'unknown' : String(r.gpusNeeded),
    ...(trusted ? [confidenceCell(r.confidence, filesOnly)] : []),
    md(r.sharing ? `${sharingSentence(r.sharing)} ${reviewReason(r)}` : reviewReason(r), MAX_SENTENCE),
  ]);
  const header = [
    'Pool or queue',
    'Verdict',
    ...(withLevers ? ['Need with headroom, no lever'] : []),
    withLevers ? 'Need with headroom, with levers' : 'Need with headroom',
    'GPUs to add',
    ...(trusted ? ['Confidence'] : []),
    'Why',
  ];
  return capped(header, rows, 'changes');
}

/** Evidence lines a lever's cell lists before counting the rest: a lever over many jobs cites each. */
const MAX_EVIDENCE = 4;

function evidenceCell(f: Finding): string {
  const shown = f.evidence.slice(0, MAX_EVIDENCE).map((e) => `${e.source}: ${md(evidenceRef(e), MAX_SENTENCE)}`);
  const left = f.evidence.length - shown.length;
  return [...shown, ...(left > 0 ? [`…and ${left} more`] : [])].join('<br>');
}

/** What "GPUs saved" counts: the analysis measures stagger against the request, the rest against use. */
const SAVED_NOTE =
  '_GPUs saved: for stagger, how many of the GPUs to add it makes unnecessary; for the other levers, how many GPUs in use it frees._';

/** Which levers meet the need only together, per change: a finding's "alone" column cannot say it. */
function togetherNote(reviews: readonly ChangeReview[]): string | null {
  const lines = reviews.flatMap((r) => {
    const c = r.combination;
    if (c === undefined || c.levers.length < 2) return [];
    const what = c.meetsNeed ? 'meet the need together' : `together leave ${r.gpusNeeded ?? 'unknown'} GPUs to add`;
    return [`- ${md(r.change.name)}: ${c.levers.join(' + ')} ${what}.`];
  });
  return lines.length === 0 ? null : `Levers combined:\n\n${lines.join('\n')}`;
}

export function leversTable(findings: Finding[], filesOnly: boolean, reviews: readonly ChangeReview[] = []): string {
  const rows = findings.map((f) => [
    f.lever,
    gpusText(f.gpusFreed),
    f.meetsNeed ? 'yes' : 'no',
    filesOnly ? FILES_ONLY : (f.confidence ?? '—'),
    md(findingText(f), MAX_SENTENCE),
    evidenceCell(f),
  ]);
  const together = togetherNote(reviews);
  const table = capped(['Lever', 'GPUs saved', 'Meets the need alone', 'Confidence', 'What', 'Evidence'], rows, 'findings');
  return `${table}\n\n${together === null ? '' : `${together}\n\n`}${SAVED_NOTE}`;
}

/** Notes are not problems: a reader skips a section titled "problems" that holds only notes. */
export function diagnosticsTitle(diagnostics: readonly Diagnostic[]): string {
  const problems = diagnostics.filter((d) => d.severity !== 'info').length;
  const notes = diagnostics.length - problems;
  if (problems === 0) return `Notes on the files (${notes})`;
  return notes === 0 ? `Problems reading the files (${problems})` : `Problems reading the files (${problems}) and notes (${notes})`;
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
