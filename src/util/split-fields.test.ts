import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor, REDACTED } from './redact.js';
import { FAIL_FAST } from '../../test/helpers/fail-fast-property.js';

/**
 * A secret cut into two strings of one logged value (`{ user, detail }`, two items of a list), as
 * a caller or an upstream's structured error splits it: neither string holds it alone, and
 * `redactDeep` masks it across the join, in both.
 */
describe('a secret cut into two strings of one value', () => {
  const SECRET = 'p&s<w>or/d+e';
  const r = new Redactor().add(SECRET);

  it('is masked in both strings, at every cut, in objects, lists and nested values', () => {
    for (let cut = 1; cut < SECRET.length; cut++) {
      const [a, b] = [SECRET.slice(0, cut), SECRET.slice(cut)];
      for (const value of [
        { msg: 'failed', user: `for ${a}`, detail: `${b} refused` },
        [`x ${a}`, `${b} y`],
        { err: { a: `${a}` }, b: `${b}` },
      ]) {
        const out = JSON.stringify(r.redactDeep(value));
        expect(out, JSON.stringify(value)).toContain(REDACTED);
        expect(out.includes(a) && a.length >= 4, out).toBe(false);
        expect(out.includes(b) && b.length >= 4, out).toBe(false);
      }
    }
  });

  it('is found through an escape on either side of the join', () => {
    const out = JSON.stringify(r.redactDeep({ a: 'p%26s%3cw', b: '\\u003eor\\/d+e' }));
    expect(out).toBe(JSON.stringify({ a: REDACTED, b: REDACTED }));
  });

  it('leaves innocent strings whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom(...'abcdefgh &<>/+'), maxLength: 12 }), { maxLength: 6 }), (parts) => {
        const value = Object.fromEntries(parts.map((p, i) => [`k${i}`, p]));
        const joined = parts.join('');
        if (joined.includes(SECRET.slice(0, 3))) return;
        expect(r.redactDeep(value)).toEqual(value);
      }),
      { ...FAIL_FAST, numRuns: 200, seed: 20_261_207 },
    );
  });
});
