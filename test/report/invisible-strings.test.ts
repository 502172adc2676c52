import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { visible } from '../../src/domain/visible.js';
import { redactingLogger } from '../../src/github/redacting-log.js';
import { planSuggestions } from '../../src/github/publish/suggestions.js';
import { code, codeCell, md, mermaidText, plain, prose } from '../../src/report/escape.js';
import { reviewJson } from '../../src/report/json.js';
import { jsonOutput } from '../../src/cli/output.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { quotedQueueFile, reviewSurfaces } from './pr-string-surfaces.js';
import { review } from './scenarios.js';
import { FAIL_FAST } from '../helpers/fail-fast-property.js';

/**
 * Strings a pull request controls (file, queue and workload names, file content quoted in
 * diagnostics) holding characters a reader cannot see — bidi controls that reorder `8 → 4`,
 * zero-width and other invisible characters, tag characters, misused variation selectors, other
 * format and control characters — reach no output raw: not the comment, the check's title, summary
 * and text, its annotations (paths too), `/gpu-justify explain`, suggestions, a failed check, the
 * logs, the CLI's JSON. Each is written visibly where it stood (`⟨U+202E⟩`), so what is seen is
 * what is there, in its order.
 */

const INVISIBLES = [
  ...['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'],
  ...['\u200B', '\u200C', '\u200D', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\uFEFF', '\u180E', '\u3164', '\u115F'],
  ...['\u{E0001}', '\u{E0041}', '\u{E007F}', '\uFE0F', '\uFE00', '\u{E0100}', '\u00AD', '\u2028', '\u2029', '\u0007', '\u001B', '\u0600'],
  ...['\u034F', '\u1160', '\uFFA0', '\u{1D173}', '\u0085', '\u2800'],
];

/** Characters of the class under test, the newline family aside (the escapes fold those). */
const RAW = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\u2028\u2029\u2800]/u;

const VISIBLE_UNITS = [...'abcdefghijklmnopqrstuvwxyz0123456789-'];

/** A name of visible letters, digits and dashes with invisible characters among them. */
const withInvisible = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...VISIBLE_UNITS) }, { weight: 2, arbitrary: fc.constantFrom(...INVISIBLES) }), {
    minLength: 2,
    maxLength: 14,
  })
  .filter((parts) => parts.some((p) => INVISIBLES.includes(p)))
  .map((parts) => `q${parts.join('')}`);
const plainName = fc.stringMatching(/^[a-z][a-z0-9-]{2,12}$/);

/**
 * Every character of the class that `text` holds, apart from the zero-width spaces the escapes
 * themselves put after `#`, `GH`, `:`, `www`, `@`, `<` and `-` to part what GitHub would act on,
 * and an emoji's presentation selector. PR strings are drawn from letters, digits and dashes with
 * invisible characters among them, so no pictograph of theirs can shelter a selector.
 */
