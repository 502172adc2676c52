import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arcEnergy } from '../../../src/analysis/stagger/arc-energy.js';
import { buildModel } from '../../../src/analysis/stagger/grid.js';
import { limitFacts } from '../../../src/analysis/stagger/limit-facts.js';
import { lowerBound } from '../../../src/analysis/stagger/lower-bound.js';
import { searchStarts } from '../../../src/analysis/stagger/search.js';
import { bruteForcePeak, jobsArb, naivePeak } from './helpers.js';

const small = { maxRuns: 6, unit: 60, maxWindowUnits: 8, fullDay: true, interruptible: false };

describe('searchStarts', () => {
  it('seeded only with the naive peak, reaches the brute-force optimum and proves it', () => {
    fc.assert(
      fc.property(jobsArb(small), (jobs) => {
        const model = buildModel(jobs);
        const result = searchStarts(model, naivePeak(jobs) + 1, lowerBound(jobs).value, 1_000_000);
        expect(result.proved).toBe(true);
        expect(result.peak).toBe(bruteForcePeak(jobs, small.unit));
        const starts = result.starts ?? [];
        jobs.forEach((job, i) => {
          const start = (starts[i] ?? NaN) * model.step;
          expect(start).toBeGreaterThanOrEqual(job.release);
          expect(start + job.duration).toBeLessThanOrEqual(job.deadline);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('orders interchangeable runs of different windows without losing the optimum', () => {
    // Few sizes and lengths, so many runs are interchangeable but for their windows.
    const run = fc.record({
      gpus: fc.integer({ min: 1, max: 2 }),
      length: fc.integer({ min: 1, max: 2 }),
      release: fc.integer({ min: 0, max: 23 }),
      slack: fc.integer({ min: 0, max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(run, { minLength: 2, maxLength: 7 }), (specs) => {
        const jobs = specs.map((r, i) => ({
          workload: `w${i}`,
          run: 1,
          gpus: r.gpus,
          duration: r.length * 60,
          release: r.release * 60,
          deadline: (r.release + r.length + r.slack) * 60,
          interruptible: false,
        }));
        const result = searchStarts(buildModel(jobs), naivePeak(jobs) + 1, 0, 1_000_000);
        expect(result.proved).toBe(true);
        expect(result.peak).toBe(bruteForcePeak(jobs, 60));
      }),
      { numRuns: 300 },
    );
  });

  it('chains runs of one size and length whose start ranges are ordered at both ends', () => {
    const at = (gpus: number, release: number, deadline: number) => ({
      workload: `r${release}`,
      run: 1,
      gpus,
      duration: 120,
      release: release * 60,
      deadline: deadline * 60,
      interruptible: false,
    });
    // Start ranges (hours): a [1, 4], b [2, 6], c [3, 5], d [4, 7], e another size. b follows a;
    // c ends before b and a already has b; d follows c, the latest free one.
    const model = buildModel([at(2, 3, 7), at(2, 1, 6), at(2, 2, 8), at(4, 2, 8), at(2, 4, 9)]);
    expect(model.jobs.map((j) => j.prev)).toEqual([-1, -1, 1, -1, 0]);
  });

  it('takes the bound settle proves for each schedule it finds, and stops once a schedule meets it', () => {
    fc.assert(
      fc.property(jobsArb(small), (jobs) => {
        const model = buildModel(jobs);
        const optimum = bruteForcePeak(jobs, small.unit);
        const seen: number[] = [];
        // A settle that knows the optimum: every peak it is shown is proved down to it.
        const result = searchStarts(model, naivePeak(jobs) + 1, 0, 1_000_000, {
          settle: (peak) => {
            seen.push(peak);
            return { floor: optimum, facts: limitFacts(arcEnergy(model), peak - 1) };
          },
        });
        expect(result.peak).toBe(optimum);
        expect(result.proved).toBe(true);
        // Called for each schedule found above the floor so far, each lower than the one before.
        seen.forEach((peak, i) => {
          expect(peak).toBeGreaterThanOrEqual(optimum);
          if (i > 0) expect(peak).toBeLessThan(seen[i - 1] ?? Infinity);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('searches no lower than the floor settle returns', () => {
    let settled = 0;
    fc.assert(
      fc.property(jobsArb(small), (jobs) => {
        const model = buildModel(jobs);
        const seen: number[] = [];
        // A settle that declares every schedule shown to it optimal: the search must stop there.
        const result = searchStarts(model, naivePeak(jobs) + 1, 0, 1_000_000, {
          settle: (peak) => {
            seen.push(peak);
            return { floor: peak, facts: limitFacts(arcEnergy(model), peak - 1) };
          },
        });
        // Shown only schedules above the floor so far: none when the first one found meets it.
        expect(seen.length).toBeLessThanOrEqual(1);
        if (seen.length === 1) expect(result.peak).toBe(seen[0]);
        expect(result.proved).toBe(true);
        settled += seen.length;
      }),
      { numRuns: 50 },
    );
    expect(settled).toBeGreaterThan(10);
  });

  it('reports an unfinished search when the budget runs out', () => {
    const jobs = Array.from({ length: 12 }, (_, i) => ({
      workload: `w${i}`,
      run: 1,
      gpus: 1 + (i % 3),
      duration: 37 + 11 * i,
      release: 17 * i,
      deadline: 17 * i + 900,
      interruptible: false,
    }));
    const result = searchStarts(buildModel(jobs), naivePeak(jobs) + 1, 0, 50);
    expect(result.proved).toBe(false);
    expect(result.nodes).toBeLessThanOrEqual(50);
  });
});
