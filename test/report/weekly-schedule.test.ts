import { describe, expect, it } from 'vitest';
import { planStagger } from '../../src/analysis/stagger/plan.js';
import type { StaggerJob } from '../../src/domain/index.js';
import { demandChart, demandSentence, demandTable, hourlyPeaks, type DemandInput } from '../../src/report/demand.js';
import { barsLeftOut, scheduleGantt, scheduleSentence, scheduleTable, todaySchedule } from '../../src/report/schedule.js';

const DAY = 1440;
const WEEK = 7 * DAY;
const SAT = 5 * DAY;
const SUN = 6 * DAY;

function job(workload: string, run: number, gpus: number, duration: number, release: number, deadline: number): StaggerJob {
  return { workload, run, gpus, duration, release, deadline, interruptible: false };
}

/**
 * Two 4-GPU training runs released Saturday 22:00, the first forced into Sat 22:00–Sun 01:00 by
 * its deadline, so a peak of 4 leaves the second only Sun 01:00–04:00; and a 2-GPU job forced
 * into Sun 23:00–Mon 01:00, across the week's end. Today both training runs start at Sat 22:00: 8 GPUs.
 */
function weekendPlan() {
  return planStagger(
    [
      job('weekend-train', 1, 4, 180, SAT + 22 * 60, SAT + 25 * 60),
      job('weekend-train', 2, 4, 180, SAT + 22 * 60, SAT + 28 * 60),
      job('sunday-etl', 1, 2, 120, SUN + 23 * 60, SUN + 25 * 60),
    ],
    { cycle: WEEK },
  );
}

const weekdayOfDate = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
const lines = (text: string, pattern: RegExp): string[] => text.split('\n').filter((l) => pattern.test(l));

