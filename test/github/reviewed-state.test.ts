import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CapacityChange, FileCoverage, MissingEvidence, ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/policy.js';
import { newSince, reviewedState, summaryFrom, summaryOf, TOKENS_RE } from '../../src/github/overrides/reviewed-state.js';
import type { ReviewedState } from '../../src/github/overrides/reviewed-state.js';
import { stateKey } from '../../src/github/overrides/state-signature.js';
import type { LoadedPolicy } from '../../src/review/index.js';
import { queueChange } from '../factories.js';

/**
 * The reviewed state a grant binds to, as properties over generated reviews: a state holds nothing
 * new against itself; any added entry of any kind, any change that grows, and any policy change is
 * new, exactly that; shrinking or moving a line is not; tokens are keyed and round-trip a record.
 */

const KEY = stateKey('server secret');
const POLICY: LoadedPolicy = { policy: DEFAULT_POLICY, diagnostics: [], file: null };

interface Parts {
  changes: CapacityChange[];
  coverage: FileCoverage[];
  missing: MissingEvidence[];
}

function result(p: Parts): ReviewResult {
  return { changes: p.changes, coverage: p.coverage, missingEvidence: p.missing } as unknown as ReviewResult;
}

const state = (p: Parts, policy = POLICY, key = KEY): ReviewedState => reviewedState(result(p), policy, key);
const granted = (s: ReviewedState) => {
  const { fingerprint, state: tokens } = summaryOf(s);
  return summaryFrom(fingerprint, tokens);
};

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
const gpus = fc.integer({ min: 0, max: 512 });
const change = fc
  .record({ name, file: name, before: gpus, after: gpus, line: fc.integer({ min: 1, max: 400 }) })
  .map((c) => queueChange(c.name, c.before, c.after, { file: `clusters/${c.file}.yaml`, line: c.line }));
const unfollowed = name.map((n): FileCoverage => ({
  file: `tf/${n}.tf`,
  state: 'not-followed',
  notFollowed: [{ file: `tf/${n}.tf`, line: 2, reason: 'count-unknown', subject: n }],
}));
const missing = fc.oneof(
  name.map((w): MissingEvidence => ({ code: 'deadline', workload: w, catalogFile: 'gpu-workloads.yaml' })),
  name.map((w): MissingEvidence => ({ what: `load test ${w}`, how: 'record one' })),
);
const parts = fc
  .record({
    changes: fc.uniqueArray(change, { maxLength: 6, selector: (c) => `${c.file}|${c.name}` }),
    coverage: fc.uniqueArray(unfollowed, { maxLength: 3, selector: (c) => c.file }),
    missing: fc.uniqueArray(missing, { maxLength: 4, selector: (m) => JSON.stringify(m) }),
  })
  .filter((p) => p.changes.length + p.coverage.length + p.missing.length > 0);

const RUNS = { numRuns: 200, seed: 20_261_227 };

