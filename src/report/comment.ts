import type { ReviewResult } from '../domain/index.js';
import { footer, howToAct } from './act.js';
import { firstScreen } from './first-screen.js';
import type { Surface } from './surface.js';
import { notFollowedSection } from './coverage.js';
import { md } from './escape.js';
import { catalogDemandBlock } from './catalog-demand.js';
import { policyErrorsBlock } from './fail-closed.js';
import { headline } from './headline.js';
import { missingEvidenceList } from './missing.js';
import { REVIEW_SECTIONS } from './review-sections.js';
import type { Section } from './section.js';
import { changesTable, diagnosticsList, diagnosticsTitle, leversTable, reviewsTable } from './tables.js';

export const COMMENT_MARKER = '<!-- gpu-justify:comment -->';
/** GitHub refuses comment bodies over 65,536 characters; keep a margin. */
export const MAX_COMMENT = 65_000;

export interface CommentOptions {
  /** Blob URL of the PR head (`https://github.com/o/r/blob/<sha>`), to link changed lines. */
  headUrl?: string;
  /** Set on draft PRs. */
  draft?: boolean;
  /** Who reads it; the pull request by default (mode-line.ts). */
  surface?: Surface;
}

function details(section: Section): string {
  return `<details>\n<summary>${section.summary}</summary>\n\n${section.body}\n\n</details>`;
}

/**
 * The sticky PR comment. The headline and the first screen (first-screen.ts) are the ten-second
 * read, the same as the check's summary; everything else folds into `<details>`, closed. Pure.
 */
export function renderComment(result: ReviewResult, options: CommentOptions = {}): string {
  // github/ inserts override notes right under the first `### ` line: keep it the headline.
  const top: string[] = [COMMENT_MARKER, `### ${headline(result)}`];
  // An invalid policy decides the outcome (enforce mode, fail closed): it is read first.
  if (result.context.policyErrors?.length) top.push(policyErrorsBlock(result.context.policyErrors, result.context));
  if (options.draft) top.push('_This pull request is a draft; the review will run again as it changes._');
  // With policy errors, their block already says the PR's copy is not read.
  if (result.context.policyChangedInPr && !result.context.policyErrors?.length) {
    top.push("_This pull request edits the gpu-justify policy; it was judged by the base branch's version._");
  }
  if (result.context.catalogChangedInPr) {
    top.push(`_The workload catalog \`${md(result.context.catalogFile)}\` was read from this pull request, which changes it._`);
  }
  top.push(...firstScreen(result, options.surface ?? 'pull-request'));
  const notFollowed = notFollowedSection(result.coverage ?? []);
  if (notFollowed !== null) top.push(notFollowed);
  if (result.catalogDemand) top.push(catalogDemandBlock(result.catalogDemand, result.context.catalogFile));

  const folded: string[] = [];
  if (result.changes.length > 0 || result.findings.length > 0) {
    const tables = [
      ...(result.changes.length > 0 ? [`#### Changes\n\n${changesTable(result.changes, options.headUrl)}`] : []),
      ...(result.findings.length > 0
        ? [`#### Levers\n\n${leversTable(result.findings, result.context.telemetry === undefined, result.reviews)}`]
        : []),
    ];
    const counts = [
      ...(result.changes.length > 0 ? [`Changes (${result.changes.length})`] : []),
      ...(result.findings.length > 0 ? [`levers (${result.findings.length})`] : []),
    ];
    const summary = counts.join(' and ').replace(/^l/, 'L');
    folded.push(details({ summary, body: tables.join('\n\n') }));
  }
  if (result.missingEvidence.length > 0) {
    folded.push(
      details({
        summary: `Missing evidence (${result.missingEvidence.length})`,
        body: missingEvidenceList(result.missingEvidence, options.surface ?? 'pull-request'),
      }),
    );
  }
  if (result.reviews.length > 0) {
    folded.push(
      details({
        summary: `Why, per pool or queue (${result.reviews.length})`,
        body: reviewsTable(result.reviews, result.context.telemetry === undefined),
      }),
    );
  }
  for (const review of result.reviews) {
    const sections = REVIEW_SECTIONS.map((render) => render(review)).filter((s): s is Section => s !== null);
    for (const section of sections) folded.push(details(section));
  }
  if (result.diagnostics.length > 0) {
    folded.push(details({ summary: diagnosticsTitle(result.diagnostics), body: diagnosticsList(result.diagnostics) }));
  }
  if (result.verdict !== 'no-gpu-change')
    folded.push(details({ summary: 'How to act on this', body: howToAct(result, options.surface ?? 'pull-request') }));

  return fit(top.join('\n\n'), folded, footer(result));
}

/** Drops folded sections from the end until the body fits GitHub's limit, saying what was dropped. */
function fit(head: string, folded: string[], foot: string): string {
  const parts = [...folded];
  let dropped = 0;
  for (;;) {
    const note = dropped > 0 ? `\n\n_${dropped} detail section(s) left out to stay within GitHub's comment size limit._` : '';
    const body = [head, ...parts].join('\n\n') + note + `\n\n${foot}\n`;
    if (body.length <= MAX_COMMENT) return body;
    if (parts.length === 0) return `${body.slice(0, MAX_COMMENT - 40)}\n\n_…cut to fit GitHub's limit._\n`;
    parts.pop();
    dropped += 1;
  }
}
