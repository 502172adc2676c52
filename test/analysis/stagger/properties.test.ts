import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSchedule, usageProfile } from '../../../src/analysis/stagger/check.js';
import { lowerBound } from '../../../src/analysis/stagger/lower-bound.js';
import { planStagger } from '../../../src/analysis/stagger/plan.js';
import { bruteForcePeak, bruteForceSplitPeak, jobsArb, naivePeak } from './helpers.js';

const small = { maxRuns: 6, unit: 60, maxWindowUnits: 8, fullDay: true, interruptible: true };

describe('planStagger on random small instances', () => {
  it('is sound, bounded below by lowerBound and above by the naive peak, and right when it says optimal', () => {
    fc.assert(
      fc.property(jobsArb(small), (jobs) => {
        const plan = planStagger(jobs);
        expect(checkSchedule(jobs, plan)).toEqual([]);
        expect(plan.naivePeakGpus).toBe(naivePeak(jobs));
        expect(plan.lowerBound).toBeLessThanOrEqual(plan.peakGpus);
        expect(plan.peakGpus).toBeLessThanOrEqual(plan.naivePeakGpus);
        // Any unsplit schedule is allowed, so the brute-force peak is at or above the optimum.
        const brute = bruteForcePeak(jobs, small.unit);
        expect(plan.lowerBound).toBeLessThanOrEqual(brute);
        if (plan.optimal) expect(plan.peakGpus).toBeLessThanOrEqual(brute);
        // Small instances without interruptible jobs are solved exactly.
        if (!jobs.some((j) => j.interruptible)) {
          expect(plan.optimal).toBe(true);
          expect(plan.peakGpus).toBe(brute);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the bound and the optimality claim honest when jobs may be split', () => {
    const splitty = { maxRuns: 4, unit: 60, maxWindowUnits: 6, fullDay: false, interruptible: true };
    fc.assert(
      fc.property(jobsArb(splitty), (jobs) => {
        const plan = planStagger(jobs);
        const best = bruteForceSplitPeak(jobs, splitty.unit);
        expect(plan.lowerBound).toBeLessThanOrEqual(best);
        if (plan.optimal) expect(plan.peakGpus).toBeLessThanOrEqual(best);
        expect(checkSchedule(jobs, plan)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('loses nothing by searching the gcd grid: a finer grid finds no lower peak', () => {
    const coarse = { maxRuns: 4, unit: 120, maxWindowUnits: 4, fullDay: false, interruptible: false };
    fc.assert(
      fc.property(jobsArb(coarse), (jobs) => {
        expect(planStagger(jobs).peakGpus).toBe(bruteForcePeak(jobs, 30));
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same answer every time', () => {
    fc.assert(
      fc.property(jobsArb(small), (jobs) => {
        expect(planStagger(jobs)).toEqual(planStagger(jobs));
        expect(lowerBound(jobs)).toEqual(lowerBound(jobs));
      }),
      { numRuns: 30 },
    );
  });
});

/** Up to `max` runs at any minute, in windows from a few minutes to a full day. */
const minuteJobs = (max: number) =>
  fc
    .array(
      fc.record({
        gpus: fc.integer({ min: 1, max: 8 }),
        release: fc.integer({ min: 0, max: 1439 }),
        window: fc.integer({ min: 1, max: 1440 }),
        share: fc.double({ min: 0.05, max: 1, noNaN: true }),
        interruptible: fc.boolean(),
      }),
      { minLength: max, maxLength: max },
    )
    .map((specs) =>
      specs.map((s, i) => ({
        workload: `w${i % 7}`,
        run: Math.floor(i / 7) + 1,
        gpus: s.gpus,
        duration: Math.max(1, Math.floor(s.window * s.share)),
        release: s.release,
        deadline: s.release + s.window,
        interruptible: s.interruptible,
      })),
    );

describe('planStagger on larger instances', () => {
  it('returns a sound schedule for 40 runs on a one-minute grid within the node budget', () => {
    fc.assert(
      fc.property(minuteJobs(40), (jobs) => {
        const plan = planStagger(jobs, { nodeBudget: 20_000 });
        expect(checkSchedule(jobs, plan)).toEqual([]);
        expect(plan.lowerBound).toBeLessThanOrEqual(plan.peakGpus);
        expect(plan.peakGpus).toBeLessThanOrEqual(plan.naivePeakGpus);
        expect(usageProfile(plan.schedule).gpuMinutes).toBe(jobs.reduce((s, j) => s + j.gpus * j.duration, 0));
      }),
      { numRuns: 5 },
    );
  });
});
