import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visible } from '../../src/domain/visible.js';
import { code, md, plain, prose } from '../../src/report/escape.js';
import { quotedQueueFile, reviewSurfaces } from './pr-string-surfaces.js';
import { review } from './scenarios.js';

/**
 * Right-to-left letters in the names a PR chooses (Hebrew, Arabic, NKo, Adlam, a code point of a
 * right-to-left block not yet assigned) need no control character to reorder what we write after
 * them: a browser lays `קו: 8 → 4` out as `4 → 8 :קו`. Every run of them reaches each surface
 * inside an isolate of its own (U+2068 … U+2069), closed even where a limit cuts the text, so what
 * we write beside it keeps its order; the name keeps its characters.
 */

const FSI = '\u2068';
const PDI = '\u2069';
/** Bidi class R or AL, assigned or not: the blocks Unicode keeps for right-to-left scripts. */
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** Right-to-left characters of `text` outside any isolate, and isolates left open or never opened. */
function bare(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const ch of text) {
    if (ch === FSI) depth++;
    else if (ch === PDI) {
      if (depth === 0) out.push('PDI without FSI');
      depth = Math.max(0, depth - 1);
    } else if (RTL.test(ch) && depth === 0) out.push(`U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}`);
  }
  if (depth > 0) out.push(`${depth} isolate(s) left open`);
  return out;
}

const RTL_UNITS = ['ק', 'ו', 'ש', 'ب', 'ح', 'ث', '\u07CA', '\u{1E900}', '\u{10D50}', '\uFB50', '\u0660', '\u05B0'];
const OTHER_UNITS = [...'abz019-_. :/()'];

/** A name with right-to-left characters among letters, digits, spaces and punctuation. */
const rtlName = fc
  .array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...RTL_UNITS) }, { weight: 3, arbitrary: fc.constantFrom(...OTHER_UNITS) }), {
    minLength: 1,
    maxLength: 16,
  })
  .filter((parts) => parts.some((p) => RTL.test(p)))
  .map((parts) => parts.join(''));

describe('right-to-left letters in PR strings', () => {
  it('every escape isolates each run, cut or not, and leaves the characters as they are', () => {
    fc.assert(
      fc.property(rtlName, fc.integer({ min: 2, max: 40 }), (text, max) => {
        for (const out of [md(text), md(text, max), plain(text, max), code(text, max), prose(`${text} \`${text}\``, max), visible(text)])
          expect(bare(out), JSON.stringify(out)).toEqual([]);
        expect(visible(visible(text))).toBe(visible(text));
        expect(visible(text).replaceAll(FSI, '').replaceAll(PDI, '')).toBe(text);
      }),
      { numRuns: 400, seed: 20_261_207 },
    );
  });

  it('reach no surface outside an isolate, through the real pipeline', async () => {
    await fc.assert(
      fc.asyncProperty(rtlName, fc.constantFrom('team', 'ק', 'بحث 2'), async (queue, dir) => {
        const path = `clusters/${dir}/queues.yaml`;
        const base = { [path]: quotedQueueFile(queue, 4) };
        const head = { [path]: quotedQueueFile(queue, 12), 'broken.yaml': `kind: ClusterQueue\nmetadata:\n  name: ${queue}\n  - [` };
        const result = await review(base, head, { headroom: 0 });
        expect(result.changes.map((c) => c.name)).toEqual([queue]);
        const { check, surfaces } = reviewSurfaces(result, path);
        for (const [where, text] of surfaces) expect(bare(text), `${where}: ${JSON.stringify(text.slice(0, 300))}`).toEqual([]);
        // The numbers beside the name are ours, outside its isolate.
        expect(check.annotations.some((a) => (a.title ?? '').startsWith(`${visible(queue)}: 4 → 12 GPUs`))).toBe(true);
      }),
      { numRuns: 40, seed: 20_261_208 },
    );
  }, 120_000);
});