describe('a weekly plan in the report', () => {
  it('plans as the fixture says', () => {
    const plan = weekendPlan();
    expect(plan.cycle).toBe(WEEK);
    expect({ peak: plan.peakGpus, naive: plan.naivePeakGpus }).toEqual({ peak: 4, naive: 8 });
  });

  it('gives windows and times with their weekdays, and weekday CronJob lines', () => {
    const table = scheduleTable(weekendPlan());
    const rows = lines(table, /^\| (weekend-train|sunday-etl) /).map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
    expect(rows).toEqual([
      ['weekend-train', '1', '4', 'Sat 22:00–Sun 01:00', 'Sat 22:00–Sun 01:00', 'Sat 22:00–Sun 01:00', '`schedule: "0 22 * * 6"`'],
      ['weekend-train', '2', '4', 'Sat 22:00–Sun 04:00', 'Sat 22:00–Sun 01:00', 'Sun 01:00–Sun 04:00', '`schedule: "0 1 * * 0"`'],
      ['sunday-etl', '1', '2', 'Sun 23:00–Mon 01:00', 'Sun 23:00–Mon 01:00', 'Sun 23:00–Mon 01:00', '`schedule: "0 23 * * 0"`'],
    ]);
    expect(table).not.toContain('(+1 day)');
  });

  it('draws the gantt on a week of fixed dates from a Monday, each bar on its weekday', () => {
    const gantt = scheduleGantt(weekendPlan());
    expect(gantt).toContain('  axisFormat %a %H:%M\n');
    expect(gantt).toContain('over a week, UTC');
    const proposed = lines(gantt, /:active, /).map((l) => l.trim());
    expect(proposed).toEqual([
      'run 1 · 4 GPUs :active, 2000-01-08 22:00, 180m',
      'run 2 · 4 GPUs :active, 2000-01-09 01:00, 180m',
      // Past the week's end it would be Monday; it starts Sunday and runs on into the next Monday.
      'run 1 · 2 GPUs :active, 2000-01-09 23:00, 120m',
    ]);
    expect(lines(gantt, /:done, /).map((l) => l.trim())).toEqual([
      'run 1 · 4 GPUs :done, 2000-01-08 22:00, 180m',
      'run 2 · 4 GPUs :done, 2000-01-08 22:00, 180m',
      'run 1 · 2 GPUs :done, 2000-01-09 23:00, 120m',
    ]);
    // The dates are the weekdays the table names: 2000-01-03 is a Monday.
    expect([weekdayOfDate('2000-01-03'), weekdayOfDate('2000-01-08'), weekdayOfDate('2000-01-09')]).toEqual([1, 6, 0]);
    // The bars span a day and a bit: mermaid's own ticks, not one a day.
    expect(gantt).not.toContain('tickInterval');
  });

  it('names the peak moments with their weekdays and says the plan repeats weekly', () => {
    expect(scheduleSentence(weekendPlan())).toBe(
      'The plan repeats every week from Monday 00:00 UTC. Today every run starts as its window opens and they peak at 8 GPUs ' +
        "(from Sat 22:00); with the proposed starts the week's 3 runs peak at 4 GPUs (from Sat 22:00), every deadline met.",
    );
  });

  it('folds a week past the row limit, naming the workloads left out', () => {
    // Ten forced one-hour runs of `a` from 00:00 each day and one of `b` at 10:00: 77 runs, all at 1 GPU.
    const jobs: StaggerJob[] = [];
    for (let d = 0; d < 7; d++)
      for (let k = 0; k < 10; k++) jobs.push(job('a', d * 10 + k + 1, 1, 60, d * DAY + k * 60, d * DAY + (k + 1) * 60));
    for (let d = 0; d < 7; d++) jobs.push(job('b', d + 1, 1, 60, d * DAY + 600, d * DAY + 660));
    const plan = planStagger(jobs, { cycle: WEEK });
    expect(plan.peakGpus).toBe(1);
    const table = scheduleTable(plan);
    // 60 rows shown: runs 1–60 of `a`; its last 10 and all 7 of `b` are not.
    expect(lines(table, /^\| a /)).toHaveLength(60);
    expect(table.endsWith('\n\n…and 17 more runs not shown: 10 of a, 7 of b.')).toBe(true);
    expect(barsLeftOut(plan)).toBe(47);
    const gantt = scheduleGantt(plan);
    // The first 30 runs of `a`, Monday to Wednesday 10:00, per group: a tick a day.
    expect(lines(gantt, /:active, /)).toHaveLength(30);
    expect(
      lines(gantt, /:active, /)
        .at(-1)
        ?.trim(),
    ).toBe('run 30 · 1 GPUs :active, 2000-01-05 09:00, 60m');
    expect(gantt).toContain('  axisFormat %a %H:%M\n  tickInterval 1day\n');
  });

  it('names at most five workloads under the cut table, counting the others', () => {
    const jobs: StaggerJob[] = [];
    for (let d = 0; d < 7; d++)
      for (let k = 0; k < 10; k++) jobs.push(job('a', d * 10 + k + 1, 1, 60, d * DAY + k * 60, d * DAY + (k + 1) * 60));
    // Six more workloads, one forced run each on Monday afternoon.
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g'].entries()) jobs.push(job(name, 1, 1, 60, (12 + i) * 60, (13 + i) * 60));
    const table = scheduleTable(planStagger(jobs, { cycle: WEEK }));
    expect(table.split('\n').at(-1)).toBe(
      '…and 16 more runs not shown: 10 of a, 1 of b, 1 of c, 1 of d, 1 of e and runs of 2 more workloads.',
    );
  });
});

