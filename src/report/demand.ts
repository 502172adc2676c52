import { markdownTable } from 'markdown-table';
import { usageProfile } from '../analysis/stagger/check.js';
import type { PlacedRun } from '../domain/index.js';

const HOURS = 24;

/** The most GPUs in use at any moment of each hour of the repeating day, 00 to 23. */
export function hourlyPeaks(schedule: readonly PlacedRun[]): number[] {
  const { steps } = usageProfile(schedule);
  return Array.from({ length: HOURS }, (_, h) => {
    const inHour = steps.filter((s) => s.from < (h + 1) * 60 && s.to > h * 60).map((s) => s.gpus);
    return Math.max(0, ...inHour);
  });
}

export interface DemandInput {
  /** Hourly peaks with the proposed starts. */
  proposed: number[];
  /** Hourly peaks with every run at its window's opening; null when the windows are unknown. */
  today: number[] | null;
  before: number;
  after: number;
}

const hour = (h: number): string => `${String(h).padStart(2, '0')}:00`;

// Plot colours in plot order: proposed bars, today's line, capacity before, capacity after.
// The text legend under the chart names them, so the colours only need to differ.
const PALETTE = ['#2f81f7', '#d29922', '#3fb950', '#cf222e'];

/** GPUs in use over a day against the capacity before and after, as a mermaid xychart. */
export function demandChart(d: DemandInput): string {
  const top = Math.max(d.before, d.after, ...d.proposed, ...(d.today ?? [])) + 1;
  const series = (xs: number[]) => `[${xs.join(', ')}]`;
  const flat = (n: number) => series(Array.from({ length: HOURS }, () => n));
  const palette = (d.today ? PALETTE : PALETTE.filter((_, i) => i !== 1)).join(', ');
  const title = 'GPUs in use per hour (UTC) against capacity';
  const lines = [
    'xychart-beta',
    `  %%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
    `  title "${title}"`,
    `  accTitle: ${title}`,
    `  accDescr: ${demandSentence(d).replace(/[;#%]/g, ',')}`,
    `  x-axis "Hour (UTC)" [${Array.from({ length: HOURS }, (_, h) => `"${String(h).padStart(2, '0')}"`).join(', ')}]`,
    `  y-axis "GPUs" 0 --> ${top}`,
    `  bar ${series(d.proposed)}`,
    ...(d.today ? [`  line ${series(d.today)}`] : []),
    `  line ${flat(d.before)}`,
    `  line ${flat(d.after)}`,
  ];
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** The chart's key, in words: which mark is which. */
export function demandLegend(d: DemandInput): string {
  const parts = [
    'blue bars: GPUs in use with the proposed starts',
    ...(d.today ? ['amber line: with today\'s starts'] : []),
    `green line: capacity before (${d.before})`,
    `red line: capacity after (${d.after})`,
  ];
  return `Key: ${parts.join(' · ')}. Each hour shows its busiest moment.`;
}

/** Runs of consecutive hours where `pick` holds, as `00:00–02:00` spans. */
function spans(pick: (h: number) => boolean): string[] {
  const out: string[] = [];
  for (let h = 0; h < HOURS; h++) {
    if (!pick(h)) continue;
    let end = h;
    while (end + 1 < HOURS && pick(end + 1)) end++;
    out.push(`${hour(h)}–${end + 1 === HOURS ? '24:00' : hour(end + 1)}`);
    h = end;
  }
  return out;
}

function compare(label: string, series: number[], before: number): string {
  const peak = Math.max(0, ...series);
  const at = spans((h) => series[h] === peak && peak > 0);
  const over = spans((h) => (series[h] ?? 0) > before);
  const where = over.length > 0 ? `over the ${before} there before during ${over.join(', ')}` : `within the ${before} there before`;
  return `${label} at most ${peak} GPUs are in use${at.length > 0 ? ` (${at.join(', ')})` : ''}, ${where}`;
}

/** What the demand chart shows, in one or two sentences. */
export function demandSentence(d: DemandInput): string {
  const parts = [compare('With the proposed starts', d.proposed, d.before)];
  if (d.today) parts.push(compare('with today\'s starts', d.today, d.before));
  return `Capacity is ${d.before} GPUs before this pull request and ${d.after} after. ${parts.join('; ')}.`;
}

/** The hourly numbers as a table, hours with equal numbers merged, for screen readers. */
export function demandTable(d: DemandInput): string {
  const rows: string[][] = [];
  const key = (h: number) => `${d.proposed[h] ?? 0}/${d.today?.[h] ?? ''}`;
  for (let h = 0; h < HOURS; h++) {
    let end = h;
    while (end + 1 < HOURS && key(end + 1) === key(h)) end++;
    rows.push([
      `${hour(h)}–${end + 1 === HOURS ? '24:00' : hour(end + 1)}`,
      String(d.proposed[h] ?? 0),
      ...(d.today ? [String(d.today[h] ?? 0)] : []),
    ]);
    h = end;
  }
  const header = ['Hours (UTC)', 'GPUs in use, proposed', ...(d.today ? ['GPUs in use, today'] : [])];
  return markdownTable([header, ...rows]);
}
