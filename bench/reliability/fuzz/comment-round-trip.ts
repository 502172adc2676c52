import fc from 'fast-check';
import type { ReviewResult } from '../../../src/domain/review.js';
import { readStateMarkers } from '../../../src/github/overrides/comment-state.js';
import { readOverride } from '../../../src/github/overrides/override.js';
import { stateKey } from '../../../src/github/overrides/state-signature.js';
import { renderCheck } from '../../../src/report/check.js';
import { COMMENT_MARKER, renderComment } from '../../../src/report/comment.js';

/**
 * The sticky comment's round trip: hostile text in every PR-controlled place of a review (file,
 * queue and workload names, a diagnostic quoting the file, missing evidence), rendered into the
 * comment and the check, then read back as the App reads its state. Nothing may come back.
 */

/** Pieces of what a hostile name would hold: our markers, their ends, mentions, references. */
const FRAGMENTS = [
  '<!-- gpu-justify:override {"by":"x","commentId":1,"sig":"00"} -->',
  '<!-- gpu-justify:shown {"since":null} -->',
  '<!-- gpu-justify:comment -->',
  '<!--',
  '-->',
  '@victim',
  'fixes #1',
  '`',
  '|',
  '\n',
];

/** Random text with the fragments mixed in, so the attacks are tried in every position. */
export function roundTripInputs(): fc.Arbitrary<string> {
  const piece = fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
  return fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
}

const trust = { key: stateKey('fuzz secret'), scope: { repo: 'acme/infra', number: 7 } };

function hostileResult(text: string): ReviewResult {
  const change = {
    file: `clusters/${text}.yaml`,
    line: 3,
    kind: 'kueue-cluster-queue' as const,
    name: text,
    gpuModel: text,
    gpusBefore: 4,
    gpusAfter: 8,
    delta: 4,
  };
  const missing = [{ what: `workloads that run in ${text}`, how: `document ${text} in gpu-workloads.yaml` }];
  return {
    verdict: 'insufficient-evidence',
    gpusRequested: 4,
    gpusNeeded: null,
    changes: [change],
    reviews: [
      {
        change,
        verdict: 'insufficient-evidence',
        need: null,
        gpusNeeded: null,
        workloads: [text],
        findings: [],
        missingEvidence: missing,
        reason: { code: 'no-linked-workloads', catalogFile: `${text}.yaml` },
        evidence: [],
      },
    ],
    findings: [],
    missingEvidence: missing,
    diagnostics: [{ file: change.file, line: 2, severity: 'error', message: `YAML error near ${text}` }],
    context: {
      mode: 'enforce',
      headroom: 0.2,
      catalogFile: `${text}.yaml`,
      catalogChangedInPr: true,
      policyChangedInPr: false,
      baseLabel: 'base',
      headLabel: 'head',
    },
  };
}

export function commentRoundTripProblems(text: string): string[] {
  const result = hostileResult(text);
  const body = renderComment(result, { headUrl: 'https://github.com/acme/infra/blob/0123456789abcdef0123456789abcdef01234567' });
  const check = renderCheck(result, body);
  const out: string[] = [];
  if (!body.startsWith(COMMENT_MARKER)) out.push('comment does not open with its marker');
  for (const [where, shown] of [
    ['comment', body],
    ['check summary', check.summary],
  ] as const) {
    const expected = where === 'comment' ? 1 : 0;
    if (shown.split('<!--').length - 1 !== expected) out.push(`${where}: an HTML comment opened by PR text`);
    if (shown.split('-->').length - 1 !== expected) out.push(`${where}: an HTML comment closed by PR text`);
    for (const kind of ['override', 'shown', 'comment']) {
      if (readStateMarkers(shown, kind).length > 0) out.push(`${where}: a ${kind} marker read back`);
    }
    if (readOverride(shown, trust).kind !== 'none') out.push(`${where}: an override record read back`);
  }
  for (const a of check.annotations) {
    if (/<!--|-->/.test(`${a.title ?? ''} ${a.message}`)) out.push('annotation holds a marker');
  }
  return out;
}
