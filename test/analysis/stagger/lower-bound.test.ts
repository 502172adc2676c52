import { describe, expect, it } from 'vitest';
import { lowerBound, type LowerBound } from '../../../src/analysis/stagger/lower-bound.js';
import { mandatoryMinutes } from './minutes-reference.js';
import { H, job, runs } from './helpers.js';
import { boundText } from '../../../src/report/bound-proof.js';

/** The bound with its proof in words, as the report states it. */
const worded = (b: LowerBound) => ({ value: b.value, reason: boundText(b.reason) });

describe('lowerBound', () => {
  it('is 0 with no runs', () => {
    expect(lowerBound([]).value).toBe(0);
  });

  it.each([
    {
      what: 'names the largest job when nothing else binds',
      jobs: () => [job('big', 4, H, 0, 10 * H), job('small', 1, H, 0, 10 * H)],
      value: 4,
      reason: 'the largest job (big) needs 4 GPUs',
    },
    {
      what: 'uses the whole day: total GPU-minutes over 1440',
      jobs: () => runs('train', 3, { gpus: 1, duration: 12 * H, release: 0, deadline: 24 * H, interruptible: false }),
      value: 2,
      reason: 'over the whole day the runs do 2160 GPU-minutes of work: at least 2 GPUs',
    },
    {
      what: 'reasons over a window and rounds up to the jobs’ GPU multiple',
      jobs: () => runs('nightly-eval', 4, { gpus: 2, duration: 2 * H, release: 0, deadline: 6 * H, interruptible: false }),
      value: 4,
      reason:
        'between 00:00 and 06:00 the runs must do 960 GPU-minutes of work: at least 3 GPUs, ' +
        'and every job uses a multiple of 2 GPUs, so at least 4',
    },
  ])('$what', ({ jobs, value, reason }) => {
    expect(worded(lowerBound(jobs()))).toEqual({ value, reason });
  });

  it('counts work forced across midnight', () => {
    // Both must run in 23:00–01:00 (their whole window), one GPU each.
    const jobs = [job('a', 1, 2 * H, 23 * H, 25 * H), job('b', 1, 2 * H, 23 * H, 25 * H)];
    expect(lowerBound(jobs).value).toBe(2);
  });
});

describe('mandatoryMinutes', () => {
  it('measures a run that must cross midnight against an early-morning interval', () => {
    const crossing = job('a', 1, 4 * H, 22 * H, 28 * H);
    expect(mandatoryMinutes(crossing, 0, 2 * H)).toBe(2 * H);
    expect(mandatoryMinutes(crossing, 23 * H, 2 * H)).toBe(H);
  });

  it('lets an interruptible run avoid the interval with the rest of its window', () => {
    expect(mandatoryMinutes(job('a', 1, 4 * H, 22 * H, 28 * H, true), 0, 2 * H)).toBe(0);
    expect(mandatoryMinutes(job('a', 1, 5 * H, 22 * H, 28 * H, true), 0, 2 * H)).toBe(H);
  });

  it('finds the least overlap inside the start range, not only at its ends', () => {
    // Starting at 02:30 overlaps 00:00–03:20 by 50 min, and so does the latest start
    // (23:10, into the next day's 00:00); starting at 05:00 avoids the interval.
    const wide = job('a', 1, 100, 150, 1490);
    expect(mandatoryMinutes(wide, 0, 200)).toBe(0);
  });

  it('is the whole duration for the whole day', () => {
    expect(mandatoryMinutes(job('a', 1, 300, 600, 1500), 0, 1440)).toBe(300);
  });
});

describe('lowerBound: runs too big to share', () => {
  it('makes big runs take turns when their forced time exceeds the window', () => {
    // Three 8-GPU runs of 5 h in a 12-hour window: two must overlap, so 16 GPUs, though the
    // energy alone gives only ceil(7200 / 720) = 10.
    const jobs = [
      ...runs('train', 3, { gpus: 8, duration: 5 * H, release: 22 * H, deadline: 34 * H, interruptible: false }),
      ...runs('fast', 20, { gpus: 1, duration: 10, release: 0, deadline: 24 * H, interruptible: false }),
    ];
    expect(worded(lowerBound(jobs))).toEqual({
      value: 16,
      reason:
        'no two runs of 8 GPUs or more fit side by side in 15 GPUs, and between 22:00 and 10:00 ' +
        'they need 900 minutes one after another, more than the 720 there: at least 16 GPUs',
    });
  });

  it('holds for interruptible runs too', () => {
    const jobs = runs('ckpt', 3, { gpus: 8, duration: 5 * H, release: 22 * H, deadline: 34 * H, interruptible: true });
    expect(lowerBound(jobs).value).toBe(16);
    // With room to take turns, one run at a time is enough.
    expect(lowerBound(runs('ckpt', 2, { gpus: 8, duration: 5 * H, release: 22 * H, deadline: 34 * H, interruptible: true })).value).toBe(8);
  });
});

describe('lowerBound on many distinct windows', () => {
  it('still sees a short crowd when there are too many points to pair them all', () => {
    // 40 one-GPU fillers with their own windows make 80 releases and deadlines, so not all pairs
    // are tried; the five 10-GPU runs are all forced into 10:00–11:00.
    const fillers = Array.from({ length: 40 }, (_, i) => job(`f${i}`, 1, 10, 7 * i, 7 * i + 121));
    const crowd = runs('crowd', 5, { gpus: 10, duration: H, release: 10 * H, deadline: 11 * H, interruptible: false });
    expect(lowerBound([...fillers, ...crowd]).value).toBe(50);
  });
});
