import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern } from './target-pattern.js';

const test = (pattern: string, value: string): boolean => {
  const c = compilePattern(pattern);
  if (!c.ok) throw new Error(`${pattern}: ${c.error}`);
  return c.value(value);
};

// Patterns in the syntax Go and JavaScript read alike, over a small alphabet so that they match often.
const atom = fc.oneof(
  fc.constantFrom('a', 'b', '-', '.', '\\.', '\\d', '\\w', '[ab]', '[^a]', '[a-c0-1]', '[-a]', '\\-'),
  fc.constantFrom('0', '1'),
);
const pattern = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?')).map(([a, q]) => `(?:${a})${q}`),
    tie('node').map((a) => `(${a})`),
  ),
})).node;

describe('kustomize target patterns', () => {
  it('match whole names as an anchored regular expression does', () => {
    fc.assert(
      fc.property(pattern, fc.stringMatching(/^[ab01.\-x]{0,8}$/), (p, value) => {
        expect(test(p, value)).toBe(new RegExp(`^(?:${p})$`).test(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('take the names kustomize users write', () => {
    expect(test('team-.*', 'team-a')).toBe(true);
    expect(test('team-.*', 'xteam-a')).toBe(false);
    expect(test('ClusterQueue|NodePool', 'NodePool')).toBe(true);
    expect(test('ClusterQueue|NodePool', 'NodePoolX')).toBe(false);
    expect(test('kueue.x-k8s.io', 'kueue.x-k8s.io')).toBe(true);
    expect(test('^gpu-[a-z0-9]+$', 'gpu-h100')).toBe(true);
    expect(test('(?P<team>[a-z]+)-gpu', 'ml-gpu')).toBe(true);
    expect(test('\\Agpu\\z', 'gpu')).toBe(true);
    expect(test('[\\x41-\\x43]{2}', 'AC')).toBe(true);
    expect(test('a{,2}', 'a{,2}')).toBe(true); // not a repetition in Go: literal braces
  });

  // A backtracking engine would not return here: vitest's timeout fails the test then.
  it('run in time linear in the name where a backtracking engine takes exponential time', () => {
    expect(test('(a+)+b', `${'a'.repeat(5000)}c`)).toBe(false);
    expect(test('(a|aa)*(a|aa)*(a|aa)*c', 'a'.repeat(2000))).toBe(false);
    expect(test('(?:a*)*', 'a'.repeat(2000))).toBe(true);
  });

  it('name what Go rejects and what is not run, never guessing', () => {
    for (const [p, kind] of [
      ['(a', 'valid'],
      ['a**', 'valid'],
      ['[b-a]', 'valid'],
      ['a{1001}', 'valid'],
      ['\\q', 'valid'],
      ['(?i)gpu', 'run'],
      ['\\bgpu', 'run'],
      ['\\pL', 'run'],
      ['[[:alpha:]]', 'run'],
      ['(?=a)a', 'run'],
      ['(a{1000}){1000}', 'run'],
    ] as const) {
      const c = compilePattern(p);
      expect(c.ok, p).toBe(false);
      if (!c.ok) expect(c.error, p).toContain(kind === 'valid' ? 'not a valid regular expression' : 'does not run');
    }
  });
});
