import type { ChangeReview, ReviewResult } from '../../domain/review.js';
import type { Evidence, Finding } from '../../domain/verdict.js';
import { code, MAX_SENTENCE, md } from '../../report/index.js';
import { boundText, evidenceRef } from '../../report/index.js';
import { findingText } from '../../report/index.js';
import { headline } from '../../report/index.js';
import { missingWords } from '../../report/index.js';
import { reviewReason } from '../../report/index.js';
import { scheduleTable } from '../../report/index.js';
import { diagnosticsList, diagnosticsTitle } from '../../report/index.js';
import { COMMAND_HELP } from './command-parser.js';

/** Marks replies, so they are never taken for the sticky review comment. */
export const REPLY_MARKER = '<!-- gpu-justify:reply -->';

/** GitHub refuses comment bodies over 65,536 characters; keep a margin. */
const MAX_REPLY = 65_000;

/** The command list, for `help` and for a command that was not understood. */
export function renderHelp(intro?: string): string {
  const rows = COMMAND_HELP.map((c) => `| \`${c.usage}\` | ${c.does} |`);
  return fit([
    REPLY_MARKER,
    ...(intro === undefined ? [] : [intro, '']),
    'gpu-justify commands (the first line of a comment on the pull request):',
    '',
    '| Command | What it does |',
    '| --- | --- |',
    ...rows,
  ]);
}

/** `/gpu-justify explain`: everything behind the verdict, change by change. */
export function renderExplain(result: ReviewResult): string {
  const lines = [REPLY_MARKER, `### The evidence behind: ${headline(result)}`, ''];
  lines.push(
    `Judged at head ${code(result.context.headSha?.slice(0, 12) ?? result.context.headLabel)} against ` +
      `${code(result.context.baseLabel)}; mode ${result.context.mode}, headroom ${Math.round(result.context.headroom * 100)}%, ` +
      `catalog ${code(result.context.catalogFile)}.`,
    '',
  );
  if (result.reviews.length === 0) lines.push('No GPU capacity changes were found in this pull request.', '');
  for (const review of result.reviews) lines.push(...explainReview(review));
  if (result.missingEvidence.length > 0) {
    lines.push('#### Missing evidence', '');
    for (const m of result.missingEvidence.map((e) => missingWords(e)))
      lines.push(`- **${md(m.what, MAX_SENTENCE)}**: ${md(m.how, MAX_SENTENCE)}`);
    lines.push('');
  }
  if (result.diagnostics.length > 0)
    lines.push(`#### ${diagnosticsTitle(result.diagnostics)}`, '', diagnosticsList(result.diagnostics), '');
  return fit(lines);
}

function explainReview(review: ChangeReview): string[] {
  const c = review.change;
  const lines = [
    `#### ${md(c.name)} (${c.kind}) at ${code(`${c.file}:${c.line}`)}`,
    '',
    `- GPUs: ${c.gpusBefore} → ${c.gpusAfter} (${c.delta >= 0 ? '+' : ''}${c.delta})${c.gpuModel ? `, model ${md(c.gpuModel)}` : ''}`,
    `- Verdict: **${review.verdict}**: ${md(reviewReason(review), MAX_SENTENCE)}`,
    `- Need with headroom: ${review.need ?? 'unknown'} GPUs; GPUs to add: ${review.gpusNeeded ?? 'unknown'}`,
    `- Linked workloads: ${review.workloads.length > 0 ? review.workloads.map((w) => code(w)).join(', ') : 'none'}`,
  ];
  if (review.evidence.length > 0) lines.push(`- Evidence:`, ...review.evidence.map((e) => `  - ${evidence(e)}`));
  for (const f of review.findings) lines.push(...finding(f));
  for (const m of review.missingEvidence.map((e) => missingWords(e)))
    lines.push(`- Missing: **${md(m.what, MAX_SENTENCE)}**: ${md(m.how, MAX_SENTENCE)}`);
  lines.push('');
  const plan = review.plan;
  if (plan && plan.schedule.length > 0) {
    lines.push(
      `Stagger plan: peak ${plan.peakGpus} GPUs (${plan.naivePeakGpus} if every run starts when its window opens); ` +
        `lower bound ${plan.lowerBound}${plan.optimal ? ', optimal' : ''}: ${md(boundText(plan.boundProof), MAX_SENTENCE)}.`,
      '',
      scheduleTable(plan),
      '',
    );
  }
  return lines;
}

function finding(f: Finding): string[] {
  const head =
    `- Lever ${code(f.lever)}: frees ${f.gpusFreed} GPUs, ${f.meetsNeed ? 'meets' : 'does not meet'} the need` +
    `${f.confidence ? ` (confidence ${f.confidence})` : ''}. ${md(findingText(f), MAX_SENTENCE)}`;
  return [head, ...f.evidence.map((e) => `  - ${evidence(e)}`)];
}

function evidence(e: Evidence): string {
  return `${e.source}: ${code(evidenceRef(e), MAX_SENTENCE)}${e.window ? ` over ${md(e.window)}` : ''}`;
}

function fit(lines: string[]): string {
  const body = `${lines.join('\n').trimEnd()}\n`;
  if (body.length <= MAX_REPLY) return body;
  return `${body.slice(0, MAX_REPLY - 60)}\n\n_…cut to fit GitHub's comment size limit._\n`;
}
