import { markdownTable } from 'markdown-table';
import { usageProfile } from '../analysis/stagger/check.js';
import { cronLine, formatClock } from '../analysis/stagger/cron.js';
import type { PlacedRun, StaggerPlan } from '../domain/index.js';
import { codeCell, md, mermaidText } from './escape.js';

/** Bars per group (today, proposed): past this a gantt chart is a wall; the table has every run. */
const MAX_BARS = 30;
const MAX_ROWS = 60;
const SECTION_NAME = 40;
// Gantt needs dates; a fixed day keeps the chart free of today's date so the comment only
// changes when the schedule does.
const DAY = ['2000-01-01', '2000-01-02', '2000-01-03'] as const;

function stamp(minute: number): string {
  const day = DAY[Math.min(Math.max(Math.floor(minute / 1440), 0), DAY.length - 1)];
  const m = ((minute % 1440) + 1440) % 1440;
  return `${day} ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

const firstStart = (r: PlacedRun): number => Math.min(...r.pieces.map((p) => p.start));

/**
 * Runs per workload in start order, numbered 1… in that order: the runs of one workload are
 * identical, so numbering them by start reads naturally and loses nothing.
 */
export function chronological(schedule: PlacedRun[]): PlacedRun[] {
  const order = [...new Set(schedule.map((r) => r.workload))];
  const sorted = [...schedule].sort(
    (a, b) => order.indexOf(a.workload) - order.indexOf(b.workload) || firstStart(a) - firstStart(b),
  );
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

/** One gantt group: a section per workload, a bar per run (per piece when split). */
function ganttGroup(label: string, runs: PlacedRun[], tag: 'done' | 'active'): string[] {
  const lines: string[] = [];
  let drawn = 0;
  let section = '';
  for (const run of runs) {
    if (drawn >= MAX_BARS) break;
    const name = `${label} · ${mermaidText(run.workload, SECTION_NAME) || 'workload'}`;
    if (name !== section) lines.push(`  section ${name}`);
    section = name;
    run.pieces.forEach((piece, i) => {
      const part = run.pieces.length > 1 ? ` part ${i + 1}` : '';
      lines.push(`  run ${run.run}${part} · ${run.gpus} GPUs :${tag}, ${stamp(piece.start)}, ${piece.end - piece.start}m`);
    });
    drawn += 1;
  }
  return lines;
}

/**
 * Today's starts against the proposed ones as a mermaid gantt chart GitHub renders: today's bars
 * greyed out (`done`) above the proposed ones, a section per workload in each.
 */
export function scheduleGantt(plan: StaggerPlan): string {
  const proposed = chronological(plan.schedule);
  const today = todaySchedule(plan.schedule);
  const title = today
    ? `Today (peak ${plan.naivePeakGpus} GPUs) vs proposed (peak ${plan.peakGpus} GPUs), UTC`
    : `Proposed starts (peak ${plan.peakGpus} GPUs), UTC`;
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
    '  axisFormat %H:%M',
    '  todayMarker off',
  ];
  if (today) lines.push(...ganttGroup('Today', chronological(today), 'done'));
  lines.push(...ganttGroup('Proposed', proposed, 'active'));
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** What the gantt chart shows, in one sentence, for readers who cannot see it. */
export function scheduleSentence(plan: StaggerPlan): string {
  const proposedAt = formatClock(usageProfile(plan.schedule).peakAt);
  const today = todaySchedule(plan.schedule);
  const runs = `${plan.schedule.length} run${plan.schedule.length === 1 ? '' : 's'}`;
  const proposed = `with the proposed starts the ${runs} peak at ${plan.peakGpus} GPUs (from ${proposedAt}), every deadline met`;
  if (!today) return `${proposed.charAt(0).toUpperCase()}${proposed.slice(1)}.`;
  const todayAt = formatClock(usageProfile(today).peakAt);
  return `Today every run starts as its window opens and they peak at ${plan.naivePeakGpus} GPUs (from ${todayAt}); ${proposed}.`;
}

/** `18:00–09:00 (+1 day)`: a window or run that ends past midnight says so. */
function span(start: number, end: number): string {
  const days = Math.floor(end / 1440) - Math.floor(start / 1440);
  return `${formatClock(start)}–${formatClock(end)}${days > 0 && end % 1440 !== 0 ? ' (+1 day)' : ''}`;
}

/** The same schedule as text: today's and the proposed times, and start times to paste into CronJobs. */
export function scheduleTable(plan: StaggerPlan): string {
  const today = todaySchedule(plan.schedule);
  const rows = chronological(plan.schedule).flatMap((run) => {
    const length = run.pieces.reduce((sum, p) => sum + (p.end - p.start), 0);
    const window = run.release === undefined || run.deadline === undefined ? '—' : span(run.release, run.deadline);
    return run.pieces.map((piece, i) => [
      md(run.workload),
      run.pieces.length > 1 ? `${run.run} (part ${i + 1})` : String(run.run),
      String(run.gpus),
      window,
      ...(today && run.release !== undefined ? [i === 0 ? span(run.release, run.release + length) : '″'] : []),
      span(piece.start, piece.end),
      codeCell(`schedule: "${cronLine(piece.start)}"`),
    ]);
  });
  const header = ['Workload', 'Run', 'GPUs', 'Window (UTC)', ...(today ? ['Today'] : []), 'Proposed', 'CronJob'];
  const shown = rows.slice(0, MAX_ROWS);
  const table = markdownTable([header, ...shown]);
  return rows.length > shown.length ? `${table}\n\n…and ${rows.length - shown.length} more runs not shown.` : table;
}

/** The drawn-bars limit, for the note under a chart that could not show every run. */
export function barsLeftOut(plan: StaggerPlan): number {
  return Math.max(0, plan.schedule.length - MAX_BARS);
}
