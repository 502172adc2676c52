import { describe, expect, it } from 'vitest';
import { jobsFromWorkloads } from '../../../src/analysis/stagger/expand.js';
import { expandProblemWords } from '../../../src/report/stagger-problems.js';
import { workload } from './helpers.js';

describe('jobsFromWorkloads', () => {
  it('makes one job per daily run', () => {
    const { jobs, problems } = jobsFromWorkloads([workload({ name: 'nightly-eval', jobsPerDay: 4, interruptible: true })]);
    expect(problems).toEqual([]);
    expect(jobs).toEqual(
      [1, 2, 3, 4].map((run) => ({
        workload: 'nightly-eval',
        run,
        gpus: 2,
        duration: 120,
        release: 0,
        deadline: 360,
        interruptible: true,
      })),
    );
  });

  it('moves a deadline at or before the earliest start to the next day', () => {
    const { jobs } = jobsFromWorkloads([
      workload({ name: 'overnight', window: { earliestStart: 1320, deadline: 240 } }),
      workload({ name: 'all-day', window: { earliestStart: 360, deadline: 360 } }),
    ]);
    expect(jobs.map((j) => [j.release, j.deadline])).toEqual([
      [1320, 1680],
      [360, 1800],
    ]);
  });

  it('leaves out a workload whose runtime does not fit its window, and says why', () => {
    const { jobs, problems } = jobsFromWorkloads([workload({ name: 'too-long', runtime: 420, jobsPerDay: 2 }), workload({ name: 'fine' })]);
    expect(jobs.map((j) => j.workload)).toEqual(['fine']);
    expect(problems.map((p) => ({ workload: p.workload, message: expandProblemWords(p) }))).toEqual([
      {
        workload: 'too-long',
        message: 'runtime 420 min is longer than its window 00:00–06:00 (360 min), so no start time meets the deadline',
      },
    ]);
  });

  it('rounds a part-minute runtime up and reports sizes it cannot plan', () => {
    const { jobs, problems } = jobsFromWorkloads([
      workload({ name: 'partial', runtime: 90.5 }),
      workload({ name: 'half-gpu', gpusPerJob: 0.5 }),
    ]);
    expect(jobs.map((j) => j.duration)).toEqual([91]);
    expect(problems.map((p) => p.workload)).toEqual(['half-gpu']);
  });

  it('plans a day unless some workload names weekdays', () => {
    expect(jobsFromWorkloads([workload({ name: 'daily' })]).cycle).toBe(1440);
  });

  it('plans a week from Monday 00:00 once a workload names weekdays, and runs the others every day', () => {
    const { jobs, problems, cycle } = jobsFromWorkloads([
      workload({ name: 'weekend', days: ['sat', 'sun'], jobsPerDay: 2, window: { earliestStart: 1320, deadline: 240 } }),
      workload({ name: 'daily' }),
    ]);
    expect(problems).toEqual([]);
    expect(cycle).toBe(10080);
    const weekend = jobs.filter((j) => j.workload === 'weekend');
    // Saturday is day 5: 22:00 Saturday to 04:00 Sunday; Sunday's runs end at 04:00 on the next Monday.
    expect(weekend.map((j) => [j.run, j.release, j.deadline])).toEqual([
      [1, 5 * 1440 + 1320, 6 * 1440 + 240],
      [2, 5 * 1440 + 1320, 6 * 1440 + 240],
      [3, 6 * 1440 + 1320, 7 * 1440 + 240],
      [4, 6 * 1440 + 1320, 7 * 1440 + 240],
    ]);
    const daily = jobs.filter((j) => j.workload === 'daily');
    expect(daily.map((j) => [j.run, j.release])).toEqual([0, 1, 2, 3, 4, 5, 6].map((d) => [d + 1, d * 1440]));
  });

  it('expands on the cycle it is given', () => {
    const { jobs, cycle } = jobsFromWorkloads([workload({ name: 'daily', jobsPerDay: 2 })], 10080);
    expect(cycle).toBe(10080);
    expect(jobs).toHaveLength(14);
  });

  it('plans a week when a window is longer than a day, and places runs that last past the next day', () => {
    const { jobs, problems, cycle } = jobsFromWorkloads([
      workload({
        name: 'fine-tune',
        gpusPerJob: 8,
        runtime: 36 * 60,
        days: ['sat'],
        window: { earliestStart: 0, deadline: 2 * 1440 + 360 },
      }),
      workload({ name: 'long-window', window: { earliestStart: 0, deadline: 1440 + 360 } }),
    ]);
    expect(problems).toEqual([]);
    expect(cycle).toBe(10080);
    expect(jobs.filter((j) => j.workload === 'fine-tune').map((j) => [j.release, j.deadline, j.duration])).toEqual([
      [5 * 1440, 7 * 1440 + 360, 2160],
    ]);
    // Every day, a 30-hour window: Sunday's ends on the next Monday 06:00, past the week.
    expect(jobs.filter((j) => j.workload === 'long-window').at(-1)).toMatchObject({ release: 6 * 1440, deadline: 6 * 1440 + 1440 + 360 });
  });
});
