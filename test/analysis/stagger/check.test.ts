import { describe, expect, it } from 'vitest';
import { checkSchedule, usageAt, usageProfile } from '../../../src/analysis/stagger/check.js';
import { scheduleProblemWords } from '../../../src/report/stagger-problems.js';
import type { PlacedRun, StaggerPlan } from '../../../src/domain/index.js';
import { H, job } from './helpers.js';

const jobs = [job('a', 2, 2 * H, 22 * H, 28 * H), job('b', 1, 2 * H, 0, 6 * H, true)];
const sound: StaggerPlan = {
  peakGpus: 2,
  lowerBound: 2,
  optimal: true,
  naivePeakGpus: 3,
  boundProof: { code: 'largest-job', value: 2, workload: 'a', gpus: 2 },
  cycle: 1440,
  schedule: [
    { workload: 'a', run: 1, gpus: 2, pieces: [{ start: 23 * H, end: 25 * H }] },
    {
      workload: 'b',
      run: 1,
      gpus: 1,
      pieces: [
        { start: 2 * H, end: 3 * H },
        { start: 4 * H, end: 5 * H },
      ],
    },
  ],
};

const withRun = (i: number, run: PlacedRun): StaggerPlan => ({ ...sound, schedule: sound.schedule.map((r, k) => (k === i ? run : r)) });
const a = (pieces: PlacedRun['pieces'], gpus = 2): PlacedRun => ({ workload: 'a', run: 1, gpus, pieces });

describe('checkSchedule', () => {
  it('accepts a sound plan', () => {
    expect(checkSchedule(jobs, sound)).toEqual([]);
  });

  it.each([
    ['a start before the window opens', withRun(0, a([{ start: 21 * H, end: 23 * H }])), /before its window opens/],
    ['an end after the deadline', withRun(0, a([{ start: 27 * H, end: 29 * H }])), /after its deadline/],
    [
      'a split run that is not interruptible',
      withRun(
        0,
        a([
          { start: 23 * H, end: 24 * H },
          { start: 25 * H, end: 26 * H },
        ]),
      ),
      /not interruptible/,
    ],
    ['a wrong length', withRun(0, a([{ start: 23 * H, end: 24 * H }])), /runs 60 min, not 120/],
    ['wrong GPUs', withRun(0, a([{ start: 23 * H, end: 25 * H }], 1)), /1 GPUs, not 2/],
    [
      'overlapping pieces',
      withRun(1, {
        workload: 'b',
        run: 1,
        gpus: 1,
        pieces: [
          { start: 0, end: 90 },
          { start: 60, end: 90 },
        ],
      }),
      /overlapping pieces/,
    ],
    ['a missing run', { ...sound, schedule: sound.schedule.slice(1) }, /a run 1 is not scheduled/],
    [
      'an unknown run',
      { ...sound, schedule: [...sound.schedule, { workload: 'c', run: 1, gpus: 1, pieces: [{ start: 0, end: 1 }] }] },
      /c run 1 is not one of the jobs/,
    ],
    ['an understated peak', { ...sound, peakGpus: 1, lowerBound: 1 }, /states a peak of 1 GPUs but the schedule reaches 2/],
    ['a bound above the peak', { ...sound, lowerBound: 3 }, /lower bound 3 is above the peak 2/],
  ])('reports %s', (_, plan, message) => {
    expect(checkSchedule(jobs, plan).map(scheduleProblemWords)).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  });

  it('sees a midnight-crossing run collide with an early one on the daily cycle', () => {
    const plan = withRun(1, { workload: 'b', run: 1, gpus: 1, pieces: [{ start: 0, end: 2 * H }] });
    expect(checkSchedule(jobs, plan).map(scheduleProblemWords)).toEqual(['the plan states a peak of 2 GPUs but the schedule reaches 3']);
  });
});

describe('usageProfile', () => {
  it('folds a run past midnight onto the start of the day', () => {
    const profile = usageProfile([
      { workload: 'a', run: 1, gpus: 2, pieces: [{ start: 22 * H, end: 26 * H }] },
      { workload: 'b', run: 1, gpus: 1, pieces: [{ start: H, end: 3 * H }] },
    ]);
    expect(profile).toEqual({
      steps: [
        { from: 0, to: H, gpus: 2 },
        { from: H, to: 2 * H, gpus: 3 },
        { from: 2 * H, to: 3 * H, gpus: 1 },
        { from: 3 * H, to: 22 * H, gpus: 0 },
        { from: 22 * H, to: 24 * H, gpus: 2 },
      ],
      peakGpus: 3,
      peakAt: H,
      gpuMinutes: 2 * 240 + 120,
    });
    expect(usageAt(profile, 25 * H + 30)).toBe(3);
    expect(usageAt(profile, 12 * H)).toBe(0);
  });

  it('covers the whole day for a full-day run, and is flat zero when empty', () => {
    expect(usageProfile([{ workload: 'a', run: 1, gpus: 3, pieces: [{ start: 6 * H, end: 30 * H }] }]).steps).toEqual([
      { from: 0, to: 1440, gpus: 3 },
    ]);
    expect(usageProfile([])).toEqual({ steps: [{ from: 0, to: 1440, gpus: 0 }], peakGpus: 0, peakAt: 0, gpuMinutes: 0 });
  });
});
