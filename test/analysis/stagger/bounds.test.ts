import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arcEnergy, mandatorySlots, slotOverlap } from '../../../src/analysis/stagger/arc-energy.js';
import { dualBound, dualGpus } from '../../../src/analysis/stagger/dual-bound.js';
import { energeticTest } from '../../../src/analysis/stagger/energy.js';
import { buildModel } from '../../../src/analysis/stagger/grid.js';
import { lowerBound } from '../../../src/analysis/stagger/lower-bound.js';
import { mandatoryMinutes } from './minutes-reference.js';
import { packingWeights } from '../../../src/analysis/stagger/packing.js';
import { planStagger } from '../../../src/analysis/stagger/plan.js';
import { slotCaps } from '../../../src/analysis/stagger/slot-caps.js';
import type { StaggerJob } from '../../../src/domain/index.js';
import { bruteForcePeak, bruteForceSplitPeak, H, job, runs } from './helpers.js';

const UNIT = 120; // 12 slots: brute force stays small with sizes up to 8
const SLOTS = 1440 / UNIT;

/** Runs of 1, 2, 4 or 8 GPUs on a 2-hour grid, some sharing a window, some interruptible. */
const sizedJobs = (maxRuns: number, interruptible: boolean) =>
  fc
    .array(
      fc.record({
        gpus: fc.constantFrom(1, 2, 4, 8),
        release: fc.integer({ min: 0, max: SLOTS - 1 }),
        window: fc.integer({ min: 1, max: 5 }),
        duration: fc.integer({ min: 1, max: 5 }),
        count: fc.integer({ min: 1, max: 3 }),
        interruptible: interruptible ? fc.boolean() : fc.constant(false),
      }),
      { minLength: 1, maxLength: maxRuns },
    )
    .map((specs) => {
      const jobs: StaggerJob[] = [];
      specs.forEach((s, w) => {
        for (let run = 1; run <= s.count && jobs.length < maxRuns; run++) {
          jobs.push({
            workload: `w${w}`,
            run,
            gpus: s.gpus,
            duration: Math.min(s.duration, s.window) * UNIT,
            release: s.release * UNIT,
            deadline: (s.release + s.window) * UNIT,
            interruptible: s.interruptible,
          });
        }
      });
      return jobs;
    });

