import { describe, expect, it } from 'vitest';
import { needOf, outcome, smallestCombination, type DemandTerm, type TermOption } from '../../src/analysis/combine.js';
import { DAY_SLOTS, flatDay } from '../../src/analysis/supply/day-profile.js';
import type { Lever } from '../../src/domain/index.js';

const opt = (lever: TermOption['lever'], gpus: number, headroom = 0.25): TermOption => ({ lever, gpus, headroom });
const sized = (lever: TermOption['lever'], gpus: number): TermOption => ({ lever, gpus, headroom: 0, sized: true });

describe('combining levers', () => {
  const jobs: DemandTerm = { label: 'jobs', baseline: opt(null, 8), options: [opt(null, 8), opt('stagger', 4), opt('reclaim-idle', 6)] };
  const chat: DemandTerm = { label: 'chat', baseline: opt(null, 4), options: [sized('batching', 2), sized('cheaper-model', 1)] };

  it('takes the smallest option per term, never the sum of levers on the same GPUs', () => {
    const c = outcome([jobs, chat], 'all', 4, 4, null);
    // Jobs: stagger 4 (not 4 − 2 more from reclaim); chat: the cheaper model's 1. 4 × 1.25 + 1 = 6.
    expect(c.need).toBe(6);
    expect(needOf([jobs.baseline, chat.baseline])).toBe(15); // (8 + 4) × 1.25
    expect(c.chosen.map((o) => o.lever)).toEqual(['stagger', 'cheaper-model']);
    expect(c.gpusNeeded).toBe(2);
  });

  it('borrows only as much as is short, hour by hour, and caps at the increase asked', () => {
    const free = { lever: 'borrow-quota' as const, free: flatDay(10) };
    const c = outcome([{ ...jobs, options: [opt(null, 4, 0)] }], 'all', 2, 3, free);
    // Need 4, 2 there: 2 short, 2 borrowed.
    expect(c).toMatchObject({ borrowed: 2, gpusNeeded: 0 });
    expect(outcome([{ ...jobs, options: [opt(null, 4, 0)] }], 'all', 0, 3, null).gpusNeeded).toBe(3);
    // Quota free only in the first half of the day covers a shortfall there, not one all day.
    const half = flatDay(0).map((_, s) => (s < DAY_SLOTS / 2 ? 10 : 0));
    const morning = { ...opt(null, 4, 0), profile: flatDay(0).map((_, s) => (s < DAY_SLOTS / 2 ? 4 : 0)) };
    expect(outcome([{ ...jobs, options: [morning] }], 'all', 2, 3, { lever: 'borrow-quota', free: half }).gpusNeeded).toBe(0);
    expect(outcome([{ ...jobs, options: [opt(null, 4, 0)] }], 'all', 2, 3, { lever: 'borrow-quota', free: half }).gpusNeeded).toBe(2);
  });

  it('gives each part its own headroom: a service’s 0 stays 0', () => {
    const own: DemandTerm = { label: 'svc', baseline: opt(null, 4, 0), options: [opt(null, 4, 0)] };
    expect(outcome([{ ...jobs, options: [opt(null, 4, 0.2)] }, own], 'all', 0, 10, null).need).toBe(Math.ceil(4 * 1.2 + 4));
  });

  it('lets a measured size above the declared one raise the need', () => {
    const tight: DemandTerm = { label: 'chat', baseline: opt(null, 4, 0.2), options: [sized(null, 8)] };
    expect(outcome([tight], 'all', 4, 4, null)).toMatchObject({ need: 8, gpusNeeded: 4 });
    expect(needOf([tight.baseline])).toBe(5);
  });

  it('names the fewest levers that leave as few GPUs to add as all of them', () => {
    const terms = [jobs, chat];
    const neededWith = (levers: ReadonlySet<Lever>) => outcome(terms, levers, 6, 10, null).gpusNeeded;
    // All: 4 × 1.25 + 1 = 6, met by 6. Stagger alone: 5 + 5 = 10; cheaper model alone: 10 + 1 = 11.
    expect(smallestCombination(['stagger', 'reclaim-idle', 'batching', 'cheaper-model'], neededWith)).toEqual(['stagger', 'cheaper-model']);
    expect(smallestCombination([], neededWith)).toEqual([]);
  });
});