function raw(text: string): string[] {
  const out: string[] = [];
  const chars = [...text];
  for (const [i, ch] of chars.entries()) {
    if (ch === '\n' || ch === '\r' || ch === '\t' || !RAW.test(ch)) continue;
    if (ch === '\u200B' && /^[#HhWw:@<-]$/.test(chars[i - 1] ?? '')) continue;
    // Our own emoji (⚠️) keep their presentation selector.
    if (ch === '\uFE0F' && /\p{Extended_Pictographic}/u.test(chars[i - 1] ?? '')) continue;
    out.push(`U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()} at ${i}`);
  }
  return out;
}

function catalog(workload: string, queue: string): string {
  return `workloads:
  - name: ${JSON.stringify(workload)}
    type: batch
    queue: ${JSON.stringify(queue)}
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 4
    window:
      earliestStart: "00:00"
      deadline: "06:00"
`;
}

const cases = fc.record({
  queue: withInvisible,
  workload: fc.oneof(withInvisible, plainName),
  file: fc.oneof(withInvisible, plainName),
  comment: fc.oneof(
    fc.constant(''),
    withInvisible.map((c) => ` # ${c}`),
  ),
  quoted: withInvisible,
});

describe('invisible characters in PR strings', () => {
  it('reach no surface raw, and each is written visibly where it stood', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ({ queue, workload, file, comment, quoted }) => {
        const path = `clusters/${file}.yaml`;
        const base = { [path]: quotedQueueFile(queue, 4, comment), 'gpu-workloads.yaml': catalog(workload, queue) };
        const broken = `kind: ClusterQueue\nmetadata:\n  name: ${quoted}\n  - [ ${quoted}`;
        const head = { ...base, [path]: quotedQueueFile(queue, 12, comment), 'broken.yaml': broken };
        const result = await review(base, head, { headroom: 0 });
        expect(result.changes.map((c) => c.name)).toEqual([queue]);

        const { body, check, surfaces: written } = reviewSurfaces(result, path, { annotationPaths: true });
        const suggestions = await planSuggestions(result, memoryChangeSet(base, head).head);
        const surfaces: [string, string][] = [
          ...written,
          ...suggestions.flatMap((s): [string, string][] => [
            ['suggestion path', s.path],
            ['suggestion', s.body],
          ]),
        ];
        for (const [where, text] of surfaces) expect(raw(text), `${where}: ${JSON.stringify(text.slice(0, 300))}`).toEqual([]);

        // Written out where it stood, in order: the reader sees each name as it is.
        expect(body).toContain(visible(queue));
        expect(body).toContain(visible(path));
        expect(check.annotations.map((a) => a.path)).toContain(visible(path));
        expect(check.annotations.some((a) => (a.title ?? '').startsWith(visible(queue)))).toBe(true);
        // A suggestion applies its line as written: none for a line or a path holding what no one sees.
        const hidden = visible(path) !== path || comment !== '';
        expect(suggestions.length, `suggestions for ${JSON.stringify(path)}${JSON.stringify(comment)}`).toBe(hidden ? 0 : 1);

        // JSON keeps the data and shows the characters as escapes.
        const json = jsonOutput(reviewJson(result));
        expect(raw(json)).toEqual([]);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(reviewJson(result))));
      }),
      { ...FAIL_FAST, numRuns: 60, seed: 20_261_206 },
    );
  }, 180_000);

  it('every escape writes them out, keeps the order of what is visible, and leaves emoji whole', () => {
    fc.assert(
      fc.property(withInvisible, (text) => {
        const shown = visible(text);
        for (const out of [
          md(text),
          md(text, 400),
          prose(text),
          prose(text, 400, true),
          code(text),
          codeCell(text),
          plain(text),
          mermaidText(text),
        ]) {
          expect(raw(out), JSON.stringify(out)).toEqual([]);
        }
        // Names of letters, digits and dashes come out exactly as written, escapes in place.
        expect(md(text, 400)).toBe(shown);
        expect(code(text, 400)).toBe(`\`${shown}\``);
        expect(shown.replace(/⟨U\+[0-9A-F]{4,6}⟩/g, '')).toBe([...text].filter((c) => !RAW.test(c)).join(''));
      }),
      { ...FAIL_FAST, numRuns: 500, seed: 20_261_207 },
    );
    expect(visible('8 \u2192 4 \u202E')).toBe('8 → 4 ⟨U+202E⟩');
    expect(visible('👩\u200D💻 ❤\uFE0F')).toBe('👩\u200D💻 ❤\uFE0F');
    expect(visible('a\u200Db\uFE0F')).toBe('a⟨U+200D⟩b⟨U+FE0F⟩');
  });

  it('a log line names a PR path with its invisible characters written out', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const log = redactingLogger(pino({ level: 'info' }, sink));
    log.info({ file: 'clusters/\u202Eqof.yaml', nested: { name: 'gpu\u200Bpool' } }, 'read \u2067x');
    const line = JSON.parse(lines.join('')) as { file: string; nested: { name: string }; msg: string };
    expect(line.file).toBe('clusters/⟨U+202E⟩qof.yaml');
    expect(line.nested.name).toBe('gpu⟨U+200B⟩pool');
    expect(line.msg).toBe('read ⟨U+2067⟩x');
  });
});
