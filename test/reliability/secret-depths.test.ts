import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/util/redact.js';
import { FAIL_FAST } from '../helpers/fail-fast-property.js';

/**
 * Shapes a credential reaches output in besides its escapes: as hex (a byte dump, Go's `%x`), in
 * either case; deep inside a logged value (an upstream's parsed error body nested past the
 * redactor's walk); in an error's `cause` chain; in a redirect's `Location` and an HTML error
 * page. None is readable after redaction, and a commit id or digest is never taken for a secret.
 */

const secret = fc.stringMatching(/^[A-Za-z0-9&<>'/+=_.~-]{8,28}$/).filter((s) => /[A-Za-z]/.test(s) && /\d/.test(s));
const hex = (s: string) => Buffer.from(s).toString('hex');

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { detail: value } : [value];
  return value;
}

describe('a credential as hex', () => {
  it('is masked in lower and upper case, alone and inside a longer dump', () => {
    fc.assert(
      fc.property(secret, fc.constantFrom('', '0a1b', 'deadbeef'), (s, around) => {
        const r = new Redactor().add(s);
        for (const dump of [hex(s), hex(s).toUpperCase(), `${around}${hex(s)}${around}`]) {
          expect(r.redact(`bytes: ${dump}`)).not.toContain(hex(s).slice(2, -2));
        }
      }),
      { ...FAIL_FAST, numRuns: 150 },
    );
  });

  it('a short secret is not looked for as hex, so commit ids stay whole', () => {
    const r = new Redactor().add('abc1');
    const sha = `${hex('abc1')}${'0'.repeat(32)}`;
    expect(r.redact(`blob/${sha}`)).toBe(`blob/${sha}`);
  });
});

describe('a credential deep in a logged value', () => {
  it.each([1, 8, 9, 12, 40])('is masked %i levels down', (depth) => {
    const s = 'Zq9-deep-secret-771';
    const out = new Redactor().add(s).redactDeep(nested(depth, `upstream said: token=${s}`));
    expect(JSON.stringify(out)).not.toContain('deep-secret');
  });

  it('a cycle deep down is written, not followed forever', () => {
    const loop: Record<string, unknown> = { token: 'Zq9-deep-secret-771' };
    loop['self'] = loop;
    const out = new Redactor().add('Zq9-deep-secret-771').redactDeep(nested(12, loop));
    expect(JSON.stringify(out)).not.toContain('deep-secret');
  });
});

describe('a credential in an error chain, a redirect or an HTML page', () => {
  const s = 'p&ss<w>o9rd/+=Qz';
  const r = new Redactor().addUrl(`https://oc:${encodeURIComponent(s)}@opencost.example/`);
  it.each([
    ['a cause', new Error('outer', { cause: new Error(`GET https://oc:${encodeURIComponent(s)}@opencost.example/ failed`) })],
    ['a Location', { status: 302, headers: { location: `https://oc:${s.replace(/\//g, '%2f')}@login.example/?next=%2F` } }],
    [
      'an HTML page',
      `<html><body><p>Unauthorized: oc:${s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p></body></html>`,
    ],
  ])('%s', (_name, value) => {
    const out = JSON.stringify(r.redactDeep(value));
    expect(out).not.toMatch(/o9rd|ss.{0,8}w.{0,8}o9/);
  });
});
