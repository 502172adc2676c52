import { markdownTable } from 'markdown-table';
import { cronLine, formatClock } from '../analysis/stagger/cron.js';
import type { PlacedRun, StaggerPlan } from '../domain/index.js';
import { code, md, mermaidText } from './escape.js';

const MAX_BARS = 60;
// Gantt needs dates; a fixed day keeps the chart free of today's date so the comment only
// changes when the schedule does.
const DAY = ['2000-01-01', '2000-01-02', '2000-01-03'] as const;

function stamp(minute: number): string {
  const day = DAY[Math.min(Math.floor(minute / 1440), DAY.length - 1)];
  const m = ((minute % 1440) + 1440) % 1440;
  return `${day} ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * Runs per workload in start order, numbered 1… in that order: the runs of one workload are
 * identical, so numbering them by start reads naturally and loses nothing.
 */
export function chronological(schedule: PlacedRun[]): PlacedRun[] {
  const order = [...new Set(schedule.map((r) => r.workload))];
  const first = (r: PlacedRun) => Math.min(...r.pieces.map((p) => p.start));
  const sorted = [...schedule].sort(
    (a, b) => order.indexOf(a.workload) - order.indexOf(b.workload) || first(a) - first(b),
  );
  const seen = new Map<string, number>();
  return sorted.map((r) => {
    const n = (seen.get(r.workload) ?? 0) + 1;
    seen.set(r.workload, n);
    return { ...r, run: n };
  });
}

/** The proposed starts as a mermaid gantt chart GitHub renders, one section per workload. */
export function scheduleGantt(plan: StaggerPlan): string {
  const runs = chronological(plan.schedule).slice(0, MAX_BARS);
  const lines = [
    'gantt',
    `  title Proposed starts, UTC: peak ${plan.peakGpus} GPUs (all at once: ${plan.naivePeakGpus})`,
    '  dateFormat YYYY-MM-DD HH:mm',
    '  axisFormat %H:%M',
  ];
  const byWorkload = new Map<string, PlacedRun[]>();
  for (const run of runs) byWorkload.set(run.workload, [...(byWorkload.get(run.workload) ?? []), run]);
  for (const [workload, placed] of byWorkload) {
    lines.push(`  section ${mermaidText(workload) || 'workload'}`);
    for (const run of placed) {
      for (const piece of run.pieces) {
        lines.push(`  run ${run.run}, ${run.gpus} GPUs :${stamp(piece.start)}, ${piece.end - piece.start}m`);
      }
    }
  }
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** The same schedule as text: start times a user can paste into CronJobs. */
export function scheduleTable(plan: StaggerPlan): string {
  const rows = chronological(plan.schedule).flatMap((run) =>
    run.pieces.map((piece, i) => [
      md(run.workload),
      run.pieces.length > 1 ? `${run.run} (part ${i + 1})` : String(run.run),
      String(run.gpus),
      formatClock(piece.start),
      formatClock(piece.end),
      code(`schedule: "${cronLine(piece.start)}"`),
    ]),
  );
  const shown = rows.slice(0, MAX_BARS);
  const table = markdownTable([['Workload', 'Run', 'GPUs', 'Start (UTC)', 'End', 'CronJob'], ...shown]);
  return rows.length > shown.length ? `${table}\n\n…and ${rows.length - shown.length} more runs not shown.` : table;
}
