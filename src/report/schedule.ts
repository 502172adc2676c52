import { DAY, usageProfile, WEEK } from '../analysis/index.js';
import { cronLine, formatWhen } from './clock.js';
import { formatClockDown } from '../util/clock.js';
import { markdownTable } from 'markdown-table';
import type { PlacedRun, StaggerPlan } from '../domain/index.js';
import { codeCell, md, mermaidText } from './escape.js';

/** Bars per group (today, proposed): past this a gantt chart is a wall; the table has every run. */
const MAX_BARS = 30;
const MAX_ROWS = 60;
const SECTION_NAME = 40;
// Workloads the note under a cut weekly table names; past this it counts the rest.
const NAMED_LEFT_OUT = 5;
// Gantt needs dates; fixed ones keep the chart free of today's date so the comment only changes
// when the schedule does. A weekly plan starts on Monday 2000-01-03, so `%a` on the axis names
// the plan's weekdays. A run that ends past the cycle (a day's midnight, the week's Sunday night)
// is drawn on as one bar into the next day or Monday rather than cut in two: the chart then
// reads as it runs, and its length stays the run's.
const DAILY_DATES = ['2000-01-01', '2000-01-02', '2000-01-03'] as const;
const WEEKLY_DATES = Array.from({ length: 15 }, (_, i) => `2000-01-${String(3 + i).padStart(2, '0')}`);

function stamp(minute: number, cycle: number): string {
  const dates = cycle === WEEK ? WEEKLY_DATES : DAILY_DATES;
  const day = dates[Math.min(Math.max(Math.floor(minute / DAY), 0), dates.length - 1)];
  return `${day} ${formatClockDown(minute)}`;
}

const firstStart = (r: PlacedRun): number => Math.min(...r.pieces.map((p) => p.start));

/**
 * Runs per workload in start order, numbered 1… in that order: the runs of one workload are
 * identical, so numbering them by start reads naturally and loses nothing.
 */
export function chronological(schedule: PlacedRun[]): PlacedRun[] {
  const order = [...new Set(schedule.map((r) => r.workload))];
  const sorted = [...schedule].sort((a, b) => order.indexOf(a.workload) - order.indexOf(b.workload) || firstStart(a) - firstStart(b));
  const seen = new Map<string, number>();
  return sorted.map((r) => {
    const n = (seen.get(r.workload) ?? 0) + 1;
    seen.set(r.workload, n);
    return { ...r, run: n };
  });
}

/**
 * The same runs as they start today, with no staggering: each whole run at its window's
 * opening (the planner's `naivePeakGpus`). Null when the plan does not say where windows open.
 */
export function todaySchedule(schedule: PlacedRun[]): PlacedRun[] | null {
  const today: PlacedRun[] = [];
  for (const run of schedule) {
    if (run.release === undefined) return null;
    const length = run.pieces.reduce((sum, p) => sum + (p.end - p.start), 0);
    today.push({ ...run, pieces: [{ start: run.release, end: run.release + length }] });
  }
  return today;
}

/** One gantt group: a section per workload, a bar per run (per piece when split), the first MAX_BARS runs. */
function ganttGroup(label: string, runs: PlacedRun[], tag: 'done' | 'active', cycle: number): string[] {
  const lines: string[] = [];
  let section = '';
  for (const run of runs.slice(0, MAX_BARS)) {
    const name = `${label} · ${mermaidText(run.workload, SECTION_NAME) || 'workload'}`;
    if (name !== section) lines.push(`  section ${name}`);
    section = name;
    run.pieces.forEach((piece, i) => {
      const part = run.pieces.length > 1 ? ` part ${i + 1}` : '';
      lines.push(`  run ${run.run}${part} · ${run.gpus} GPUs :${tag}, ${stamp(piece.start, cycle)}, ${piece.end - piece.start}m`);
    });
  }
  return lines;
}

/**
 * The weekly chart's axis: a tick at each midnight once the bars span days (mermaid's own ticks
 * every 12 hours crowd `Tue 12:00Wed 00:00` together), its own ticks over a shorter span.
 */
function weekAxis(groups: PlacedRun[][]): string[] {
  const pieces = groups.flatMap((runs) => runs.slice(0, MAX_BARS).flatMap((r) => r.pieces));
  const from = Math.min(...pieces.map((p) => p.start));
  const to = Math.max(...pieces.map((p) => p.end));
  return ['  axisFormat %a %H:%M', ...(to - from > 2 * DAY ? ['  tickInterval 1day'] : [])];
}

/**
 * Today's starts against the proposed ones as a mermaid gantt chart GitHub renders: today's bars
 * greyed out (`done`) above the proposed ones, a section per workload in each.
 */
