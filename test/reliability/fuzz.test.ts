import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { specialInputs } from '../../bench/reliability/fuzz/inputs.js';
import { preview, prototypeKeys, runCase } from '../../bench/reliability/fuzz/run-case.js';
import { fuzzTargets } from '../../bench/reliability/fuzz/targets.js';
import { FAIL_FAST } from '../helpers/fail-fast-property.js';

/**
 * The fuzzing of `npm run bench:reliability` in small: every parser, both loaders and the
 * command parser take hostile text without throwing, without breaking their output contract,
 * without touching a built-in prototype, and within a time bound per input.
 */

const RUNS = 200;
/** Far above any honest input's time here; a hang or a blow-up is orders of magnitude more. */
const MAX_MS_PER_INPUT = 2_000;
const SPECIAL_BYTES = 256 * 1024;

const targets = fuzzTargets();

describe('hostile input', () => {
  it('covers every registered parser, both loaders and the command parser', () => {
    expect(targets.map((t) => t.id)).toEqual(
      expect.arrayContaining(['parser:kueue', 'parser:terraform', 'loader:catalog', 'loader:policy', 'command-parser']),
    );
    expect(targets.length).toBeGreaterThanOrEqual(12);
  });

  for (const target of targets) {
    it(`${target.id}: ${RUNS} random cases, then the fixed attacks`, () => {
      const baseline = prototypeKeys();
      let slowest = 0;
      fc.assert(
        fc.property(target.inputs, (text) => {
          const outcome = runCase(target, text, baseline);
          slowest = Math.max(slowest, outcome.ms);
          expect(outcome.crash, preview(text)).toBeNull();
          expect(outcome.problems, preview(text)).toEqual([]);
          expect(outcome.pollution, preview(text)).toEqual([]);
          expect(outcome.ms, preview(text)).toBeLessThan(MAX_MS_PER_INPUT);
        }),
        { ...FAIL_FAST, numRuns: RUNS, seed: 20_240_901 },
      );
      for (const special of specialInputs(SPECIAL_BYTES)) {
        const outcome = runCase(target, special.text, baseline);
        expect(outcome.crash, special.name).toBeNull();
        expect(outcome.problems, special.name).toEqual([]);
        expect(outcome.pollution, special.name).toEqual([]);
        expect(outcome.ms, special.name).toBeLessThan(MAX_MS_PER_INPUT * 5);
      }
      expect(slowest).toBeGreaterThan(0);
    });
  }
});
