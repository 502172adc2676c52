import { DAY, usageProfile, WEEK } from '../analysis/index.js';
import { formatWhen } from './clock.js';
import { markdownTable } from 'markdown-table';
import type { PlacedRun } from '../domain/index.js';
import { itemAt } from '../util/indexed.js';

/** hourlyPeaks gives one number per hour of the cycle, as many as hoursOf counts. */
const SIZED = 'an hourly series has one number per hour of the cycle';

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
  /** The need with headroom the verdict rests on; null when unknown. */
  need: number | null;
  /** The plan's cycle in minutes, which the series cover hour by hour; a day when absent. */
  cycle?: number;
}

// A week has 168 hours: a point and a label each would run the labels into one another, so the
// weekly chart draws a point per block of hours (its busiest moment); the table keeps every hour.
const WEEK_BLOCK_HOURS = 6;
// Wide enough for a week's `Mon 04` labels side by side and the legend; GitHub scales the picture to the page.
const WEEK_CHART_WIDTH = 1400;
const DAY_CHART_WIDTH = 900;

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

/** One line of the chart: its short name in the chart's legend, its colour, and both in words for the key under it. */
interface Series {
  name: string;
  key: string;
  colour: string;
  colourName: string;
  values: number[];
}

/**
 * Padding around the chart's legend. Mermaid sizes the legend from its names as drawn, and GitHub
 * draws a chart narrower than its width (in a comment column of 550 px or so), so the names come
 * out wider than the room kept for them by a share of their width that grows with the chart's:
 * padding that grows alike keeps them inside the picture drawn 500 px wide or more. Mermaid drops
 * a legend taller than half the chart, which the week's 77 px leaves room under.
 */
const legendPadding = (width: number): number => Math.round(10 + 110 * (1 - 550 / width));
const LEGEND_FONT_SIZE = 12;

const sameSeries = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Today's series, unless it is the proposed one again (nothing moves): a second line would hide under the first. */
const todayDrawn = (d: DemandInput): number[] | null => (d.today && !sameSeries(d.today, d.proposed) ? d.today : null);

/**
 * Every line in plot order. All are lines: mermaid draws a bar of 0 as a stub above the axis, and
 * the hours with nothing running are as much the point as the busy ones. Capacity before in grey
 * (what was), after in red (what the PR asks), the need with headroom in purple.
 */
function chartSeries(d: DemandInput): Series[] {
  const points = plotted(d);
  const flat = (n: number) => points.labels.map(() => n);
  const today = todayDrawn(d) ? points.today : null;
  const need: Series[] =
    d.need === null
      ? []
      : [
          {
            name: `Need (${d.need})`,
            key: `the need with headroom (${d.need})`,
            colour: '#8250df',
            colourName: 'purple',
            values: flat(d.need),
          },
        ];
  // Mermaid draws later lines over earlier ones: the fixed levels first, the need over a capacity
  // of the same height, then the GPUs in use, the proposed ones (the recommendation) on top.
  return [
    {
      name: `Capacity before (${d.before})`,
      key: `capacity before (${d.before})`,
      colour: '#6e7781',
      colourName: 'grey',
      values: flat(d.before),
    },
    {
      name: `Capacity after (${d.after})`,
      key: `capacity after (${d.after})`,
      colour: '#cf222e',
      colourName: 'red',
      values: flat(d.after),
    },
    ...need,
    ...(today
      ? [{ name: 'In use today', key: "GPUs in use with today's starts", colour: '#bc4c00', colourName: 'orange', values: today }]
      : []),
    {
      name: 'In use, proposed',
      key: 'GPUs in use with the proposed starts',
      colour: '#0969da',
      colourName: 'blue',
      values: points.proposed,
    },
  ];
}

/**
 * GPUs in use over the cycle (a day or a week) against the need and the capacity before and
 * after, as a mermaid xychart of named lines. Renderers with mermaid's xychart legend draw the
 * names beside the chart; the key under it (`demandLegend`) names them for the rest.
 */
export function demandChart(d: DemandInput): string {
  const points = plotted(d);
  const series = chartSeries(d);
  const top = Math.max(...series.flatMap((s) => s.values)) + 1;
  const title = isWeek(d)
    ? `GPUs in use per ${WEEK_BLOCK_HOURS} hours over a week (UTC) against need and capacity`
    : 'GPUs in use per hour (UTC) against need and capacity';
  const width = isWeek(d) ? WEEK_CHART_WIDTH : DAY_CHART_WIDTH;
  const config = `{"xyChart": {"width": ${width}, "showLegend": true, "legendPadding": ${legendPadding(width)}, "legendFontSize": ${LEGEND_FONT_SIZE}}, "themeVariables": {"xyChart": {"plotColorPalette": "${series.map((s) => s.colour).join(', ')}"}}}`;
  const lines = [
    'xychart-beta',
    `  %%{init: ${config}}%%`,
    `  title "${title}"`,
    `  accTitle: ${title}`,
    `  accDescr: ${demandSentence(d).replace(/[;#%]/g, ',')}`,
    `  x-axis "${isWeek(d) ? 'Day and hour (UTC)' : 'Hour (UTC)'}" [${points.labels.map((l) => `"${l}"`).join(', ')}]`,
    `  y-axis "GPUs" 0 --> ${top}`,
    ...series.map((s) => `  line "${s.name}" [${s.values.join(', ')}]`),
  ];
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** The chart's key, in words: which line is which, for renderers without mermaid's legend and for every reader. */
export function demandLegend(d: DemandInput): string {
  const parts = chartSeries(d).map((s) => `${s.colourName}: ${s.key}`);
  const same = d.today && !todayDrawn(d) ? " Today's starts give the same line as the proposed ones." : '';
  const each = isWeek(d)
    ? `Each point is the busiest moment of its ${WEEK_BLOCK_HOURS} hours`
    : 'Each point is the busiest moment of its hour';
  return `Key: ${parts.join(' · ')}. ${each}.${same}`;
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
  const over = spans((h) => itemAt(series, h, SIZED) > before, d);
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
  const key = (h: number) => `${itemAt(d.proposed, h, SIZED)}/${d.today?.[h] ?? ''}`;
  for (let h = 0; h < hours; h++) {
    let end = h;
    while (end + 1 < hours && key(end + 1) === key(h)) end++;
    rows.push([hoursSpan(h, end + 1, d), String(itemAt(d.proposed, h, SIZED)), ...(d.today ? [String(itemAt(d.today, h, SIZED))] : [])]);
    h = end;
  }
  const header = ['Hours (UTC)', 'GPUs in use, proposed', ...(d.today ? ['GPUs in use, today'] : [])];
  return markdownTable([header, ...rows]);
}
