import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReviewResult } from '../../src/domain/review.js';
import {
  applyOverrideToCheck,
  applyOverrideToComment,
  overrideMarker,
  overrideStillApplies,
  parseOverrideMarker,
  requestFingerprint,
} from '../../src/github/override.js';
import type { OverrideRecord } from '../../src/github/override.js';
import type { CheckOutput } from '../../src/report/check.js';
import { queueChange } from '../factories.js';

function result(changes = [queueChange('research', 6, 12)]): ReviewResult {
  return { changes } as unknown as ReviewResult;
}

function record(over: Partial<OverrideRecord> = {}): OverrideRecord {
  return {
    by: 'lead',
    at: '2025-03-01T10:00:00.000Z',
    reason: 'launch week',
    headSha: 'c'.repeat(40),
    fingerprint: requestFingerprint(result()),
    ...over,
  };
}

const failing: CheckOutput = { conclusion: 'failure', title: 'Not justified', summary: 'Stagger instead.', annotations: [] };

describe('override records', () => {
  it('round-trip through the hidden marker, whatever the reason says', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (reason) => {
        const marker = overrideMarker(record({ reason }));
        // Nothing in the reason can end the HTML comment early.
        expect(marker.indexOf('-->')).toBe(marker.length - 3);
        expect(parseOverrideMarker(`before\n${marker}\nafter`)).toEqual(record({ reason }));
      }),
      { numRuns: 300 },
    );
  });

  it('ignores a malformed or forged-looking marker', () => {
    expect(parseOverrideMarker('<!-- gpu-justify:override {"by":"x"} -->')).toBeNull();
    expect(parseOverrideMarker('<!-- gpu-justify:override not json -->')).toBeNull();
    expect(parseOverrideMarker('no marker')).toBeNull();
  });

  it('lapses when the GPU request changes, not when other things do', () => {
    const granted = record();
    expect(overrideStillApplies(granted, result())).toBe(true);
    expect(overrideStillApplies(granted, result([queueChange('research', 6, 12, { line: 40 })]))).toBe(true);
    expect(overrideStillApplies(granted, result([queueChange('research', 6, 10)]))).toBe(false);
    expect(overrideStillApplies(granted, result([queueChange('research', 6, 12), queueChange('train', 0, 8)]))).toBe(false);
    expect(overrideStillApplies(null, result())).toBe(false);
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
    expect(parseOverrideMarker(body)).toEqual(record());
  });
});
