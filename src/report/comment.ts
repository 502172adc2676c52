import type { ReviewResult } from '../domain/index.js';
import { MAX_SENTENCE, md } from './escape.js';
import { headline } from './headline.js';
import { scheduleGantt, scheduleTable } from './schedule.js';
import { changesTable, diagnosticsList, leversTable, reviewsTable } from './tables.js';

export const COMMENT_MARKER = '<!-- gpu-justify:comment -->';
/** GitHub refuses comment bodies over 65,536 characters; keep a margin. */
export const MAX_COMMENT = 65_000;

export interface CommentOptions {
  /** Blob URL of the PR head (`https://github.com/o/r/blob/<sha>`), to link changed lines. */
  headUrl?: string;
  /** Set on draft PRs. */
  draft?: boolean;
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** The sticky PR comment: verdict first, then the evidence folded below. Pure. */
export function renderComment(result: ReviewResult, options: CommentOptions = {}): string {
  const top: string[] = [COMMENT_MARKER, `### ${headline(result)}`];
  if (options.draft) top.push('_This pull request is a draft; the review will run again as it changes._');
  if (result.context.policyChangedInPr) {
    top.push('_This pull request edits the gpu-justify policy; it was judged by the base branch\'s version._');
  }
  if (result.context.catalogChangedInPr) {
    top.push(`_The workload catalog \`${md(result.context.catalogFile)}\` was read from this pull request, which changes it._`);
  }

  const sections: string[] = [];
  if (result.changes.length > 0) {
    sections.push(`#### Changes\n\n${changesTable(result.changes, options.headUrl)}`);
    sections.push(`#### Per pool or queue\n\n${reviewsTable(result.reviews)}`);
  }
  if (result.findings.length > 0) sections.push(`#### Levers\n\n${leversTable(result.findings)}`);

  const folded: string[] = [];
  for (const review of result.reviews) {
    const plan = review.plan;
    if (!plan || plan.schedule.length === 0) continue;
    const proof = plan.optimal
      ? `No schedule has a lower peak: ${md(plan.boundReason, MAX_SENTENCE)}.`
      : `Best schedule found; no schedule can go below ${plan.lowerBound} GPUs: ${md(plan.boundReason, MAX_SENTENCE)}.`;
    folded.push(
      details(
        `Staggered schedule for ${md(review.change.name)}: peak ${plan.peakGpus} GPUs`,
        `${scheduleGantt(plan)}\n\n${scheduleTable(plan)}\n\n${proof}`,
      ),
    );
  }
  if (result.missingEvidence.length > 0) {
    const items = result.missingEvidence.map((m) => `- [ ] **${md(m.what, MAX_SENTENCE)}**: ${md(m.how, MAX_SENTENCE)}`);
    folded.push(details(`Missing evidence (${items.length})`, items.join('\n')));
  }
  if (result.diagnostics.length > 0) {
    folded.push(details(`Problems reading the files (${result.diagnostics.length})`, diagnosticsList(result.diagnostics)));
  }
  if (result.verdict !== 'no-gpu-change') folded.push(details('How to act on this', howToAct(result)));

  const footer = `<sub>gpu-justify · mode: ${result.context.mode} · headroom ${Math.round(result.context.headroom * 100)}% · base ${md(result.context.baseLabel)} → head ${md(result.context.headLabel)}${result.context.headSha ? ` · head ${result.context.headSha.slice(0, 12)}` : ''}</sub>`;
  return fit([...top, ...sections].join('\n\n'), folded, footer);
}

function howToAct(result: ReviewResult): string {
  const lines = [
    '- Apply the lever: use the proposed start times above, then lower the request to what is needed.',
    `- Correct the evidence: if a workload is missing or its runtime, GPUs or window are wrong, fix \`${md(result.context.catalogFile)}\` in this pull request and the review runs again.`,
  ];
  lines.push(
    result.context.mode === 'enforce'
      ? '- The policy is in enforce mode: this check fails while the increase is not justified.'
      : '- The policy is in advise mode: this check is neutral and does not block merging.',
  );
  return lines.join('\n');
}

/** Drops folded sections from the end until the body fits GitHub's limit, saying what was dropped. */
function fit(head: string, folded: string[], footer: string): string {
  const parts = [...folded];
  let dropped = 0;
  for (;;) {
    const note = dropped > 0 ? `\n\n_${dropped} detail section(s) left out to stay within GitHub's comment size limit._` : '';
    const body = [head, ...parts].join('\n\n') + note + `\n\n${footer}\n`;
    if (body.length <= MAX_COMMENT) return body;
    if (parts.length === 0) return `${body.slice(0, MAX_COMMENT - 40)}\n\n_…cut to fit GitHub's limit._\n`;
    parts.pop();
    dropped += 1;
  }
}
