import type { CheckAnnotation, CheckOutput } from './check.js';

/** GitHub's limit on a check run's summary. */
const MAX_SUMMARY = 65_535;

/** What fails the check first, then what the author must look at, then what is for information. */
const RANK: Record<CheckAnnotation['annotation_level'], number> = { failure: 0, warning: 1, notice: 2 };

/**
 * The check output with at most `max` annotations, the most important kept: failures (errors,
 * changes that fail the check) before warnings (files not followed, changes not justified in
 * advise mode) before notices, each level in the report's order. The summary then says how many
 * more there are and of which kind, and where all of them are. Pure.
 */
export function capAnnotations(output: CheckOutput, max: number): CheckOutput {
  if (output.annotations.length <= max) return output;
  const ranked = output.annotations
    .map((a, i) => ({ a, i }))
    .sort((x, y) => RANK[x.a.annotation_level] - RANK[y.a.annotation_level] || x.i - y.i);
  const kept = new Set(ranked.slice(0, max).map((r) => r.i));
  const dropped = ranked.slice(max).map((r) => r.a);
  const count = (level: CheckAnnotation['annotation_level']) => dropped.filter((a) => a.annotation_level === level).length;
  const kinds = [
    [count('failure'), 'failing'],
    [count('warning'), 'warning'],
    [count('notice'), 'notice'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, word]) => `${String(n)} ${String(word)}`);
  const note =
    `_${dropped.length} more annotation${dropped.length === 1 ? '' : 's'} (${kinds.join(', ')}) not shown on the files: ` +
    `the ${max} shown are the most important. The pull request's comment and \`gpu-justify review --format json\` list every change and every file not followed._`;
  // The note must survive GitHub's cap on the summary: the summary gives way, not the note.
  const room = MAX_SUMMARY - note.length - 2;
  const summary = output.summary.length > room ? `${output.summary.slice(0, room - 2)} …` : output.summary;
  return {
    ...output,
    summary: `${summary}\n\n${note}`,
    annotations: output.annotations.filter((_, i) => kept.has(i)),
  };
}
