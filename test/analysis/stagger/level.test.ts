import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildModel, objectiveOf, profileOf, type GridModel, type Placement } from '../../../src/analysis/stagger/grid.js';
import { greedyPlacement, naivePlacement } from '../../../src/analysis/stagger/heuristic.js';
import { levelPeak } from '../../../src/analysis/stagger/level.js';
import { lowerBound } from '../../../src/analysis/stagger/lower-bound.js';
import { planStagger } from '../../../src/analysis/stagger/plan.js';
import { StaggerError } from '../../../src/analysis/stagger/errors.js';
import { H, job, jobsArb, runs } from './helpers.js';

const peakOf = (model: GridModel, placement: Placement): number => objectiveOf(profileOf(model, placement)).peak;

/** Every run in one piece inside its window, or (when it came split) exactly as it came. */
function expectFeasible(model: GridModel, before: Placement, after: Placement): void {
  model.jobs.forEach((job, i) => {
    const pieces = after[i] ?? [];
    if ((before[i] ?? []).length > 1) {
      expect(pieces).toEqual(before[i]);
      return;
    }
    expect(pieces).toHaveLength(1);
    const only = pieces[0];
    expect(only?.len).toBe(job.len);
    expect(only?.start).toBeGreaterThanOrEqual(job.lo);
    expect(only?.start).toBeLessThanOrEqual(job.hi);
  });
}

const medium = { maxRuns: 40, unit: 30, maxWindowUnits: 24, fullDay: true, interruptible: false };

describe('levelPeak', () => {
  it('never raises the peak, reports the real peak, keeps every run in its window and never goes below the bound', () => {
    fc.assert(
      fc.property(jobsArb(medium), fc.boolean(), (jobs, fromNaive) => {
        const model = buildModel(jobs);
        const start = fromNaive ? naivePlacement(model) : greedyPlacement(model, false);
        const bound = lowerBound(jobs).value;
        const result = levelPeak(model, start, bound, 200_000);
        expect(result.peak).toBeLessThanOrEqual(peakOf(model, start));
        expect(result.peak).toBe(peakOf(model, result.placement));
        expect(result.peak).toBeGreaterThanOrEqual(bound);
        expectFeasible(model, start, result.placement);
      }),
      { numRuns: 100 },
    );
  });

  it('leaves split runs where they are', () => {
    const jobs = [
      job('split', 2, 4 * H, 0, 6 * H, true),
      ...runs('whole', 3, { gpus: 2, duration: 2 * H, release: 0, deadline: 6 * H, interruptible: false }),
    ];
    const model = buildModel(jobs);
    const start: Placement = [
      [
        { start: 0, len: 1 },
        { start: 2, len: 1 },
      ],
      ...model.jobs.slice(1).map((j) => [{ start: j.lo, len: j.len }]),
    ];
    const result = levelPeak(model, start, 0);
    expectFeasible(model, start, result.placement);
    expect(result.peak).toBeLessThan(peakOf(model, start));
  });

  it('spreads a crowd down to the lower bound', () => {
    // 48 one-hour runs all released at midnight, any time of day: two at a time suffice.
    const jobs = runs('crowd', 48, { gpus: 1, duration: H, release: 0, deadline: 24 * H, interruptible: false });
    const model = buildModel(jobs);
    const result = levelPeak(model, naivePlacement(model), lowerBound(jobs).value);
    expect(lowerBound(jobs).value).toBe(2);
    expect(result.peak).toBe(2);
  });

  it('gives up sooner with fewer stall sweeps, and on the same path', () => {
    fc.assert(
      fc.property(jobsArb(medium), (jobs) => {
        const model = buildModel(jobs);
        const start = naivePlacement(model);
        // Aimed below anything reachable, so only the stall stops it.
        const short = levelPeak(model, start, 0, 10_000_000, 5);
        const long = levelPeak(model, start, 0, 10_000_000, 50);
        expect(short.work).toBeLessThanOrEqual(long.work);
        expect(short.peak).toBeGreaterThanOrEqual(long.peak);
        expectFeasible(model, start, short.placement);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic and respects its work budget', () => {
    const jobs = runs('crowd', 30, { gpus: 2, duration: 3 * H, release: 20 * H, deadline: 30 * H, interruptible: false });
    const model = buildModel(jobs);
    const naive = naivePlacement(model);
    expect(levelPeak(model, naive, 0, 50_000)).toEqual(levelPeak(model, naive, 0, 50_000));
    const idle = levelPeak(model, naive, 0, 0);
    expect(idle.work).toBe(0);
    expect(idle.placement).toEqual(naive);
  });
});

describe('planStagger with levelling', () => {
  it('is never worse than the heuristic without it', () => {
    fc.assert(
      fc.property(jobsArb({ ...medium, interruptible: true }), (jobs) => {
        const without = planStagger(jobs, { levelWork: 0, nodeBudget: 0 });
        const withLevel = planStagger(jobs, { nodeBudget: 0 });
        expect(withLevel.peakGpus).toBeLessThanOrEqual(without.peakGpus);
      }),
      { numRuns: 60 },
    );
  });

  it('rejects a negative or fractional levelWork', () => {
    for (const levelWork of [-1, 1.5]) {
      expect(() => planStagger([job('x', 1, H, 0, 6 * H)], { levelWork })).toThrow(StaggerError);
    }
  });
});