export function scheduleGantt(plan: StaggerPlan): string {
  const proposed = chronological(plan.schedule);
  const today = todaySchedule(plan.schedule);
  const todayRuns = today ? chronological(today) : null;
  const groups = todayRuns ? [todayRuns, proposed] : [proposed];
  const over = plan.cycle === WEEK ? ' over a week' : '';
  const title = today
    ? `Today (peak ${plan.naivePeakGpus} GPUs) vs proposed (peak ${plan.peakGpus} GPUs)${over}, UTC`
    : `Proposed starts (peak ${plan.peakGpus} GPUs)${over}, UTC`;
  const sections = [...(today ? ['Today'] : []), 'Proposed'].flatMap((g) =>
    plan.schedule.map((r) => `${g} · ${mermaidText(r.workload, SECTION_NAME)}`),
  );
  // Mermaid leaves 75px for section names; longer ones would run into the bars.
  const leftPadding = Math.min(260, Math.max(75, 7 * Math.max(...sections.map((n) => n.length)) + 20));
  const lines = [
    'gantt',
    // Mermaid reads directives anywhere in the chart; after the type keeps `gantt` first.
    `  %%{init: {"gantt": {"leftPadding": ${leftPadding}}}}%%`,
    `  title ${title}`,
    `  accTitle: ${title}`,
    `  accDescr: ${scheduleSentence(plan).replace(/[;#%]/g, ',')}`,
    '  dateFormat YYYY-MM-DD HH:mm',
    ...(plan.cycle === WEEK ? weekAxis(groups) : ['  axisFormat %H:%M']),
    '  todayMarker off',
  ];
  if (todayRuns) lines.push(...ganttGroup('Today', todayRuns, 'done', plan.cycle));
  lines.push(...ganttGroup('Proposed', proposed, 'active', plan.cycle));
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** What the gantt chart shows, in one sentence, for readers who cannot see it. */
export function scheduleSentence(plan: StaggerPlan): string {
  const weekly = plan.cycle === WEEK;
  const peakAt = (schedule: PlacedRun[]) => formatWhen(usageProfile(schedule, plan.cycle).peakAt, plan.cycle);
  const today = todaySchedule(plan.schedule);
  const runs = `${weekly ? "week's " : ''}${plan.schedule.length} run${plan.schedule.length === 1 ? '' : 's'}`;
  const proposed = `with the proposed starts the ${runs} peak at ${plan.peakGpus} GPUs (from ${peakAt(plan.schedule)}), every deadline met`;
  const repeats = weekly ? 'The plan repeats every week from Monday 00:00 UTC. ' : '';
  if (!today) return `${repeats}${proposed.charAt(0).toUpperCase()}${proposed.slice(1)}.`;
  return `${repeats}Today every run starts as its window opens and they peak at ${plan.naivePeakGpus} GPUs (from ${peakAt(today)}); ${proposed}.`;
}

/**
 * A window or run: `18:00–09:00 (+1 day)` on a daily plan, where one that ends past midnight says
 * so; `Sat 18:00–Sun 02:00` on a weekly one, where the weekdays say it.
 */
function span(start: number, end: number, cycle: number): string {
  if (cycle === WEEK) return `${formatWhen(start, cycle)}–${formatWhen(end, cycle)}`;
  const days = Math.floor(end / DAY) - Math.floor(start / DAY);
  return `${formatClockDown(start)}–${formatClockDown(end)}${days > 0 && end % DAY !== 0 ? ' (+1 day)' : ''}`;
}

/** The same schedule as text: today's and the proposed times, and start times to paste into CronJobs. */
export function scheduleTable(plan: StaggerPlan): string {
  const { cycle } = plan;
  const today = todaySchedule(plan.schedule);
  const runs = chronological(plan.schedule);
  const rows = runs.flatMap((run) => {
    const length = run.pieces.reduce((sum, p) => sum + (p.end - p.start), 0);
    const window = run.release === undefined || run.deadline === undefined ? '—' : span(run.release, run.deadline, cycle);
    return run.pieces.map((piece, i) => [
      md(run.workload),
      run.pieces.length > 1 ? `${run.run} (part ${i + 1})` : String(run.run),
      String(run.gpus),
      window,
      ...(today && run.release !== undefined ? [i === 0 ? span(run.release, run.release + length, cycle) : '″'] : []),
      span(piece.start, piece.end, cycle),
      codeCell(`schedule: "${cronLine(piece.start, cycle)}"`),
    ]);
  });
  const header = ['Workload', 'Run', 'GPUs', 'Window (UTC)', ...(today ? ['Today'] : []), 'Proposed', 'CronJob'];
  const shown = rows.slice(0, MAX_ROWS);
  const table = markdownTable([header, ...shown]);
  if (rows.length === shown.length) return table;
  if (cycle !== WEEK) return `${table}\n\n…and ${rows.length - shown.length} more runs not shown.`;
  return `${table}\n\n${weekNotShown(runs)}`;
}

/**
 * What the table leaves out of a weekly plan, by workload: a week has seven times the runs, so
 * whole workloads can fall past the cut, and the note names them (`…and 12 more runs not shown:
 * 5 of nightly-eval, 7 of train.`).
 */
function weekNotShown(runs: PlacedRun[]): string {
  const hidden = new Map<string, number>();
  let rows = 0;
  for (const run of runs) {
    // A run counts as hidden when its first piece is; a split run cut part-way shows where it starts.
    if (rows >= MAX_ROWS) hidden.set(run.workload, (hidden.get(run.workload) ?? 0) + 1);
    rows += run.pieces.length;
  }
  const total = [...hidden.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return `…and ${rows - MAX_ROWS} more part${rows - MAX_ROWS === 1 ? '' : 's'} of a split run not shown.`;
  const named = [...hidden].slice(0, NAMED_LEFT_OUT).map(([workload, n]) => `${n} of ${md(workload)}`);
  const others = hidden.size - named.length;
  const more = others > 0 ? ` and runs of ${others} more workload${others === 1 ? '' : 's'}` : '';
  return `…and ${total} more run${total === 1 ? '' : 's'} not shown: ${named.join(', ')}${more}.`;
}

/** The drawn-bars limit, for the note under a chart that could not show every run. */
export function barsLeftOut(plan: StaggerPlan): number {
  return Math.max(0, plan.schedule.length - MAX_BARS);
}
