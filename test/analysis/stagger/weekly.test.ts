import fc from 'fast-check';
import { boundText } from '../../../src/report/bound-proof.js';
import { describe, expect, it } from 'vitest';
import { checkSchedule, usageProfile } from '../../../src/analysis/stagger/check.js';
import { jobsFromWorkloads } from '../../../src/analysis/stagger/expand.js';
import { planStagger } from '../../../src/analysis/stagger/plan.js';
import { bruteForcePeak, H, job, jobsArb, naivePeak, workload } from './helpers.js';

const DAY = 24 * H;
const WEEK = 7 * DAY;
const SAT = 5 * DAY;
const SUN = 6 * DAY;

describe('planStagger on a weekly cycle', () => {
  it('keeps runs on different weekdays apart, where a daily cycle would stack them', () => {
    // Two 4-GPU, 4-hour runs in a 00:00–06:00 window must overlap 2 hours on the same day.
    const sameDay = planStagger([job('a', 4, 4 * H, 0, 6 * H), job('b', 4, 4 * H, 0, 6 * H)]);
    expect(sameDay.peakGpus).toBe(8);
    const weekend = [job('sat', 4, 4 * H, SAT, SAT + 6 * H), job('sun', 4, 4 * H, SUN, SUN + 6 * H)];
    const plan = planStagger(weekend, { cycle: WEEK });
    expect(plan).toMatchObject({ peakGpus: 4, lowerBound: 4, optimal: true, cycle: WEEK, naivePeakGpus: 4 });
    expect(checkSchedule(weekend, plan)).toEqual([]);
  });

  it('carries a Sunday-night run into the next Monday morning', () => {
    // Sunday 22:00 to Monday 04:00, 6 hours: it holds Monday 00:00–04:00, where the Monday job must run.
    const jobs = [job('sunday-night', 2, 6 * H, SUN + 22 * H, WEEK + 4 * H), job('monday', 2, 4 * H, 0, 4 * H)];
    const plan = planStagger(jobs, { cycle: WEEK });
    expect(plan.peakGpus).toBe(4);
    expect(plan.lowerBound).toBe(4);
    expect(usageProfile(plan.schedule, WEEK).peakAt).toBe(0);
    expect(checkSchedule(jobs, plan)).toEqual([]);
  });

  it('names weekdays in its proofs', () => {
    // Three 2-GPU, 4-hour runs in Saturday 00:00–08:00: 24 GPU-hours in 8 hours.
    const jobs = ['a', 'b', 'c'].map((name) => job(name, 2, 4 * H, SAT, SAT + 8 * H));
    const plan = planStagger(jobs, { cycle: WEEK });
    expect(plan.peakGpus).toBe(4);
    expect(plan.optimal).toBe(true);
    expect(boundText(plan.boundProof)).toContain('between Sat 00:00 and Sat 08:00');
  });

  it('plans a catalog with weekday workloads end to end', () => {
    const { jobs, cycle } = jobsFromWorkloads([
      workload({
        name: 'weekday-eval',
        gpusPerJob: 4,
        runtime: 4 * H,
        jobsPerDay: 2,
        days: ['mon', 'tue', 'wed', 'thu', 'fri'],
        window: { earliestStart: 0, deadline: 8 * H },
      }),
      workload({ name: 'weekend-train', gpusPerJob: 8, runtime: 20 * H, days: ['sat'], window: { earliestStart: 0, deadline: 1440 } }),
    ]);
    const plan = planStagger(jobs, { cycle });
    // Weekdays: two 4-hour runs in 8 hours, back to back; Saturday: one 8-GPU run.
    expect(plan).toMatchObject({ peakGpus: 8, lowerBound: 8, optimal: true, cycle: WEEK });
    expect(checkSchedule(jobs, plan)).toEqual([]);
  });

  it('plans a run longer than a day inside a weekend window', () => {
    const { jobs, cycle } = jobsFromWorkloads([
      // 36 hours on 8 GPUs between Saturday 00:00 and Monday 06:00.
      workload({
        name: 'fine-tune',
        gpusPerJob: 8,
        runtime: 36 * H,
        days: ['sat'],
        window: { earliestStart: 0, deadline: 2 * DAY + 6 * H },
      }),
      // Weekday nights, 4 GPUs for 8 hours between 20:00 and 06:00.
      workload({
        name: 'nightly',
        gpusPerJob: 4,
        runtime: 8 * H,
        days: ['mon', 'tue', 'wed', 'thu', 'fri'],
        window: { earliestStart: 20 * H, deadline: 6 * H },
      }),
    ]);
    const plan = planStagger(jobs, { cycle });
    expect(checkSchedule(jobs, plan)).toEqual([]);
    // Friday's night run ends by Saturday 06:00, so the fine-tune must share at most until then:
    // it starts at or after Friday's run ends, or overlaps it; the planner keeps them apart.
    expect(plan).toMatchObject({ peakGpus: 8, lowerBound: 8, optimal: true });
    const tune = plan.schedule.find((r) => r.workload === 'fine-tune');
    expect(tune?.pieces[0]?.end).toBeLessThanOrEqual(WEEK + 6 * H);
  });

  it('rejects a cycle other than a day or a week, and releases past the cycle', () => {
    expect(() => planStagger([job('x', 1, H, 0, 6 * H)], { cycle: 3 * DAY })).toThrow(expect.objectContaining({ kind: 'invalid-option' }));
    expect(() => planStagger([job('x', 1, H, SAT, SAT + 6 * H)])).toThrow(expect.objectContaining({ kind: 'invalid-job' }));
    expect(() => planStagger([job('x', 1, H, WEEK, WEEK + 6 * H)], { cycle: WEEK })).toThrow(/release/);
  });

  it('is sound and exact on random small weekly instances', () => {
    // 6-hour units: 28 slots a week, windows of up to a day, releases anywhere in the week.
    const weekly = { maxRuns: 6, unit: 6 * H, maxWindowUnits: 4, fullDay: false, interruptible: false, cycle: WEEK };
    fc.assert(
      fc.property(jobsArb(weekly), (jobs) => {
        const plan = planStagger(jobs, { cycle: WEEK });
        expect(checkSchedule(jobs, plan)).toEqual([]);
        expect(plan.naivePeakGpus).toBe(naivePeak(jobs, WEEK));
        const brute = bruteForcePeak(jobs, weekly.unit, WEEK);
        expect(plan.lowerBound).toBeLessThanOrEqual(brute);
        expect(plan.optimal).toBe(true);
        expect(plan.peakGpus).toBe(brute);
      }),
      { numRuns: 120 },
    );
  });
});
