import type { ReviewResult, Verdict } from '../domain/index.js';
import { headline } from './headline.js';
import { VERDICT_TITLE } from './verdict-text.js';

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

function conclusionFor(verdict: Verdict, mode: 'advise' | 'enforce'): CheckOutput['conclusion'] {
  switch (verdict) {
    case 'no-gpu-change':
    case 'justified':
      return 'success';
    case 'insufficient-evidence':
      return 'neutral';
    case 'not-justified':
    case 'partially-justified':
      return mode === 'enforce' ? 'failure' : 'neutral';
  }
}

/** The check run's output for a review (INTERFACES.md §5). Pure. */
export function renderCheck(result: ReviewResult, text?: string): CheckOutput {
  const conclusion = conclusionFor(result.verdict, result.context.mode);
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
      title: `${r.change.name}: ${r.change.gpusBefore} → ${r.change.gpusAfter} GPUs (${r.verdict})`,
      message: r.reason,
    }));
  for (const d of result.diagnostics) {
    if (d.line === null) continue;
    annotations.push({
      path: d.file,
      start_line: d.line,
      end_line: d.line,
      annotation_level: d.severity === 'error' ? 'failure' : d.severity === 'warning' ? 'warning' : 'notice',
      message: d.message,
    });
  }
  const title =
    result.verdict === 'no-gpu-change'
      ? VERDICT_TITLE[result.verdict]
      : `${VERDICT_TITLE[result.verdict]}: +${result.gpusRequested} requested, ${result.gpusNeeded ?? 'unknown'} needed`;
  return {
    conclusion,
    title,
    summary: headline(result).slice(0, MAX_CHECK_TEXT),
    ...(text === undefined ? {} : { text: text.slice(0, MAX_CHECK_TEXT) }),
    annotations,
  };
}

/** The check when the review itself failed: concluded, honest about why, never a verdict. */
export function renderFailedCheck(reason: string): CheckOutput {
  return {
    conclusion: 'neutral',
    title: 'gpu-justify could not run',
    summary: `The review could not run: ${reason}. No verdict was reached; re-run the check once the cause is fixed.`,
    annotations: [],
  };
}
