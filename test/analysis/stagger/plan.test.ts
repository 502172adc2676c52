import { boundText } from '../../../src/report/bound-proof.js';
import { describe, expect, it } from 'vitest';
import { checkSchedule } from '../../../src/analysis/stagger/check.js';
import { lowerBound } from '../../../src/analysis/stagger/lower-bound.js';
import { planStagger } from '../../../src/analysis/stagger/plan.js';
import { H, job, runs, startsOf } from './helpers.js';

describe('planStagger: hand-checked cases', () => {
  it('starts four 2-GPU, 2-hour jobs in a 00:00–06:00 window in pairs: peak 4 instead of 8', () => {
    const jobs = runs('nightly-eval', 4, { gpus: 2, duration: 2 * H, release: 0, deadline: 6 * H, interruptible: false });
    const plan = planStagger(jobs);
    expect(plan.naivePeakGpus).toBe(8);
    expect(plan.peakGpus).toBe(4);
    expect(plan.lowerBound).toBeGreaterThanOrEqual(3);
    expect(plan.optimal).toBe(true);
    expect(checkSchedule(jobs, plan)).toEqual([]);
    // Peak 4 with 2-GPU runs means never more than two at once: pairs.
    const starts = startsOf(plan, 'nightly-eval').sort((a, b) => a - b);
    for (const s of starts) expect(starts.filter((t) => Math.abs(t - s) < 2 * H).length).toBeLessThanOrEqual(2);
  });

  it('places a single job at its release, peak = its GPUs, optimal', () => {
    const jobs = [job('solo', 3, 90, 8 * H, 12 * H)];
    const plan = planStagger(jobs);
    expect(plan).toMatchObject({ peakGpus: 3, lowerBound: 3, optimal: true, naivePeakGpus: 3 });
    expect(boundText(plan.boundProof)).toBe('the largest job (solo) needs 3 GPUs');
    expect(plan.schedule[0]?.pieces).toHaveLength(1);
    expect(checkSchedule(jobs, plan)).toEqual([]);
  });

  it('sees a run crossing midnight overlap the next early-morning run, and moves the other run past it', () => {
    // a: 22:00–04:00 window, 3 h; b: 00:00–03:00 window, 2 h. Starting at release, a runs
    // 22:00–01:00 and collides with b at 00:00 on the daily cycle.
    const jobs = [job('a', 2, 3 * H, 22 * H, 28 * H), job('b', 2, 2 * H, 0, 3 * H)];
    const plan = planStagger(jobs);
    expect(plan.naivePeakGpus).toBe(4);
    expect(plan.peakGpus).toBe(2);
    expect(plan.optimal).toBe(true);
    expect(startsOf(plan, 'a')).toEqual([22 * H]);
    expect(startsOf(plan, 'b')).toEqual([1 * H]);
    expect(checkSchedule(jobs, plan)).toEqual([]);
  });

  it('counts an unavoidable overlap across midnight in the peak and in the bound', () => {
    // a must cover 00:00–02:00 (it starts by midnight and runs 4 h); b runs within 00:00–03:00.
    const jobs = [job('a', 2, 4 * H, 22 * H, 28 * H), job('b', 2, 2 * H, 0, 3 * H)];
    const plan = planStagger(jobs);
    expect(plan.peakGpus).toBe(4);
    expect(plan.lowerBound).toBe(4);
    expect(plan.optimal).toBe(true);
    // a covers 00:00–02:00 whatever its start, and b must run inside 00:00–03:00.
    expect(boundText(plan.boundProof)).toBe(
      'wherever a (2 GPUs) runs, other runs that cannot move out of that time already hold 2 GPUs: at least 4 GPUs',
    );
    // The energetic bound sees it too, over an arc around midnight.
    expect(boundText(lowerBound(jobs).reason)).toMatch(
      /^between \d\d:\d\d and \d\d:\d\d the runs must do \d+ GPU-minutes of work: at least 4 GPUs$/,
    );
  });

  it('spreads runs with a full-day window around the whole cycle, one crossing midnight', () => {
    const jobs = runs('train', 3, { gpus: 1, duration: 8 * H, release: 6 * H, deadline: 30 * H, interruptible: false });
    const plan = planStagger(jobs);
    expect(plan).toMatchObject({ peakGpus: 1, lowerBound: 1, optimal: true, naivePeakGpus: 3 });
    expect(startsOf(plan, 'train').sort((a, b) => a - b)).toEqual([6 * H, 14 * H, 22 * H]);
    expect(checkSchedule(jobs, plan)).toEqual([]);
  });

  it('splits an interruptible job around a fixed one when that lowers the peak', () => {
    const fixed = job('fixed', 1, 2 * H, 2 * H, 4 * H);
    const flexible = (interruptible: boolean) => job('ckpt', 1, 4 * H, 0, 6 * H, interruptible);

    const split = planStagger([fixed, flexible(true)]);
    expect(split).toMatchObject({ peakGpus: 1, lowerBound: 1, optimal: true, naivePeakGpus: 2 });
    expect(split.schedule.find((r) => r.workload === 'ckpt')?.pieces).toEqual([
      { start: 0, end: 2 * H },
      { start: 4 * H, end: 6 * H },
    ]);
    expect(checkSchedule([fixed, flexible(true)], split)).toEqual([]);

    const whole = planStagger([fixed, flexible(false)]);
    expect(whole).toMatchObject({ peakGpus: 2, lowerBound: 2, optimal: true });
  });

  it('keeps an interruptible job in one piece when splitting gains nothing', () => {
    const plan = planStagger(runs('ckpt', 2, { gpus: 1, duration: 2 * H, release: 0, deadline: 6 * H, interruptible: true }));
    expect(plan.peakGpus).toBe(1);
    for (const run of plan.schedule) expect(run.pieces).toHaveLength(1);
  });

  // Two 1-GPU, 1-hour runs fill 00:00–01:00, so neither 2-hour run of w0 can start then
  // within 3 GPUs; both must fit in 01:00–04:00 and overlap. Plain energy only sees
  // ceil(600 GPU-min / 240 min) = 3; counted with what each hour can hold within 3 GPUs
  // (3 in the first, 2 in the others: two 2-GPU runs cannot use a third GPU), 540 < 600.
  const tight = [
    ...runs('w0', 2, { gpus: 2, duration: 2 * H, release: 0, deadline: 4 * H, interruptible: false }),
    ...runs('w1', 2, { gpus: 1, duration: H, release: 0, deadline: H, interruptible: false }),
  ];

  it('proves an optimum above the plain energetic bound from what each slot can hold', () => {
    const plan = planStagger(tight);
    expect(plan.lowerBound).toBe(4);
    expect(plan.peakGpus).toBe(4);
    expect(plan.optimal).toBe(true);
    expect(boundText(plan.boundProof)).toBe(
      'over the whole day the runs must do 600 GPU-minutes of work, and with at most 3 GPUs in use only 540 fit there ' +
        '(at some moments the runs able to be there add up to less than 3 GPUs): at least 4 GPUs',
    );
  });

  it('proves by exhaustive search what no bound sees, and says so', () => {
    const jobs = [
      job('a', 1, H, 3 * H, 6 * H),
      job('b', 2, 5 * H, 6 * H, 11 * H),
      job('c', 4, H, 2 * H, 5 * H),
      job('d', 4, 2 * H, 2 * H, 6 * H),
      job('e', 1, H, 2 * H, 3 * H),
    ];
    const plan = planStagger(jobs);
    expect(plan).toMatchObject({ peakGpus: 5, lowerBound: 5, optimal: true });
    expect(boundText(plan.boundProof)).toBe(
      'no choice of start times on the 60-minute grid keeps every run within 4 GPUs (an exhaustive search; ' +
        'without it: the largest job (c) needs 4 GPUs)',
    );
    expect(planStagger(jobs, { nodeBudget: 0 })).toMatchObject({ peakGpus: 5, lowerBound: 4, optimal: false });
  });

  it('sees a run forced beside the compulsory part of another', () => {
    // The 4-GPU run holds 03:00–08:00 whatever happens; the 8-GPU run must start at 03:00 or
    // 04:00, inside it: 12 GPUs. Energy and the LP see only the 8-GPU run alone.
    const jobs = [
      job('big', 8, H, 3 * H, 5 * H),
      job('late', 2, H, 7 * H, 11 * H),
      job('long', 4, 5 * H, 3 * H, 8 * H),
      job('small', 1, 5 * H, 5 * H, 10 * H),
    ];
    const plan = planStagger(jobs, { nodeBudget: 0 });
    expect(plan).toMatchObject({ peakGpus: 12, lowerBound: 12, optimal: true });
    expect(boundText(plan.boundProof)).toBe(
      'wherever big (8 GPUs) runs, other runs that cannot move out of that time already hold 4 GPUs: at least 12 GPUs',
    );
  });

  it('does not claim optimality without the search or a matching bound', () => {
    expect(planStagger(tight, { nodeBudget: 0 })).toMatchObject({ peakGpus: 4, lowerBound: 3, optimal: false });
    // Capacity below the bound: no schedule fits, the search is skipped.
    const short = planStagger(tight, { capacity: 2 });
    expect(short).toMatchObject({ peakGpus: 4, lowerBound: 3, optimal: false });
    expect(checkSchedule(tight, short)).toEqual([]);
    // Capacity the bound allows: the search runs as usual.
    expect(planStagger(tight, { capacity: 3 })).toMatchObject({ peakGpus: 4, optimal: true });
  });

  it('does not claim a search proof when a job could still gain from splitting', () => {
    // The search does not split, so with a splittable job only peak == bound proves optimality.
    const jobs = [job('big', 3, 2 * H, 0, 5 * H), job('small', 2, 2 * H, 0, 5 * H), job('ckpt', 2, 2 * H, 0, 5 * H, true)];
    const plan = planStagger(jobs);
    expect(plan.optimal).toBe(plan.peakGpus === plan.lowerBound);
    expect(checkSchedule(jobs, plan)).toEqual([]);
  });

  it('returns the same plan on repeated calls', () => {
    const jobs = [
      ...runs('a', 3, { gpus: 2, duration: 100, release: 23 * H, deadline: 31 * H, interruptible: false }),
      ...runs('b', 2, { gpus: 1, duration: 45, release: 0, deadline: 5 * H, interruptible: true }),
      job('c', 4, 5 * H, 2 * H, 12 * H),
    ];
    expect(planStagger(jobs)).toEqual(planStagger(jobs));
  });

  it('plans nothing for no jobs', () => {
    expect(planStagger([])).toMatchObject({ peakGpus: 0, lowerBound: 0, optimal: true, schedule: [], naivePeakGpus: 0 });
  });

  it('rejects jobs outside its model with a typed error', () => {
    expect(() => planStagger([job('x', 1, 7 * H, 0, 6 * H)])).toThrow(expect.objectContaining({ kind: 'invalid-job' }));
    expect(() => planStagger([job('x', 1.5, H, 0, 6 * H)])).toThrow(/gpus/);
    expect(() => planStagger([job('x', 1, H, 0, 6 * H), job('x', 1, H, 0, 6 * H)])).toThrow(/twice/);
    expect(() => planStagger([job('x', 1, H, 0, 6 * H)], { nodeBudget: -1 })).toThrow(expect.objectContaining({ kind: 'invalid-option' }));
  });
});
