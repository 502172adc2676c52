import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBicepSet } from '../../src/detect/bicep/bicep-parser.js';
import { Budget } from '../../src/detect/kit/eval-budget.js';
import { parseTerraformSet } from '../../src/detect/terraform/terraform-parser.js';
import { chain, GPU_POOL, hostileBicep, hostileTerraform, locals } from '../helpers/hostile-expressions.js';
import { detectPr } from './real-fixtures.js';

/*
 * Expressions a pull request can write to hold the review: lists doubled through chains of locals,
 * strings doubled, values that share their parts (small in memory, huge to walk), nested `for`
 * over large ranges, long chains and cycles of locals, for_each over thousands of keys. Each must
 * end within its evaluation budget, in a count or in the file not followed with the budget named,
 * never in a hang, a crash or a count taken from half an evaluation.
 */

/**
 * Steps each evaluation budget made while `fn` ran, so a reading is shown to end within its
 * budget, whatever the machine's load; the time it takes is measured by `npm run bench --
 * hostile-expressions`. One charge may pass the limit before it stops: at most the weight of the
 * largest value a budget admits.
 */
const LARGEST_CHARGE = 100_001;
/** The steps src/detect/kit/eval-budget.ts allows one reading: raising it is a decision, seen here. */
const EVAL_STEPS = 400_000;
const MAX_BUDGETS_PER_READING = 8;

/** Whether every budget `fn` charged stayed within its steps (and few were made), with `fn`'s value. */
async function withinBudgets<T>(fn: () => T | Promise<T>): Promise<{ value: T; within: boolean }> {
  // Wrapped by hand and put back before returning: a vi spy would be a module-wide mock to the
  // unit project's shared-state rule, and nothing here may outlive the call.
  const charge = Object.getOwnPropertyDescriptor(Budget.prototype, 'charge')?.value as Budget['charge'];
  const budgets = new Set<Budget>();
  Budget.prototype.charge = function (this: Budget, n?: number): void {
    budgets.add(this);
    charge.call(this, n);
  };
  try {
    const value = await fn();
    const within = budgets.size <= MAX_BUDGETS_PER_READING && [...budgets].every((b) => b.spent <= EVAL_STEPS + LARGEST_CHARGE);
    return { value, within };
  } finally {
    Budget.prototype.charge = charge;
  }
}

describe('hostile Terraform expressions', () => {
  it('end within their budget, in a count or with the file not read, never in a hang or a crash', async () => {
    await fc.assert(
      fc.asyncProperty(hostileTerraform, async ({ shape, text }) => {
        const { value: r, within } = await withinBudgets(() => parseTerraformSet([{ path: 'infra/main.tf', text }]));
        expect(within, shape).toBe(true);
        if (r.decls.length > 0) {
          // Read whole: the count is the one the expression gives.
          expect(
            r.decls.map((d) => d.gpus),
            shape,
          ).toEqual([2]);
          expect(
            r.diagnostics.filter((d) => d.severity === 'error'),
            shape,
          ).toEqual([]);
        } else {
          // Not read: the pool stays, count unknown, and a message says why.
          expect(
            r.unresolved?.map((u) => u.name),
            shape,
          ).toEqual(['gpu']);
          expect(r.diagnostics.length, shape).toBeGreaterThan(0);
        }
      }),
      { numRuns: 40, seed: 26_27 },
    );
  });

  it('a file over the budget is not followed in a review, naming the budget', async () => {
    const base = { 'infra/main.tf': GPU_POOL('2') };
    const doubling = locals(['l0 = [1]', ...chain(40, (i) => `l${i + 1} = concat(local.l${i}, local.l${i})`)]);
    const head = { 'infra/main.tf': doubling + GPU_POOL('length(local.l40) > 0 ? 8 : 8') };
    const { value: r, within } = await withinBudgets(() => detectPr(base, head));
    expect(within).toBe(true);
    expect(r.changes).toEqual([]);
    expect(r.coverage).toEqual([{ file: 'infra/main.tf', state: 'not-followed', notFollowed: expect.any(Array) as unknown }]);
    expect(r.diagnostics).toContainEqual(
      expect.objectContaining({
        file: 'infra/main.tf',
        severity: 'error',
        message: expect.stringContaining("gpu-justify's budget (a list or map of more than 20,000 elements)") as unknown,
      }),
    );
  });
});

describe('hostile Bicep expressions', () => {
  it('end within their budget, in a count or with the template not read', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBicep, async (text) => {
        const { value: r, within } = await withinBudgets(() => parseBicepSet([{ path: 'infra/main.bicep', text }]));
        expect(within).toBe(true);
        if (r.decls.length > 0) expect(r.decls.map((d) => d.gpus)).toEqual([2]);
        else expect(r.diagnostics.length).toBeGreaterThan(0);
      }),
      { numRuns: 20, seed: 26_27 },
    );
  });
});