describe('slotCaps', () => {
  it('is the most GPUs the runs able to be in a slot can add up to within the limit', () => {
    // Two 2-GPU runs can be in 01:00–04:00, two 1-GPU runs and both 2-GPU runs in 00:00–01:00.
    const jobs = [
      ...runs('pair', 2, { gpus: 2, duration: 2 * H, release: 0, deadline: 4 * H, interruptible: false }),
      ...runs('one', 2, { gpus: 1, duration: H, release: 0, deadline: H, interruptible: false }),
    ];
    const caps = slotCaps(buildModel(jobs), 3);
    expect(caps[0]).toBe(3);
    expect([caps[1], caps[2], caps[3]]).toEqual([2, 2, 2]);
    expect(caps[4]).toBe(0);
  });

  it('counts each run once: one 4-GPU and one 2-GPU run under a limit of 5 reach 4', () => {
    const jobs = [job('a', 4, H, 0, 2 * H), job('b', 2, H, 0, 2 * H)];
    expect(slotCaps(buildModel(jobs), 5)[0]).toBe(4);
    expect(slotCaps(buildModel(jobs), 6)[0]).toBe(6);
  });

  it('equals the largest subset sum of the runs whose windows cover the slot', () => {
    fc.assert(
      fc.property(sizedJobs(7, false), fc.integer({ min: 1, max: 20 }), (jobs, limit) => {
        const model = buildModel(jobs);
        const caps = slotCaps(model, limit);
        for (let t = 0; t < model.slots; t++) {
          const sizes = model.jobs
            .filter((j) => (((t - j.lo) % model.slots) + model.slots) % model.slots < Math.min(model.slots, j.hi + j.len - j.lo))
            .map((j) => j.gpus);
          let best = 0;
          for (let mask = 0; mask < 1 << sizes.length; mask++) {
            const sum = sizes.reduce((acc, g, i) => acc + (mask & (1 << i) ? g : 0), 0);
            if (sum <= limit) best = Math.max(best, sum);
          }
          expect(caps[t]).toBe(best);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('packingWeights', () => {
  it('are dual feasible: sizes that fit in C never weigh more than the capacity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 18 }),
        fc.array(fc.constantFrom(1, 2, 3, 4, 5, 8, 16), { minLength: 1, maxLength: 10 }),
        (capacity, picks) => {
          const sizes = [...new Set(picks)].sort((a, b) => a - b);
          for (const w of packingWeights(capacity, sizes)) {
            // Every multiset of the sizes with total ≤ C.
            const visit = (i: number, total: number, weight: number): void => {
              expect(weight).toBeLessThanOrEqual(w.capacity);
              for (let k = i; k < sizes.length; k++) {
                const g = sizes[k] ?? 0;
                if (total + g <= capacity) visit(k, total + g, weight + (w.weights[k] ?? 0));
              }
            };
            visit(0, 0, 0);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('sees an 8-GPU run fill 9 GPUs for runs of 2 or more', () => {
    const weights = packingWeights(9, [1, 2, 8]);
    expect(weights.some((w) => w.weights[2] === 9 && w.weights[0] === 0 && w.weights[1] === 2 && w.capacity === 9)).toBe(true);
  });
});

describe('arc energy', () => {
  it('measures on the grid what mandatoryMinutes measures in minutes', () => {
    fc.assert(
      fc.property(sizedJobs(6, true), fc.integer({ min: 0, max: SLOTS - 1 }), fc.integer({ min: 1, max: SLOTS }), (jobs, a, m) => {
        const model = buildModel(jobs);
        // On the model's own grid (its step may be coarser than the 2-hour unit).
        const start = a % model.slots;
        const length = 1 + ((m - 1) % model.slots);
        jobs.forEach((j, i) => {
          const grid = model.jobs[i];
          if (grid === undefined) throw new Error('missing job');
          expect(mandatorySlots(grid, start, length, model.slots) * model.step).toBe(
            mandatoryMinutes(j, start * model.step, length * model.step),
          );
        });
      }),
      { numRuns: 300 },
    );
  });

  it('finds the least overlap of every unsplit window with every arc on small cycles, as trying each start does', () => {
    for (let n = 1; n <= 9; n++) {
      for (let lo = 0; lo < n; lo++) {
        for (let len = 1; len <= n; len++) {
          for (let width = 0; width + len <= n; width++) {
            const grid = { gpus: 1, len, lo, hi: lo + width, winLo: lo, winHi: lo + width + len, splittable: false, prev: -1 };
            for (let a = 0; a < n; a++) {
              for (let m = 1; m <= n; m++) {
                let least = Infinity;
                for (let s = lo; s <= lo + width; s++) least = Math.min(least, slotOverlap(s, len, a, m, n));
                if (mandatorySlots(grid, a, m, n) !== least)
                  expect({ n, lo, len, width, a, m, got: mandatorySlots(grid, a, m, n) }).toEqual({ n, lo, len, width, a, m, got: least });
              }
            }
          }
        }
      }
    }
  });

  it('counts overlap on the circle, wrapping past midnight', () => {
    expect(slotOverlap(22, 4, 0, 3, 24)).toBe(2);
    expect(slotOverlap(22, 4, 23, 3, 24)).toBe(3);
    expect(slotOverlap(5, 2, 10, 4, 24)).toBe(0);
    expect(slotOverlap(0, 24, 7, 5, 24)).toBe(5);
  });
});

describe('root proofs', () => {
  it('never refute a limit some schedule meets, splits included', () => {
    fc.assert(
      fc.property(sizedJobs(5, true), (jobs) => {
        const model = buildModel(jobs);
        const best = bruteForceSplitPeak(jobs, model.step);
        const arcs = arcEnergy(model);
        // The optimum itself must pass every test.
        expect(energeticTest(arcs, best, slotCaps(model, best), 0).violated).toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  it('the dual bound never passes the optimum', () => {
    fc.assert(
      fc.property(sizedJobs(7, false), (jobs) => {
        const model = buildModel(jobs);
        const unit = jobs.reduce((g, j) => (g === 0 ? j.gpus : gcdOf(g, j.gpus)), 0);
        expect(dualGpus(dualBound(model, Infinity, 500).value, unit)).toBeLessThanOrEqual(bruteForcePeak(jobs, model.step));
      }),
      { numRuns: 150 },
    );
  });

  it('the dual bound reaches the linear-programming bound where energy stops short', () => {
    // a holds 3 GPUs 05:00–06:00; b (3 GPUs, 2 h) and c (2 GPUs, 2 h) fit in 05:00–09:00 and
    // d (1 GPU, 3 h) in 06:00–09:00. Energy's best arcs give 4, and so do the runs beside
    // compulsory parts; the LP spreads b and c evenly and needs 4.5, so 5: the optimum.
    const jobs = [
      job('a', 3, H, 5 * H, 6 * H),
      job('b', 3, 2 * H, 5 * H, 9 * H),
      job('c', 2, 2 * H, 5 * H, 9 * H),
      job('d', 1, 3 * H, 6 * H, 9 * H),
    ];
    const model = buildModel(jobs);
    const value = dualBound(model, Infinity).value;
    expect(lowerBound(jobs).value).toBe(4);
    expect(value).toBeCloseTo(4.5, 3);
    expect(dualGpus(value, 1)).toBe(5);
    expect(bruteForcePeak(jobs, model.step)).toBe(5);
    const plan = planStagger(jobs);
    expect(plan).toMatchObject({ peakGpus: 5, lowerBound: 5, optimal: true });
  });

  it('plans with bounds that hold and an optimality claim that is right, for runs of 1–8 GPUs', () => {
    fc.assert(
      fc.property(sizedJobs(7, false), (jobs) => {
        const plan = planStagger(jobs);
        const brute = bruteForcePeak(jobs, UNIT);
        expect(plan.lowerBound).toBeLessThanOrEqual(brute);
        expect(plan.optimal).toBe(true);
        expect(plan.peakGpus).toBe(brute);
      }),
      { numRuns: 150 },
    );
  });
});

function gcdOf(a: number, b: number): number {
  return b === 0 ? a : gcdOf(b, a % b);
}
