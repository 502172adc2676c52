import { describe, expect, it } from 'vitest';
import { StaggerError } from '../../src/analysis/stagger/errors.js';
import { jobsFromWorkloads } from '../../src/analysis/stagger/expand.js';
import { planStagger } from '../../src/analysis/stagger/plan.js';
import { expandProblemWords, staggerProblemWords } from '../../src/report/stagger-problems.js';
import { H, job, workload } from '../analysis/stagger/helpers.js';

/** The planner's refusal, worded as the stagger command states it. */
function refusal(plan: () => unknown): string {
  try {
    plan();
  } catch (err) {
    if (err instanceof StaggerError) return staggerProblemWords(err.problem);
    throw err;
  }
  throw new Error('the planner did not refuse');
}

describe('stagger problems in words', () => {
  it('names the job and what is wrong with it', () => {
    expect(refusal(() => planStagger([job('x', 1.5, H, 0, 6 * H)]))).toBe('x run 1: gpus must be a positive whole number, got 1.5');
    expect(refusal(() => planStagger([job('x', 1, H, 0, 6 * H), job('x', 1, H, 0, 6 * H)]))).toBe('x run 1: appears twice');
    expect(refusal(() => planStagger([job('x', 1, 7 * H, 0, 6 * H)]))).toBe(
      'x run 1: duration 420 min is longer than its window (360 min)',
    );
    expect(refusal(() => planStagger([job('x', 1, H, 0, 2 * 1440)]))).toBe(
      'x run 1: deadline must be a whole minute after the release and at most a day later, got 2880',
    );
  });

  it('states the options it refuses', () => {
    expect(refusal(() => planStagger([], { nodeBudget: -1 }))).toBe('nodeBudget, capacity and levelWork must be whole numbers ≥ 0');
    expect(refusal(() => planStagger([], { cycle: 3 * 1440 }))).toBe('cycle must be a day (1440) or a week (10080) in minutes, got 4320');
  });

  it('says why a workload was left out of the plan', () => {
    const { problems } = jobsFromWorkloads([workload({ name: 'half-gpu', gpusPerJob: 0.5 }), workload({ name: 'none', runtime: 0 })]);
    expect(problems.map(expandProblemWords)).toEqual([
      'gpusPerJob must be a positive whole number to plan start times, got 0.5',
      'runtime must be positive to plan start times, got 0 min',
    ]);
  });
});
