import type { UtilisationLadder } from '../domain/index.js';
import { MAX_SENTENCE, md, mermaidText } from './escape.js';
import { num, pct } from './numbers.js';
import { capped } from './tables.js';
import { flagText } from './findings.js';

/** Bars a chart draws at most: beyond this the x-axis labels stop being readable. */
const MAX_LADDER_BARS = 8;

const FIELD_NAME: Record<NonNullable<UtilisationLadder['computeField']>, string> = {
  DCGM_FI_PROF_SM_ACTIVE: 'SM',
  DCGM_FI_PROF_GR_ENGINE_ACTIVE: 'GR engine',
};

/** A rung's GPU-hours as a share of the allocated ones; null when either is unmeasured. */
function share(l: UtilisationLadder, hours: number | null): number | null {
  if (hours === null || l.allocatedGpuHours === null || l.allocatedGpuHours <= 0) return null;
  return hours / l.allocatedGpuHours;
}

function busy(l: UtilisationLadder): number | null {
  return l.busyFraction ?? share(l, l.busyGpuHours);
}

function field(l: UtilisationLadder): string {
  return l.computeField === null ? '' : ` (${FIELD_NAME[l.computeField]})`;
}

function productive(l: UtilisationLadder): string {
  if (l.outcomesPerGpuHour === null) return '—';
  return `${num(l.outcomesPerGpuHour)}${l.verifiedOutcomes === null ? '' : ` (${num(l.verifiedOutcomes)} verified)`}`;
}

/** Ladders with at least an allocation: the rest have nothing to climb from. */
export function measuredLadders(ladders: readonly UtilisationLadder[] | undefined): UtilisationLadder[] {
  return (ladders ?? []).filter((l) => l.allocatedGpuHours !== null && l.allocatedGpuHours > 0);
}

export function ladderTable(ladders: readonly UtilisationLadder[]): string {
  const rows = ladders.map((l) => [
    l.scope,
    md(l.name),
    num(l.allocatedGpuHours),
    pct(busy(l)),
    `${pct(share(l, l.computingGpuHours))}${field(l)}`,
    pct(share(l, l.tensorGpuHours)),
    productive(l),
    // The flags' reasons are in the text above the table; the cell only names them.
    l.flags.length === 0 ? '—' : l.flags.map((f) => `**${f.kind}**`).join(', '),
  ]);
  const header = [
    'Scope',
    'Name',
    'Allocated GPU-hours',
    'Busy',
    'Computing (metric)',
    'Tensor',
    'Verified outcomes per GPU-hour',
    'Flags',
  ];
  return capped(header, rows, 'ladders');
}

/** One ladder in words: every rung and flag, for readers who cannot see the bars. */
function ladderLine(l: UtilisationLadder): string {
  const rungs = [
    `${num(l.allocatedGpuHours)} GPU-hours allocated`,
    `busy ${pct(busy(l))}`,
    `computing ${pct(share(l, l.computingGpuHours))}${field(l)}`,
    `tensor ${pct(share(l, l.tensorGpuHours))}`,
    ...(l.outcomesPerGpuHour === null ? [] : [`${num(l.outcomesPerGpuHour)} verified outcomes per GPU-hour`]),
  ];
  const flags = l.flags.map((f) => `\n  - **${f.kind}**: ${md(flagText(f), MAX_SENTENCE)}`).join('');
  // Bold ends only at a non-space: a name ending in a space would leave the asterisks showing.
  return `- ${l.scope} **${md(l.name.trim()) || '(no name)'}**: ${rungs.join(' → ')}.${flags}`;
}

export function ladderText(ladders: readonly UtilisationLadder[]): string {
  const lines = ladders.slice(0, MAX_LADDER_BARS).map(ladderLine);
  const left = ladders.length - lines.length;
  return lines.join('\n') + (left > 0 ? `\n- …and ${left} more in the table.` : '');
}

// Colours in plot order: allocated (grey, the full bar), busy, computing, tensor. Each later
// series is drawn over the earlier one at the same place, so the shorter rungs nest inside.
const PALETTE = ['#8c959f', '#2f81f7', '#3fb950', '#a371f7'];

const percentOf = (x: number | null): number => (x === null ? 0 : Math.round(Math.min(1, Math.max(0, x)) * 1000) / 10);

/**
 * The ladder as bars: one column per pool, queue or workload, allocated at 100% with busy,
 * computing and tensor drawn inside it. Verified outcomes are not a share, so they stay in text.
 */
export function ladderChart(ladders: readonly UtilisationLadder[]): string {
  const shown = ladders.slice(0, MAX_LADDER_BARS);
  // Mermaid draws equal labels on one spot: number repeats so every column keeps its own.
  const seen = new Map<string, number>();
  const labels = shown.map((l) => {
    const base = mermaidText(l.name, 20) || l.scope;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `"${n > 1 ? `${base} ${n}` : base}"`;
  });
  const series = (pick: (l: UtilisationLadder) => number | null) => `[${shown.map((l) => percentOf(pick(l))).join(', ')}]`;
  const title = 'Share of allocated GPU-hours busy, computing and on tensor cores';
  // Mermaid reads `%` as a comment: the description says "percent".
  const spoken = (x: number | null) => pct(x).replace('%', ' percent');
  const describe = shown
    .map(
      (l) =>
        `${mermaidText(l.name, 40)} busy ${spoken(busy(l))}, computing ${spoken(share(l, l.computingGpuHours))}, tensor ${spoken(share(l, l.tensorGpuHours))}`,
    )
    .join(', ');
  const lines = [
    'xychart-beta',
    `  %%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${PALETTE.join(', ')}"}}}}%%`,
    `  title "${title}"`,
    `  accTitle: ${title}`,
    `  accDescr: ${mermaidText(describe, 1500)}`,
    `  x-axis [${labels.join(', ')}]`,
    '  y-axis "% of allocated GPU-hours" 0 --> 100',
    `  bar ${series(() => 1)}`,
    `  bar ${series(busy)}`,
    `  bar ${series((l) => share(l, l.computingGpuHours))}`,
    `  bar ${series((l) => share(l, l.tensorGpuHours))}`,
  ];
  return ['```mermaid', ...lines, '```'].join('\n');
}

export const LADDER_LEGEND =
  'Key: grey: allocated (100%) · blue: busy · green: computing (SM or graphics-engine activity) · purple: tensor cores. ' +
  'Each bar is drawn inside the one before; verified outcomes per GPU-hour, the productive rung, are in the table.';
