import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/analysis/stagger/grid.js';
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
