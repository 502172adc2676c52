import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownAfter, textBefore } from '../../src/github/api/patch.js';
import { unifiedPatch } from '../helpers/fake-repo-diff.js';

describe('textBefore', () => {
  // As `git diff` prints it, file headers aside: a changed line, and a last line gaining its newline.
  const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nlast';
  const after = 'a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nlast\n';
  const gitPatch = [
    '@@ -1,7 +1,7 @@',
    ' a',
    ' b',
    ' c',
    '-d',
    '+D',
    ' e',
    ' f',
    ' g',
    '@@ -9,4 +9,4 @@ h',
    ' i',
    ' j',
    ' k',
    '-last',
    '\\ No newline at end of file',
    '+last',
  ].join('\n');

  it("rebuilds the text before a change from git's diff", () => {
    expect(textBefore(after, gitPatch)).toBe(before);
  });

  it('rebuilds a removed file from its diff alone', () => {
    expect(textBefore('', '@@ -1,2 +0,0 @@\n-x: 1\n-y: 2')).toBe('x: 1\ny: 2\n');
  });

  it('gives null when the diff does not line up with the text', () => {
    expect(textBefore(after.replace('D', 'Z'), gitPatch)).toBeNull();
    expect(textBefore('a\nb\n', '@@ -5,2 +5,2 @@\n-x\n+y')).toBeNull();
    expect(textBefore('a\n', '@@ -1 +1 @@\n-b')).toBeNull();
    expect(textBefore('a\n', 'not a diff')).toBeNull();
    // The head lacks its last newline, the diff says it has one.
    expect(textBefore('a\nb', '@@ -1,2 +1,2 @@\n a\n-c\n+b')).toBeNull();
  });

  it('undoes any diff the fake GitHub lists', () => {
    const line = fc.constantFrom('', 'a', 'b', 'nominalQuota: 8', '  - name: x', 'c\r');
    const text = fc
      .tuple(fc.array(line, { maxLength: 30 }), fc.boolean())
      .map(([ls, newline]) => (ls.length === 0 ? '' : ls.join('\n') + (newline ? '\n' : '')));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const patch = unifiedPatch(a, b);
        expect(patch).toBeDefined();
        expect(textBefore(b, patch ?? '')).toBe(a);
      }),
      { numRuns: 500 },
    );
  });
});

describe('shownAfter', () => {
  it('gives the context and added lines of every hunk, and null for a diff that does not parse', () => {
    const patch = '@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -9 +9,2 @@\n i\n+kind: ClusterQueue\n';

    expect(shownAfter(patch)).toBe('a\nB\ni\nkind: ClusterQueue');
    expect(shownAfter('not a diff\n')).toBeNull();
  });
});
