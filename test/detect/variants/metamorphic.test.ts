import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from '../../../src/detect/detect-changes.js';
import type { CapacityChange } from '../../../src/domain/index.js';
import { REAL_CASES } from '../real-cases.js';
import type { RealCase } from '../real-cases.js';
import { EXPECTED_TO_FAIL, classifyVariant, expectedFailure, failsAsListed, sampleVariants } from './metamorphic.js';
import type { Rewrite } from './rewrite.js';
import { REWRITES } from './rewrites.js';

/**
 * The metamorphic test, bounded: every rewrite (rewrites.ts) on a seeded sample of the real cases
 * it applies to must end as the case does or honestly not followed (a negative control as "no
 * change", never a false alarm). A pair listed in
 * EXPECTED_TO_FAIL must still fail (a silent miss, a wrong count or a false alarm), so an entry
 * goes once its class is read. The whole cross
 * product: `npm run detect:corpus -- --variants`. Another seed: VARIANTS_SEED=<n>.
 */
const SEED = Number(process.env.VARIANTS_SEED ?? 26);
// One case per rewrite: 52 rewrites take the time 20 took at two each; the full product is the command's.
const PER_REWRITE = 1;

describe('semantics-preserving variants of the real cases, a seeded sample', () => {
  for (const rewrite of REWRITES) {
    it(`${rewrite.id}: ${rewrite.what}`, { timeout: 120_000 }, async () => {
      const runs = await sampleVariants(PER_REWRITE, SEED, [rewrite]);
      // A rewrite that applies to no real case tests nothing.
      expect(runs.length).toBeGreaterThan(0);
      for (const run of runs) {
        const listed = expectedFailure(run.caseId, run.rewrite);
        const seen = `${run.caseId}: expected ${run.expected}, reported ${run.reported} (${run.outcome})`;
        if (listed) expect(failsAsListed(run), `${seen}; it passes now: remove it from EXPECTED_TO_FAIL`).toBe(true);
        // A negative control ("no change", by the case and the rewrite) must say no change: anything else is a false alarm.
        else if (run.expected === 'no change') expect(run.outcome, `${seen}: a false alarm`).toBe('same');
        else expect(['same', 'not-followed'], seen).toContain(run.outcome);
      }
    });
  }
});

describe('EXPECTED_TO_FAIL', () => {
  it('names rewrites and cases that exist, each with a reason', () => {
    const rewrites = new Set(REWRITES.map((r) => r.id));
    const cases = new Set(REAL_CASES.map((c) => c.id));
    for (const entry of EXPECTED_TO_FAIL) {
      expect(rewrites).toContain(entry.rewrite);
      for (const id of entry.cases ?? []) expect(cases, entry.rewrite).toContain(id);
      expect(entry.reason.length).toBeGreaterThan(20);
    }
  });
});

/** A detection result with these changes, and a file not followed when `flagged`. */
function result(rows: [kind: string, name: string, before: number, after: number][], flagged = false): DetectedChanges {
  return {
    changes: rows.map(([kind, name, gpusBefore, gpusAfter]) => ({ kind, name, gpusBefore, gpusAfter }) as CapacityChange),
    diagnostics: [],
    coverage: flagged
      ? [
          {
            file: 'x.yaml',
            state: 'not-followed',
            notFollowed: [{ file: 'x.yaml', line: 1, reason: 'unaccounted-signal', subject: 'gpu' }],
          },
        ]
      : [],
    declarations: { base: [], head: [] },
  };
}

const queue: RealCase = {
  id: 'queue 8 → 16',
  target: 'x',
  edits: [],
  expect: [['kueue-cluster-queue', 'q', 8, 16]],
  why: '',
};
const control: RealCase = { ...queue, id: 'control', expect: [] };
const unknown: RealCase = { ...queue, id: 'unknown', expect: 'not-followed' };
const same: Rewrite = { id: 'same', what: '', apply: () => null };
const opaque: Rewrite = { ...same, id: 'opaque', expect: 'not-followed' };
const twoReadings: Rewrite = { ...same, id: 'two-readings', expect: 'not-followed-when-gpus-change' };
const doubled: Rewrite = { ...same, id: 'doubled', expect: (rows) => rows.map(([k, n, b, a]) => [k, n, b * 2, a * 2]) };

describe('classifyVariant', () => {
  it('the same counts, nothing flagged, are the same', () => {
    expect(classifyVariant(queue, same, result([['kueue-cluster-queue', 'q', 8, 16]])).outcome).toBe('same');
  });

  it('copies reported as rows of their own add up to the case', () => {
    const split = result([
      ['kueue-cluster-queue', 'q[a]', 4, 8],
      ['kueue-cluster-queue', 'q[b]', 4, 8],
    ]);
    expect(classifyVariant(queue, same, split).outcome).toBe('same');
  });

  it('a count left out with nothing flagged is a silent miss; flagged, not followed', () => {
    expect(classifyVariant(queue, same, result([])).outcome).toBe('silent-miss');
    expect(classifyVariant(queue, same, result([], true)).outcome).toBe('not-followed');
  });

  it('another count is wrong, flagged or not, unless it is a flagged part of the case', () => {
    expect(classifyVariant(queue, same, result([['kueue-cluster-queue', 'q', 8, 20]])).outcome).toBe('wrong');
    expect(classifyVariant(queue, same, result([['kueue-cluster-queue', 'q', 8, 20]], true)).outcome).toBe('wrong');
    expect(classifyVariant(queue, same, result([['kueue-cluster-queue', 'q', 8, 8]], true)).outcome).toBe('not-followed');
    expect(classifyVariant(control, same, result([['kueue-cluster-queue', 'q', 0, 8]])).outcome).toBe('wrong');
  });

  it('the right counts beside a file not followed are not followed', () => {
    expect(classifyVariant(queue, same, result([['kueue-cluster-queue', 'q', 8, 16]], true)).outcome).toBe('not-followed');
  });

  it("a rewrite's own expectation: doubled counts, or nothing readable", () => {
    expect(classifyVariant(queue, doubled, result([['kueue-cluster-queue', 'q', 16, 32]])).outcome).toBe('same');
    expect(classifyVariant(queue, doubled, result([['kueue-cluster-queue', 'q', 8, 16]])).outcome).toBe('wrong');
    expect(classifyVariant(queue, opaque, result([], true)).outcome).toBe('same');
    expect(classifyVariant(queue, opaque, result([])).outcome).toBe('silent-miss');
    // A negative control made unreadable is not followed too: "no change" unread is no answer.
    expect(classifyVariant(control, opaque, result([])).outcome).toBe('silent-miss');
  });

  it('two readings that disagree: not followed where GPUs change, the case itself where none do', () => {
    expect(classifyVariant(queue, twoReadings, result([['kueue-cluster-queue', 'q', 8, 16]])).outcome).toBe('silent-miss');
    expect(classifyVariant(queue, twoReadings, result([], true)).outcome).toBe('same');
    expect(classifyVariant(control, twoReadings, result([])).outcome).toBe('same');
    expect(classifyVariant(control, twoReadings, result([], true)).outcome).toBe('not-followed');
  });

  it('a case not followed stays so: unflagged, it is a silent miss', () => {
    expect(classifyVariant(unknown, same, result([], true)).outcome).toBe('same');
    expect(classifyVariant(unknown, same, result([])).outcome).toBe('silent-miss');
  });
});
