import { describe, expect, it } from 'vitest';
import { jobsFromWorkloads } from '../../../src/analysis/stagger/expand.js';
import { workload } from './helpers.js';

describe('jobsFromWorkloads', () => {
  it('makes one job per daily run', () => {
    const { jobs, problems } = jobsFromWorkloads([workload({ name: 'nightly-eval', jobsPerDay: 4, interruptible: true })]);
    expect(problems).toEqual([]);
    expect(jobs).toEqual(
      [1, 2, 3, 4].map((run) => ({ workload: 'nightly-eval', run, gpus: 2, duration: 120, release: 0, deadline: 360, interruptible: true })),
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
    const { jobs, problems } = jobsFromWorkloads([
      workload({ name: 'too-long', runtime: 420, jobsPerDay: 2 }),
      workload({ name: 'fine' }),
    ]);
    expect(jobs.map((j) => j.workload)).toEqual(['fine']);
    expect(problems).toEqual([
      { workload: 'too-long', message: 'runtime 420 min is longer than its window 00:00–06:00 (360 min), so no start time meets the deadline' },
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
});
