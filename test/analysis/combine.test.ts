import { describe, expect, it } from 'vitest';
import { combine, type DemandTerm } from '../../src/analysis/combine.js';

const opt = (lever: DemandTerm['baseline']['lever'], gpus: number, headroomIncluded = false) => ({ lever, gpus, headroomIncluded });

describe('combining levers', () => {
  const jobs: DemandTerm = { label: 'jobs', baseline: opt(null, 8), options: [opt(null, 8), opt('stagger', 4), opt('reclaim-idle', 6)] };
  const chat: DemandTerm = { label: 'chat', baseline: opt(null, 4), options: [opt('batching', 2, true), opt('cheaper-model', 1, true)] };

  it('takes the smallest option per term, never the sum of levers on the same GPUs', () => {
    const c = combine([jobs, chat], 0.25, [], 4, 4);
    // Jobs: stagger 4 (not 4 − 2 more from reclaim); chat: the cheaper model's 1. 4 × 1.25 + 1 = 6.
    expect(c.need).toBe(6);
    expect(c.needWithoutLevers).toBe(15); // (8 + 4) × 1.25
    expect([...c.credited].sort()).toEqual(['cheaper-model', 'stagger']);
    expect(c.gpusNeeded).toBe(2);
  });

  it('adds borrowed quota once, only as much as is short, and caps at the increase asked', () => {
    const c = combine([jobs], 0, [{ lever: 'borrow-quota', gpus: 10 }], 2, 3);
    // Need 4, 2 there: 2 short, 2 borrowed.
    expect(c.supplied.get('borrow-quota')).toBe(2);
    expect(c.gpusNeeded).toBe(0);
    expect(combine([jobs], 0, [], 0, 3).gpusNeeded).toBe(3);
  });

  it('lets a measured size above the declared one raise the need', () => {
    const tight: DemandTerm = { label: 'chat', baseline: opt(null, 4), options: [opt(null, 8, true)] };
    expect(combine([tight], 0.2, [], 4, 4)).toMatchObject({ need: 8, needWithoutLevers: 5, gpusNeeded: 4 });
  });
});
