import type { ChangeReview, ReviewResult } from '../domain/index.js';
import { catalogDemandBlock } from './catalog-demand.js';
import { mayGrowCapacity, policyErrorsBlock, toPassBlock } from './fail-closed.js';
import { checkPasses } from './mode-line.js';
import { firstScreen } from './first-screen.js';
import { headline } from './headline.js';
import { sharingSentence } from './sharing.js';
import { code, md, MAX_SENTENCE, plain } from './escape.js';
import { closeIsolates, visible } from '../domain/visible.js';
import { duration, pct } from './numbers.js';
import { VERDICT_TITLE } from './verdict-text.js';
import { reviewReason } from './reasons.js';

export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
}

export interface CheckOutput {
  conclusion: 'success' | 'neutral' | 'failure' | 'skipped';
  title: string;
  summary: string;
  text?: string;
  annotations: CheckAnnotation[];
}

/** GitHub caps a check run's summary and text at 65,535 characters each. */
const MAX_CHECK_TEXT = 65_000;

/**
 * GitHub counts `neutral` as passing a required check, so enforce mode never concludes it on a PR
 * that may grow capacity and is not shown justified; an invalid policy fails such a PR outright.
 */
function conclusionFor(result: ReviewResult): CheckOutput['conclusion'] {
  if (checkPasses(result)) return 'success';
  if (result.context.policyErrors?.length && mayGrowCapacity(result)) return 'failure';
  return result.context.mode === 'enforce' ? 'failure' : 'neutral';
}

/** The check run's output for a review (docs/check-run.md). Pure. */
export function renderCheck(result: ReviewResult, text?: string): CheckOutput {
  const conclusion = conclusionFor(result);
  const annotations: CheckAnnotation[] = result.reviews
    .filter((r) => r.change.delta !== 0)
    .map((r) => ({
      path: r.change.file,
      start_line: r.change.line,
      end_line: r.change.line,
      annotation_level:
        r.verdict === 'not-justified' || r.verdict === 'partially-justified'
          ? conclusion === 'failure'
            ? 'failure'
            : 'warning'
          : 'notice',
      title: plain(`${r.change.name}: ${r.change.gpusBefore} → ${r.change.gpusAfter} GPUs (${r.verdict}), ${toAdd(r.gpusNeeded)} to add`),
      message: plain(`${r.sharing ? `${sharingSentence(r.sharing)} ` : ''}${reviewReason(r).replace(/\.$/, '')}.${capacityAction(r)}`),
    }));
  for (const d of result.diagnostics) {
    if (d.line === null) continue;
    annotations.push({
      path: d.file,
      start_line: d.line,
      end_line: d.line,
      annotation_level: d.severity === 'error' ? 'failure' : d.severity === 'warning' ? 'warning' : 'notice',
      message: plain(d.message),
    });
  }
  annotations.push(...runtimeAnnotations(result));
  const levers = [...new Set(result.findings.filter((f) => f.gpusFreed > 0).map((f) => f.lever))];
  const title =
    result.verdict === 'no-gpu-change'
      ? VERDICT_TITLE[result.verdict]
      : `${VERDICT_TITLE[result.verdict]}: +${result.gpusRequested} requested, ${toAdd(result.gpusNeeded)} to add` +
        (levers.length > 0 && result.verdict !== 'justified' ? ` (${levers.join(' + ')})` : '') +
        // Whether it blocks, in the list of checks where the summary is not yet open.
        (conclusion === 'failure' ? ' · blocks merging' : conclusion === 'neutral' ? ' · advise mode, not blocking' : '');
  const lines = result.reviews
    .filter((r) => r.change.delta !== 0)
    .slice(0, MAX_SUMMARY_LINES)
    .map((r) => changeLine(r, result.context.telemetry === undefined));
  const more = result.reviews.length > MAX_SUMMARY_LINES ? `\n- …and ${result.reviews.length - MAX_SUMMARY_LINES} more changes.` : '';
  // The comment's first screen, word for word: the same numbers, change, evidence and mode.
  const screen = [headline(result), ...firstScreen(result, 'pull-request')].join('\n\n');
  const body = lines.length > 0 ? `${screen}\n\n**Per change:**\n\n${lines.join('\n')}${more}` : screen;
  // Policy errors first: they decide the conclusion. What would pass a failing check, last.
  const errors = result.context.policyErrors ?? [];
  const summary = [
    ...(errors.length > 0 ? [policyErrorsBlock(errors, result.context)] : []),
    body,
    ...(result.catalogDemand ? [catalogDemandBlock(result.catalogDemand, result.context.catalogFile)] : []),
    ...(conclusion === 'failure' ? [toPassBlock(result)] : []),
  ].join('\n\n');
  return {
    conclusion,
    title,
    summary: closeIsolates(summary.slice(0, MAX_CHECK_TEXT)),
    ...(text === undefined ? {} : { text: closeIsolates(text.slice(0, MAX_CHECK_TEXT)) }),
    // A path is the PR's too: GitHub shows it beside the annotation as written.
    annotations: annotations.map((a) => ({ ...a, path: visible(a.path) })),
  };
}

const MAX_SUMMARY_LINES = 20;

