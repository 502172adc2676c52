import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readStateMarkers } from '../../src/github/overrides/comment-state.js';
import { applyOverrideToCheck, applyOverrideToComment, readOverride, signOverride } from '../../src/github/overrides/override.js';
import { reviewedState, summaryOf } from '../../src/github/overrides/reviewed-state.js';
import { DEFAULT_POLICY } from '../../src/domain/policy.js';
import { readShown } from '../../src/github/overrides/shown-request.js';
import { stateKey } from '../../src/github/overrides/state-signature.js';
import { renderCheck } from '../../src/report/check.js';
import { COMMENT_MARKER, renderComment } from '../../src/report/comment.js';
import { code, codeCell, md, plain, prose } from '../../src/report/escape.js';
import { HEAD_URL, quotedQueueFile } from './pr-string-surfaces.js';
import { review } from './scenarios.js';

/**
 * Strings a pull request controls (file names, queue and workload names, file content quoted
 * in diagnostics) rendered into our comment and check, then read back: they never yield state,
 * never form or close one of our hidden markers, and never mention, reference or link.
 */

const ATTACKS = [
  '@victim',
  '@acme/admins',
  'fixes #1',
  'closes acme/infra#2',
  'GH-3',
  '<!-- gpu-justify:comment -->',
  '<!-- gpu-justify:override {"by":"maintainer","at":"2025-01-01T00:00:00Z","reason":"x","headSha":"cccccccccccccccccccccccccccccccccccccccc","fingerprint":"0123456789abcdef0123456789abcdef","commentId":1,"sig":"00"} -->',
  '<!-- gpu-justify:shown {"since":null} -->',
  '-->',
  '<!--',
  '`',
  '``',
  '|',
  '\n',
  'https://evil.example/x',
  'www.evil.example',
  '</details>',
  '\\',
];

const hostile = fc
  .array(fc.oneof(fc.constantFrom(...ATTACKS), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme-ascii', maxLength: 12 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

const trust = { key: stateKey('server secret'), scope: { repo: 'acme/infra', number: 7 } };

function catalog(workload: string): string {
  return `workloads:
  - name: ${JSON.stringify(workload)}
    type: batch
    queue: research
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 4
    window:
      earliestStart: "00:00"
      deadline: "06:00"
`;
}

/** The text GitHub acts on: everything outside fenced blocks, code spans and our links' targets. */
function prose_(markdown: string): string {
  return (
    markdown
      .replace(/^```[\s\S]*?^```$/gm, '')
      // Outside a code span a backslash-escaped backtick is a literal one and opens none; inside one
      // a backslash is literal (CommonMark 2.4, 6.1).
      .replace(/\\[\s\S]|`[^`\n]*`/g, (m) => (m.startsWith('`') ? '' : m))
      .replace(/\]\(https:\/\/github\.com\/acme\/infra\/blob\/[^)\s]*\)/g, ']')
  );
}

function expectInert(text: string, where: string): void {
  const live = prose_(text);
  expect(live, where).not.toMatch(/(?<![\w`])@[A-Za-z0-9]/);
  expect(live, where).not.toMatch(/(?<![\w&\\])#\d|\\#\d/);
  expect(live, where).not.toMatch(/\bGH-\d/i);
  expect(live, where).not.toMatch(/https?:\/\/evil|www\.evil/i);
}

async function hostileReview(name: string, workload: string, file: string, quoted: string) {
  const base = { [`${file}.yaml`]: quotedQueueFile(name, 4), 'gpu-workloads.yaml': catalog(workload) };
  // A file that does not parse: its diagnostic may quote the content.
  const broken = `kind: ClusterQueue\nmetadata:\n  name: ${quoted}\n  - [ ${quoted}`;
  return review(base, { ...base, [`${file}.yaml`]: quotedQueueFile(name, 12), 'broken.yaml': broken }, { headroom: 0 });
}

describe('PR-controlled strings in the comment and the check', () => {
  it('never yield state, markers, mentions, references or links, read back from the comment', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, hostile, async (name, workload, file, quoted) => {
        const result = await hostileReview(name, workload, file.replace(/\//g, '-'), quoted);
        const body = renderComment(result, { headUrl: HEAD_URL });
        const check = renderCheck(result, body);
        for (const [where, text] of [
          ['comment', body],
          ['summary', check.summary],
        ] as const) {
          // Our marker opens the comment; no other HTML comment opens or closes anywhere.
          expect(text.split('<!--').length - 1, where).toBe(where === 'comment' ? 1 : 0);
          expect(text.split('-->').length - 1, where).toBe(where === 'comment' ? 1 : 0);
          for (const kind of ['override', 'shown', 'comment']) expect(readStateMarkers(text, kind), where).toEqual([]);
          expect(readOverride(text, trust), where).toEqual({ kind: 'none' });
          expect(readShown({ body: text, updatedAt: '2026-01-01T00:00:00Z' }, trust), where).toBeNull();
          expectInert(text, where);
        }
        expect(body.startsWith(COMMENT_MARKER)).toBe(true);
        // Annotations are plain text: a zero-width space (the character) parts what GitHub would act on.
        for (const a of check.annotations) {
          for (const text of [a.title ?? '', a.message]) {
            expect(text).not.toContain('<!--');
            expect(text).not.toContain('-->');
            expectInert(text, 'annotation');
          }
        }
        // With a genuine override applied, only the genuine record is read back.
        const record = signOverride(
          {
            by: 'maintainer',
            at: '2026-01-01T00:00:00.000Z',
            reason: quoted,
            headSha: 'c'.repeat(40),
            ...summaryOf(reviewedState(result, { policy: DEFAULT_POLICY, diagnostics: [], file: null }, trust.key)),
            commentId: 5,
          },
          trust,
        );
        const overridden = applyOverrideToComment(body, record);
        expect(readOverride(overridden, trust)).toEqual({ kind: 'verified', record });
        expect(readStateMarkers(overridden, 'override')).toHaveLength(1);
        const summary = applyOverrideToCheck({ ...check, conclusion: 'failure' }, record).summary;
        expectInert(summary.replace(/^\*\*Overridden\*\* by @maintainer/, ''), 'overridden summary');
      }),
      { numRuns: 60, seed: 20_261_201 },
    );
  }, 120_000);

  it('every escape leaves random text inert and free of markers', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        for (const out of [
          md(text),
          md(text, 400),
          prose(text),
          prose(text, 400, true),
          code(text),
          codeCell(text),
          plain(text).replace(/\n/g, ' '),
        ]) {
          expect(out).not.toContain('<!--');
          expect(out).not.toContain('-->');
          expect(out).not.toMatch(/[\r\n]/);
          expectInert(out, text);
        }
      }),
      { numRuns: 500, seed: 20_261_202 },
    );
  });
});
