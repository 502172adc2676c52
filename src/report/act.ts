import type { Evidence, ReviewResult } from '../domain/index.js';
import { code, md } from './escape.js';
import type { Surface } from './surface.js';

/**
 * What else a reader can do: fix the evidence, re-run, ask for detail. The change to make, the
 * mode and the override are on the first screen (first-screen.ts), not repeated here.
 */
export function howToAct(result: ReviewResult, surface: Surface): string {
  const lines: string[] = [];
  if (result.missingEvidence.length > 0)
    lines.push('- Add the missing evidence in the checklist above; the review runs again on the next push.');
  lines.push(
    `- Correct the evidence: if a workload is missing or its runtime, GPUs or window are wrong, fix ${code(result.context.catalogFile)} in this pull request and the review runs again.`,
  );
  lines.push(
    surface === 'cli'
      ? '- Run `gpu-justify review` again after a fix; `--format json` gives the same numbers as data.'
      : '- Comment `/gpu-justify` to re-run the review, `/gpu-justify explain` for the evidence in detail.',
  );
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