/** The capacity to write on the annotated line, so the annotation alone says what to do. */
function capacityAction(r: ChangeReview): string {
  const { change } = r;
  if (r.verdict === 'not-justified') return ` Keep ${change.gpusBefore} GPUs here (0 to add); the check's summary has the change to make.`;
  if (r.verdict === 'partially-justified' && r.gpusNeeded !== null) {
    return ` Ask for ${change.gpusBefore + r.gpusNeeded} GPUs here (+${r.gpusNeeded} to add), not ${change.gpusAfter}; the check's summary has the change to make.`;
  }
  return '';
}

/** GPUs to add as the first screen writes them: `+2`, `0`, `unknown`. */
function toAdd(n: number | null): string {
  return n === null ? 'unknown' : n > 0 ? `+${n}` : String(n);
}

/**
 * One change in the summary: its verdict, need with and without levers, the evidence's
 * confidence and what the measurements flagged. Plain text: annotations and summaries are not
 * sanitised the way comments are, but GitHub renders the summary as markdown, so names go in
 * code spans.
 */
function changeLine(r: ChangeReview, filesOnly: boolean): string {
  const name = code(r.change.name, 80);
  const need = r.need === null ? 'need with headroom unknown' : `need with headroom ${r.need} GPUs`;
  const without =
    r.needWithoutLevers !== undefined && r.needWithoutLevers !== null && r.needWithoutLevers !== r.need
      ? ` (${r.needWithoutLevers} with no lever)`
      : '';
  const facts: string[] = [];
  const scope = r.ladders?.find((l) => l.scope !== 'workload');
  if (scope && scope.busyFraction !== null) facts.push(`busy ${pct(scope.busyFraction)}`);
  const flagged = (r.ladders ?? []).filter((l) => l.flags.length > 0).length;
  if (flagged > 0) facts.push(`${flagged} flagged idle or memory-bound`);
  const limited = (r.serving ?? []).filter((s) => s.limit !== null).length;
  if (limited > 0) facts.push(`${limited} service(s) limited by batching or memory`);
  const confidence = filesOnly ? ', confidence low: files only' : r.confidence === undefined ? '' : `, confidence ${r.confidence}`;
  const add = r.change.delta > 0 ? `, ${toAdd(r.gpusNeeded)} to add` : '';
  return `- ${name} ${r.change.gpusBefore} → ${r.change.gpusAfter}: ${r.verdict}, ${need}${without}${add}${confidence}${facts.length > 0 ? `; ${facts.join(', ')}` : ''}`;
}

/** A notice on each catalog line whose documented runtime the telemetry contradicts. */
function runtimeAnnotations(result: ReviewResult): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  for (const check of result.reviews.flatMap((r) => r.runtimes ?? [])) {
    if (!check.differs) continue;
    const where = check.evidence.find((e) => e.source === 'catalog')?.ref.match(/^(.+):(\d+)$/);
    if (!where?.[1] || !where[2]) continue;
    const line = Number(where[2]);
    if (out.some((a) => a.path === where[1] && a.start_line === line)) continue;
    out.push({
      path: where[1],
      start_line: line,
      end_line: line,
      annotation_level: 'warning',
      title: plain(
        `${check.workload}: runtime ${duration(check.documentedMinutes)} documented, ${duration(check.observedMinutes)} observed`,
      ),
      message: `Telemetry shows runs of ${plain(check.workload)} take ${duration(check.observedMinutes)} on average, not the ${duration(check.documentedMinutes)} documented; update \`runtime:\` here.`,
    });
  }
  return out;
}

/** Long enough for a deadline's reason naming a deep path; a longer one is cut, marked by `…`. */
const FAILURE_REASON_MAX = MAX_SENTENCE * 2;

/**
 * The note added to a concluded check whose comment could not be posted. `reason` is escaped as
 * in `renderFailedCheck`: it may quote what the request was about.
 */
export function noteCommentUnposted(output: CheckOutput, reason: string): CheckOutput {
  return { ...output, summary: `${output.summary}\n\n_The comment could not be posted: ${md(reason, FAILURE_REASON_MAX)}._` };
}

/**
 * The check when the review itself failed: concluded, honest about why, never a verdict. Neutral
 * only where the policy is known to be advise mode; otherwise (enforce, or a policy never read)
 * a review that could not run must not pass a required check.
 */
export function renderFailedCheck(reason: string, mode: 'advise' | 'enforce' | null = null): CheckOutput {
  const closed = mode !== 'advise';
  // A reason quotes what the failure met: a path the PR named, a branch, a parser's excerpt of a
  // file. The summary is markdown, so it is escaped whole: no link, image, HTML, mention or
  // reference a PR could write there, and no backtick that would pair with ours.
  const shown = md(reason, FAILURE_REASON_MAX);
  return {
    conclusion: closed ? 'failure' : 'neutral',
    title: 'gpu-justify could not run',
    summary:
      `The review could not run: ${shown}. No verdict was reached; re-run the check once the cause is fixed` +
      (closed
        ? ` (comment \`/gpu-justify\` or use "Re-run" on the check). Until then the check fails, since the pull request may add GPUs; ` +
          `an authorised reviewer can comment \`/gpu-justify override <reason>\` once a review has run.`
        : '.'),
    annotations: [],
  };
}
