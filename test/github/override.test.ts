import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReviewResult } from '../../src/domain/review.js';
import {
  applyOverrideToCheck,
  applyOverrideToComment,
  overrideMarker,
  notCovered,
  parseOverrideMarkers,
  readOverride,
  signOverride,
} from '../../src/github/overrides/override.js';
import type { OverrideRecord, StateTrust, UnsignedOverride } from '../../src/github/overrides/override.js';
import { reviewedState, summaryOf } from '../../src/github/overrides/reviewed-state.js';
import { stateKey } from '../../src/github/overrides/state-signature.js';
import { DEFAULT_POLICY } from '../../src/domain/policy.js';
import type { CheckOutput } from '../../src/report/check.js';
import { queueChange } from '../factories.js';

function result(changes = [queueChange('research', 6, 12)]): ReviewResult {
  return { changes, missingEvidence: [], coverage: [] } as unknown as ReviewResult;
}

const trust: StateTrust = { key: stateKey('server secret'), scope: { repo: 'acme/infra', number: 7 } };
const state = (r: ReviewResult) => reviewedState(r, { policy: DEFAULT_POLICY, diagnostics: [], file: null }, trust.key);

function unsigned(over: Partial<UnsignedOverride> = {}): UnsignedOverride {
  return {
    by: 'lead',
    at: '2025-03-01T10:00:00.000Z',
    reason: 'launch week',
    headSha: 'c'.repeat(40),
    ...summaryOf(state(result())),
    commentId: 77,
    ...over,
  };
}

function record(over: Partial<UnsignedOverride> = {}): OverrideRecord {
  return signOverride(unsigned(over), trust);
}

const failing: CheckOutput = { conclusion: 'failure', title: 'Not justified', summary: 'Stagger instead.', annotations: [] };

describe('override records', () => {
  it('round-trip through the hidden marker and verify, whatever the reason says', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (reason) => {
        const marker = overrideMarker(record({ reason }));
        // Nothing in the reason can end the HTML comment early.
        expect(marker.indexOf('-->')).toBe(marker.length - 3);
        expect(readOverride(`before\n${marker}\nafter`, trust)).toEqual({ kind: 'verified', record: record({ reason }) });
      }),
      { numRuns: 300 },
    );
  });

  it('verify only with the key, the repository and the pull request they were signed for', () => {
    const body = overrideMarker(record());
    expect(readOverride(body, { ...trust, key: stateKey('another secret') })).toEqual({ kind: 'unverified', count: 1 });
    expect(readOverride(body, { ...trust, key: null })).toEqual({ kind: 'unverified', count: 1 });
    expect(readOverride(body, { ...trust, scope: { repo: 'acme/other', number: 7 } }).kind).toBe('unverified');
    expect(readOverride(body, { ...trust, scope: { repo: 'ACME/Infra', number: 7 } }).kind).toBe('verified');
    expect(readOverride(body, { ...trust, scope: { repo: 'acme/infra', number: 8 } }).kind).toBe('unverified');
  });

  it('are ignored when any signed field is changed, or when unsigned', () => {
    const genuine = record();
    const changes: Partial<OverrideRecord>[] = [
      { by: 'mallory' },
      { at: '2030-01-01T00:00:00.000Z' },
      { reason: 'other' },
      { headSha: 'd'.repeat(40) },
      { fingerprint: state(result([queueChange('research', 6, 64)])).digest },
      { state: summaryOf(state(result([queueChange('research', 6, 64)]))).state },
      { commentId: 78 },
      { sig: '0'.repeat(64) },
      { sig: '' },
    ];
    for (const change of changes) {
      expect(readOverride(overrideMarker({ ...genuine, ...change }), trust), JSON.stringify(change)).toEqual({
        kind: 'unverified',
        count: 1,
      });
    }
    // A forged record before the genuine one does not hide it.
    const both = `${overrideMarker({ ...genuine, by: 'mallory' })}\n${overrideMarker(genuine)}`;
    expect(readOverride(both, trust)).toEqual({ kind: 'verified', record: genuine });
  });

  it('ignores a malformed marker', () => {
    expect(parseOverrideMarkers('<!-- gpu-justify:override {"by":"x"} -->')).toEqual([]);
    expect(parseOverrideMarkers('<!-- gpu-justify:override not json -->')).toEqual([]);
    expect(readOverride('no marker', trust)).toEqual({ kind: 'none' });
    expect(readOverride(null, trust)).toEqual({ kind: 'none' });
  });

  it('lapses when the request grows, not when it moves a line or shrinks', () => {
    const granted = record();
    expect(notCovered(granted, state(result()))).toEqual([]);
    expect(notCovered(granted, state(result([queueChange('research', 6, 12, { line: 40 })])))).toEqual([]);
    expect(notCovered(granted, state(result([queueChange('research', 6, 10)])))).toEqual([]);
    expect(notCovered(granted, state(result([queueChange('research', 6, 16)])))).toHaveLength(1);
    expect(notCovered(granted, state(result([queueChange('research', 6, 12), queueChange('train', 0, 8)])))).toHaveLength(1);
  });

  it('a record from before grants kept their state lapses on any other state, and still verifies', () => {
    const { state: _kept, ...old } = unsigned();
    const legacy = signOverride(old, trust);
    expect(readOverride(overrideMarker(legacy), trust)).toEqual({ kind: 'verified', record: legacy });
    expect(notCovered(legacy, state(result([queueChange('research', 6, 10)])))).toBe('unknown');
  });

  it('turns a failing check to success, saying who, when, why and for which head', () => {
    const out = applyOverrideToCheck(failing, record());
    expect(out.conclusion).toBe('success');
    expect(out.title).toMatch(/^Overridden by @lead: Not justified/);
    expect(out.summary).toContain('2025-03-01T10:00:00.000Z');
    expect(out.summary).toContain('launch week');
    expect(out.summary).toContain('c'.repeat(12));
    expect(applyOverrideToCheck({ ...failing, conclusion: 'success' }, record()).title).toBe('Not justified');
  });

  it('puts the record under the comment headline, with the marker', () => {
    const body = applyOverrideToComment('<!-- gpu-justify:comment -->\n### Not justified\n\nTables', record());
    const lines = body.split('\n');
    expect(lines[1]).toBe('### Not justified');
    expect(body.indexOf('Overridden')).toBeLessThan(body.indexOf('Tables'));
    expect(readOverride(body, trust)).toEqual({ kind: 'verified', record: record() });
  });
});