describe('the reviewed state', () => {
  it('holds nothing new against itself, and its tokens round-trip a record', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const s = state(p);
        expect(newSince(granted(s), s)).toEqual([]);
        expect(summaryOf(s).state ?? '').toMatch(TOKENS_RE);
      }),
      RUNS,
    );
  });

  it('names exactly the entry added, of any kind', () => {
    fc.assert(
      fc.property(parts, change, unfollowed, missing, fc.integer({ min: 0, max: 2 }), (p, c, u, m, which) => {
        const before = state(p);
        const added: Parts =
          which === 0
            ? { ...p, changes: [...p.changes, c] }
            : which === 1
              ? { ...p, coverage: [...p.coverage, u] }
              : { ...p, missing: [...p.missing, m] };
        const fresh =
          which === 0
            ? !p.changes.some((x) => x.file === c.file && x.name === c.name)
            : which === 1
              ? !p.coverage.some((x) => x.file === u.file)
              : !p.missing.some((x) => JSON.stringify(x) === JSON.stringify(m));
        fc.pre(fresh);
        const news = newSince(granted(before), state(added));
        expect(news).toHaveLength(1);
      }),
      RUNS,
    );
  });

  it('names a change that grows (more GPUs after, or a larger increase), not one that shrinks or moves a line', () => {
    fc.assert(
      fc.property(parts, fc.nat(), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 400 }), (p, i, by, line) => {
        fc.pre(p.changes.length > 0);
        const at = i % p.changes.length;
        const c = p.changes[at] as CapacityChange;
        const before = granted(state(p));
        const replaced = (next: CapacityChange): Parts => ({ ...p, changes: p.changes.map((x, j) => (j === at ? next : x)) });
        const grown = { ...c, gpusAfter: c.gpusAfter + by, delta: c.delta + by };
        const base = { ...c, gpusBefore: c.gpusBefore - by, delta: c.delta + by };
        const smaller = { ...c, gpusAfter: Math.max(0, c.gpusAfter - by), delta: Math.max(0, c.gpusAfter - by) - c.gpusBefore };
        expect(newSince(before, state(replaced(grown)))).toEqual([{ kind: 'change', change: grown }]);
        // The capacity after is the same, but the base lost GPUs: the increase asked for is larger.
        expect(newSince(before, state(replaced(base)))).toEqual([{ kind: 'change', change: base }]);
        expect(newSince(before, state(replaced(smaller)))).toEqual([]);
        expect(newSince(before, state(replaced({ ...c, line })))).toEqual([]);
      }),
      RUNS,
    );
  });

  it('names a policy that judges differently, or could not be read whole', () => {
    fc.assert(
      fc.property(parts, fc.double({ min: 0, max: 1, noNaN: true }), (p, headroom) => {
        fc.pre(headroom !== DEFAULT_POLICY.headroom);
        const before = granted(state(p));
        expect(newSince(before, state(p, { ...POLICY, policy: { ...DEFAULT_POLICY, headroom } }))).toEqual([{ kind: 'policy' }]);
        expect(newSince(before, state(p, { ...POLICY, unread: ['acme/.github:.github/gpu-justify.yml'] }))).toEqual([{ kind: 'policy' }]);
      }),
      RUNS,
    );
  });

  it('keys its tokens: another server key gives other tokens, so names cannot be chosen to collide offline', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const ours = summaryOf(state(p)).state?.split(',') ?? [];
        const theirs = new Set(summaryOf(state(p, POLICY, stateKey('another secret'))).state?.split(',') ?? []);
        expect(ours.filter((t) => theirs.has(t))).toEqual([]);
      }),
      { numRuns: 50, seed: 20_261_228 },
    );
  });

  it('past what a record keeps entry by entry, binds by digest alone: any difference is unknown, none is nothing', () => {
    const many: Parts = {
      changes: Array.from({ length: 400 }, (_, i) => queueChange(`q${i}`, 0, 1, { file: `q/${i}.yaml` })),
      coverage: [],
      missing: [],
    };
    const s = state(many);
    expect(summaryOf(s).state).toBeUndefined();
    expect(newSince(granted(s), state(many))).toEqual([]);
    const lowered = { ...many, changes: many.changes.map((c, i) => (i === 0 ? { ...c, gpusAfter: 0, delta: 0 } : c)) };
    expect(newSince(granted(s), state(lowered))).toBe('unknown');
  });

  it('takes what telemetry states in words by its words, not the counts in them', () => {
    const gap = (n: number): Parts => ({
      changes: [],
      coverage: [],
      missing: [{ what: `${n} of ${n * 9} samples of q1 were not finite`, how: 'fix the exporter' }],
    });
    expect(newSince(granted(state(gap(3))), state(gap(17)))).toEqual([]);
    expect(newSince(granted(state(gap(3))), state({ ...gap(3), missing: [{ what: 'another query failed', how: 'x' }] }))).toHaveLength(1);
  });

  it('writes fractional GPUs (MIG slices) in tokens a record reads back', () => {
    const s = state({ changes: [queueChange('mig', 1 / 7, 3 / 7)], coverage: [], missing: [] });
    expect(summaryOf(s).state).toMatch(TOKENS_RE);
    expect(newSince(granted(s), s)).toEqual([]);
  });
});
