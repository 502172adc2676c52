import type { ChangeReview, Evidence, ReviewResult } from '../domain/index.js';
import { code, md } from './escape.js';
import { sharedCount } from './sharing.js';

function where(review: ChangeReview): string {
  return code(`${review.change.file}:${review.change.line}`);
}

/** The concrete step for one change the review would shrink. */
function leverStep(review: ChangeReview): string | null {
  const { change, gpusNeeded } = review;
  const staggered =
    review.plan && review.plan.peakGpus < review.plan.naivePeakGpus
      ? ' and start the runs at the proposed times (the CronJob column above)'
      : '';
  if (review.verdict === 'not-justified')
    return `- Keep ${md(change.name)} at ${change.gpusBefore} GPUs${sharedCount(review, change.gpusBefore)} in ${where(review)}${staggered}.`;
  if (review.verdict === 'partially-justified' && gpusNeeded !== null) {
    const step = change.after?.gpuStep;
    const fewer = step !== undefined && step > 1 ? (change.delta - gpusNeeded) / step : 0;
    const steps = fewer > 0 ? ` (the pool grows in steps of ${step} GPUs: ${fewer} step${fewer === 1 ? '' : 's'} fewer)` : '';
    const target = change.gpusBefore + gpusNeeded;
    return `- Ask for ${target} GPUs (+${gpusNeeded})${sharedCount(review, target)} in ${where(review)} instead of ${change.gpusAfter}${steps}${staggered}.`;
  }
  return null;
}

/** What a reader can do next: apply the lever, fix the evidence, re-run or override. */
export function howToAct(result: ReviewResult): string {
  const lines: string[] = result.reviews
    .map(leverStep)
    .filter((l): l is string => l !== null)
    .slice(0, 10);
  if (result.missingEvidence.length > 0)
    lines.push('- Add the missing evidence in the checklist above; the review runs again on the next push.');
  lines.push(
    `- Correct the evidence: if a workload is missing or its runtime, GPUs or window are wrong, fix ${code(result.context.catalogFile)} in this pull request and the review runs again.`,
  );
  const passes = result.verdict === 'justified' || result.verdict === 'no-gpu-change';
  if (!passes) {
    lines.push(
      '- If the GPUs are needed for a reason the evidence does not show, comment `/gpu-justify override <reason>`. ' +
        'Only people the policy allows (`overrides:` in `.github/gpu-justify.yml`) can; the check then passes and this comment records who and why. ' +
        'The override lapses when new commits change the GPU request.',
    );
  }
  lines.push(
    result.context.mode === 'enforce'
      ? '- The policy is in enforce mode: this check fails while the increase is not justified.'
      : '- The policy is in advise mode: this check is neutral and does not block merging.',
  );
  lines.push('- Comment `/gpu-justify` to re-run the review, `/gpu-justify explain` for the evidence in detail.');
  return lines.join('\n');
}

const SOURCE_NAME: Record<Evidence['source'], string> = {
  catalog: 'catalog',
  policy: 'policy',
  infra: 'infra',
  prometheus: 'Prometheus',
  opencost: 'OpenCost',
  'load-test': 'load test',
  planner: 'stagger planner',
};

/** The files behind a source (refs without their line), a few named and the rest counted. */
function sourceText(source: Evidence['source'], refs: string[]): string {
  if (source === 'planner') return SOURCE_NAME[source];
  const files = [...new Set(refs.map((r) => (source === 'catalog' || source === 'infra' ? r.replace(/:\d+$/, '') : r)))];
  const named = files.slice(0, 2).map((f) => code(f, 60));
  const more = files.length > named.length ? ` +${files.length - named.length}` : '';
  return `${SOURCE_NAME[source]} ${named.join(', ')}${more}`;
}

/** The sources every number came from, the telemetry window when there is one, and the head. */
export function footer(result: ReviewResult): string {
  const evidence = [...result.reviews.flatMap((r) => r.evidence), ...result.findings.flatMap((f) => f.evidence)];
  const bySource = new Map<Evidence['source'], string[]>();
  for (const e of evidence) bySource.set(e.source, [...(bySource.get(e.source) ?? []), e.ref]);
  const windows = [...new Set(evidence.map((e) => e.window).filter((w): w is string => w !== undefined))];
  const { context } = result;
  const parts = [
    'gpu-justify',
    `mode: ${context.mode}`,
    `headroom ${Math.round(context.headroom * 100)}%`,
    ...(bySource.size > 0 ? [`sources: ${[...bySource].map(([s, refs]) => sourceText(s, refs)).join('; ')}`] : []),
    ...(windows.length > 0
      ? [
          `window ${windows
            .slice(0, 2)
            .map((w) => md(w))
            .join(', ')}`,
        ]
      : []),
    `base ${md(context.baseLabel)} → head ${md(context.headLabel)}`,
    ...(context.headSha ? [`head ${code(context.headSha.slice(0, 12))}`] : []),
  ];
  return `<sub>${parts.join(' · ')}</sub>`;
}
