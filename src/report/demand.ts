import { DAY, formatWhen, usageProfile, WEEK } from '../analysis/index.js';
import { markdownTable } from 'markdown-table';
import type { PlacedRun } from '../domain/index.js';

/**
 * The most GPUs in use at any moment of each hour of the repeating cycle: 24 hours from 00 on a
 * daily plan, 168 from Monday 00 on a weekly one.
 */
export function hourlyPeaks(schedule: readonly PlacedRun[], cycle: number = DAY): number[] {
  const { steps } = usageProfile(schedule, cycle);
  return Array.from({ length: cycle / 60 }, (_, h) => {
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
  /** The plan's cycle in minutes, which the series cover hour by hour; a day when absent. */
  cycle?: number;
}

// A week has 168 hours: a bar and a label each would run the labels into one another, so the
// weekly chart draws a bar per block of hours (its busiest moment); the table keeps every hour.
const WEEK_BLOCK_HOURS = 6;
// Wide enough for a week's `Mon 04` labels side by side; GitHub scales the picture to the page.
const WEEK_CHART_WIDTH = 1400;

const isWeek = (d: DemandInput): boolean => d.cycle === WEEK;
const hoursOf = (d: DemandInput): number => (d.cycle ?? DAY) / 60;

/** An hour of the cycle as a boundary: `05:00`, `Sat 05:00`; the cycle's end is `24:00`, `Sun 24:00`. */
function hourMark(h: number, d: DemandInput): string {
  const hours = hoursOf(d);
  if (h === hours) return isWeek(d) ? 'Sun 24:00' : '24:00';
  return isWeek(d) ? formatWhen(h * 60, WEEK) : `${String(h).padStart(2, '0')}:00`;
}

/** A run of hours `[from, to)` as `00:00–02:00` (`Sat 00:00–Sat 02:00` on a week). */
const hoursSpan = (from: number, to: number, d: DemandInput): string => `${hourMark(from, d)}–${hourMark(to, d)}`;

// Plot colours in plot order: proposed bars, today's line, capacity before, capacity after.
// The text legend under the chart names them, so the colours only need to differ.
const PALETTE = ['#2f81f7', '#d29922', '#3fb950', '#cf222e'];

/** The plotted points: an hour each on a day, a block of hours each on a week, with the x-axis labels. */
function plotted(d: DemandInput): { labels: string[]; proposed: number[]; today: number[] | null } {
  if (!isWeek(d)) {
    return { labels: Array.from({ length: hoursOf(d) }, (_, h) => String(h).padStart(2, '0')), proposed: d.proposed, today: d.today };
  }
  const blocks = Math.ceil(hoursOf(d) / WEEK_BLOCK_HOURS);
  const block = (xs: number[]) =>
    Array.from({ length: blocks }, (_, b) => Math.max(0, ...xs.slice(b * WEEK_BLOCK_HOURS, (b + 1) * WEEK_BLOCK_HOURS)));
  const labels = Array.from({ length: blocks }, (_, b) => formatWhen(b * WEEK_BLOCK_HOURS * 60, WEEK).slice(0, 6));
  return { labels, proposed: block(d.proposed), today: d.today ? block(d.today) : null };
}

/** GPUs in use over the cycle (a day or a week) against the capacity before and after, as a mermaid xychart. */
export function demandChart(d: DemandInput): string {
  const points = plotted(d);
  const top = Math.max(d.before, d.after, ...d.proposed, ...(d.today ?? [])) + 1;
  const series = (xs: number[]) => `[${xs.join(', ')}]`;
  const flat = (n: number) => series(Array.from({ length: points.labels.length }, () => n));
  const palette = (d.today ? PALETTE : PALETTE.filter((_, i) => i !== 1)).join(', ');
  const title = isWeek(d)
    ? `GPUs in use per ${WEEK_BLOCK_HOURS} hours over a week (UTC) against capacity`
    : 'GPUs in use per hour (UTC) against capacity';
  const width = isWeek(d) ? `"xyChart": {"width": ${WEEK_CHART_WIDTH}}, ` : '';
  const lines = [
    'xychart-beta',
    `  %%{init: {${width}"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
    `  title "${title}"`,
    `  accTitle: ${title}`,
    `  accDescr: ${demandSentence(d).replace(/[;#%]/g, ',')}`,
    `  x-axis "${isWeek(d) ? 'Day and hour (UTC)' : 'Hour (UTC)'}" [${points.labels.map((l) => `"${l}"`).join(', ')}]`,
    `  y-axis "GPUs" 0 --> ${top}`,
    `  bar ${series(points.proposed)}`,
    ...(points.today ? [`  line ${series(points.today)}`] : []),
    `  line ${flat(d.before)}`,
    `  line ${flat(d.after)}`,
  ];
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** The chart's key, in words: which mark is which. */
export function demandLegend(d: DemandInput): string {
  const parts = [
    'blue bars: GPUs in use with the proposed starts',
    ...(d.today ? ["amber line: with today's starts"] : []),
    `green line: capacity before (${d.before})`,
    `red line: capacity after (${d.after})`,
  ];
  const each = isWeek(d) ? `Each bar shows the busiest moment of its ${WEEK_BLOCK_HOURS} hours` : 'Each hour shows its busiest moment';
  return `Key: ${parts.join(' · ')}. ${each}.`;
}

/** Runs of consecutive hours where `pick` holds, as `00:00–02:00` spans. */
function spans(pick: (h: number) => boolean, d: DemandInput): string[] {
  const hours = hoursOf(d);
  const out: string[] = [];
  for (let h = 0; h < hours; h++) {
    if (!pick(h)) continue;
    let end = h;
    while (end + 1 < hours && pick(end + 1)) end++;
    out.push(hoursSpan(h, end + 1, d));
    h = end;
  }
  return out;
}

function compare(label: string, series: number[], before: number, d: DemandInput): string {
  const peak = Math.max(0, ...series);
  const at = spans((h) => series[h] === peak && peak > 0, d);
  const over = spans((h) => (series[h] ?? 0) > before, d);
  const where = over.length > 0 ? `over the ${before} there before during ${over.join(', ')}` : `within the ${before} there before`;
  return `${label} at most ${peak} GPUs are in use${at.length > 0 ? ` (${at.join(', ')})` : ''}, ${where}`;
}

/** What the demand chart shows, in one or two sentences. */
export function demandSentence(d: DemandInput): string {
  const parts = [compare('With the proposed starts', d.proposed, d.before, d)];
  if (d.today) parts.push(compare("with today's starts", d.today, d.before, d));
  const week = isWeek(d) ? ' Over the week (from Monday 00:00 UTC):' : '';
  return `Capacity is ${d.before} GPUs before this pull request and ${d.after} after.${week} ${isWeek(d) ? lower(parts.join('; ')) : parts.join('; ')}.`;
}

const lower = (text: string): string => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** The hourly numbers as a table, hours with equal numbers merged, for screen readers. */
export function demandTable(d: DemandInput): string {
  const hours = hoursOf(d);
  const rows: string[][] = [];
  const key = (h: number) => `${d.proposed[h] ?? 0}/${d.today?.[h] ?? ''}`;
  for (let h = 0; h < hours; h++) {
    let end = h;
    while (end + 1 < hours && key(end + 1) === key(h)) end++;
    rows.push([hoursSpan(h, end + 1, d), String(d.proposed[h] ?? 0), ...(d.today ? [String(d.today[h] ?? 0)] : [])]);
    h = end;
  }
  const header = ['Hours (UTC)', 'GPUs in use, proposed', ...(d.today ? ['GPUs in use, today'] : [])];
  return markdownTable([header, ...rows]);
}