describe('a weekly plan in the demand chart', () => {
  function input(): DemandInput {
    const plan = weekendPlan();
    const today = todaySchedule(plan.schedule);
    return {
      proposed: hourlyPeaks(plan.schedule, plan.cycle),
      today: today ? hourlyPeaks(today, plan.cycle) : null,
      before: 4,
      after: 8,
      need: 4,
      cycle: plan.cycle,
    };
  }

  it('counts every hour of the week from Monday 00:00', () => {
    const { proposed, today } = input();
    const busy = (xs: number[] | null) => Object.fromEntries((xs ?? []).flatMap((g, h) => (g > 0 ? [[h, g]] : [])));
    // Sat 22 is hour 5 × 24 + 22 = 142; the Sunday job's last hour wraps onto Monday's hour 0.
    expect(proposed).toHaveLength(168);
    expect(busy(proposed)).toEqual({ 0: 2, 142: 4, 143: 4, 144: 4, 145: 4, 146: 4, 147: 4, 167: 2 });
    expect(busy(today)).toEqual({ 0: 2, 142: 8, 143: 8, 144: 8, 167: 2 });
  });

  it('says when in the week the peaks are, and merges equal hours across days in the table', () => {
    expect(demandSentence(input())).toBe(
      'Capacity is 4 GPUs before this pull request and 8 after. Over the week (from Monday 00:00 UTC): with the proposed starts ' +
        "at most 4 GPUs are in use (Sat 22:00–Sun 04:00), within the 4 there before; with today's starts at most 8 GPUs are in use " +
        '(Sat 22:00–Sun 01:00), over the 4 there before during Sat 22:00–Sun 01:00.',
    );
    const rows = lines(demandTable(input()), /^\| (Mon|Sat|Sun) /).map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
    expect(rows).toEqual([
      ['Mon 00:00–Mon 01:00', '2', '2'],
      ['Mon 01:00–Sat 22:00', '0', '0'],
      ['Sat 22:00–Sun 01:00', '4', '8'],
      ['Sun 01:00–Sun 04:00', '4', '0'],
      ['Sun 04:00–Sun 23:00', '0', '0'],
      ['Sun 23:00–Sun 24:00', '2', '2'],
    ]);
  });

  it('draws a point per six hours of the week, each its busiest moment', () => {
    const chart = demandChart(input());
    const axis = /x-axis "Day and hour \(UTC\)" \[(.*)\]/.exec(chart)?.[1]?.split(', ') ?? [];
    expect(axis).toHaveLength(28);
    expect([axis[0], axis[1], axis[23], axis[27]]).toEqual(['"Mon 00"', '"Mon 06"', '"Sat 18"', '"Sun 18"']);
    const series = (name: string) =>
      lines(chart, new RegExp(`^ {2}line "${name}" \\[`)).map((l) =>
        l
          .replace(/^.*\[|\]$/g, '')
          .split(', ')
          .map(Number),
      );
    const block = (at: Record<number, number>) => Array.from({ length: 28 }, (_, b) => at[b] ?? 0);
    // Blocks: Mon 00–06 holds the wrapped hour, Sat 18–24 and Sun 00–06 the training, Sun 18–24 the job's start.
    expect(series('In use, proposed')).toEqual([block({ 0: 2, 23: 4, 24: 4, 27: 2 })]);
    expect(series('In use today')).toEqual([block({ 0: 2, 23: 8, 24: 8, 27: 2 })]);
    expect(series('Need \\(4\\)')).toEqual([Array<number>(28).fill(4)]);
    expect(chart).toContain('y-axis "GPUs" 0 --> 9');
    expect(chart).not.toMatch(/^ {2}bar /m);
  });
});

describe('a daily plan renders as before', () => {
  // One 2-GPU run forced into 23:00–01:00, across midnight.
  const plan = () => planStagger([job('nightly', 1, 2, 120, 23 * 60, 25 * 60)]);

  it('keeps clock times, the (+1 day) mark, daily cron lines and the day-long chart', () => {
    const p = plan();
    expect(p.cycle).toBe(DAY);
    const row = lines(scheduleTable(p), /^\| nightly /)[0]
      ?.split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    expect(row).toEqual([
      'nightly',
      '1',
      '2',
      '23:00–01:00 (+1 day)',
      '23:00–01:00 (+1 day)',
      '23:00–01:00 (+1 day)',
      '`schedule: "0 23 * * *"`',
    ]);
    const gantt = scheduleGantt(p);
    expect(gantt).toContain('  axisFormat %H:%M\n  todayMarker off');
    expect(gantt).toContain('  run 1 · 2 GPUs :active, 2000-01-01 23:00, 120m');
    expect(gantt).not.toContain('week');
    expect(scheduleSentence(p)).toBe(
      // The repeating day's first minute at the peak: the run's last hour, carried over midnight.
      'Today every run starts as its window opens and they peak at 2 GPUs (from 00:00); with the proposed starts the 1 run peak at 2 GPUs (from 00:00), every deadline met.',
    );
    const peaks = hourlyPeaks(p.schedule);
    expect(peaks).toHaveLength(24);
    expect(peaks.flatMap((g, h) => (g > 0 ? [h] : []))).toEqual([0, 23]);
    const d: DemandInput = { proposed: peaks, today: null, before: 2, after: 4, need: null };
    expect(demandChart(d)).toContain('x-axis "Hour (UTC)" ["00", "01"');
    expect(lines(demandTable(d), /^\| \d/).map((l) => l.split('|')[1]?.trim())).toEqual(['00:00–01:00', '01:00–23:00', '23:00–24:00']);
  });
});
