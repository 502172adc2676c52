import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyPairs, mayHold, textPairs } from './pair-filter.js';

describe('the pair filter', () => {
  it('never rules out a key the text holds', () => {
    const unit = fc.constantFrom(...'ab&%\\=;x日😀 \n', '\u200b');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), fc.string({ unit, minLength: 2, maxLength: 80 }), fc.nat(), (text, key, at) => {
        const i = at % (text.length + 1);
        const holding = text.slice(0, i) + key + text.slice(i);
        expect(mayHold(textPairs(holding), keyPairs(key))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('rules out a key a pair of which the text lacks', () => {
    expect(mayHold(textPairs('%26%26%26 \\u0026'.repeat(100)), keyPairs('webhook-secret-9f8e7d'))).toBe(false);
    // A long key is checked by pairs spread over it, its last ones too.
    expect(mayHold(textPairs(`${'a'.repeat(200)}`), keyPairs(`${'a'.repeat(199)}b`))).toBe(false);
  });
});
