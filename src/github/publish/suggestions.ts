import { createHash } from 'node:crypto';
import type { TreeReader } from '../../domain/files.js';
import type { ChangeReview, ReviewResult } from '../../domain/review.js';
import { hasInvisible } from '../../domain/visible.js';
import { md } from '../../report/index.js';
import { reviewReason } from '../../report/index.js';

/** Marks our review comments so a re-run replaces them instead of adding more. */
export const SUGGESTION_MARKER = '<!-- gpu-justify:suggestion -->';

/** A one-line GitHub suggested change on the head commit. */
export interface Suggestion {
  path: string;
  line: number;
  body: string;
}

/**
 * `key: 12`, `key: "12"`, `key = 12`, `"key": 12,` with an optional trailing comment: the value
 * is the last number after the last `:` or `=`, kept with its quoting and indentation.
 */
const VALUE_LINE = /^(.*[:=][ \t]*)(["']?)(\d+)\2([ \t]*,?[ \t]*(?:#.*)?)$/;

/**
 * At most this many suggested changes per review, the largest cuts first. Each is a line comment
 * GitHub notifies about, and each one a later push makes stale is a delete: a pull request of
 * 5,000 changes would otherwise post 5,000 and delete as many on its next push. The comment and
 * the check name every change and what it needs.
 */
export const MAX_SUGGESTIONS = 10;

/**
 * The suggested changes for a review: for each change that asks for more GPUs than it needs,
 * its line with the number that meets the need, when that line holds exactly the declared value
 * (a quota, or a node count of one GPU per node). Anything less certain gets no suggestion. Past
 * `MAX_SUGGESTIONS`, those cutting the most GPUs are kept, in the order of the review.
 */
export async function planSuggestions(result: ReviewResult, head: TreeReader): Promise<Suggestion[]> {
  const out: { suggestion: Suggestion; cut: number; at: number }[] = [];
  for (const review of result.reviews) {
    const target = neededValue(review);
    if (target === null) continue;
    const text = await head.read(review.change.file);
    const line = text?.split('\n')[review.change.line - 1]?.replace(/\r$/, '');
    if (line === undefined) continue;
    // A suggestion applies its line as written: one holding a character the reader cannot see
    // (a bidi control, a zero-width space) would apply what nobody saw. The check and the
    // comment still name the change, with those characters shown.
    if (hasInvisible(line) || hasInvisible(review.change.file)) continue;
    const rewritten = rewriteValue(line, review.change.gpusAfter, target);
    if (rewritten === null) continue;
    const suggestion = { path: review.change.file, line: review.change.line, body: suggestionBody(review, target, line, rewritten) };
    out.push({ suggestion, cut: review.change.gpusAfter - target, at: out.length });
  }
  const kept = [...out].sort((a, b) => b.cut - a.cut || a.at - b.at).slice(0, MAX_SUGGESTIONS);
  return kept.sort((a, b) => a.at - b.at).map((k) => k.suggestion);
}

/** The declared value that meets the need, when it is below what the PR asks for. */
function neededValue(review: ChangeReview): number | null {
  const { verdict, gpusNeeded, change } = review;
  if (verdict !== 'not-justified' && verdict !== 'partially-justified') return null;
  if (gpusNeeded === null || change.delta <= 0) return null;
  const value = change.gpusBefore + gpusNeeded;
  return value < change.gpusAfter ? value : null;
}

/** The line with `from` replaced by `to`; null unless the line's value is exactly `from`. */
export function rewriteValue(line: string, from: number, to: number): string | null {
  const match = VALUE_LINE.exec(line);
  if (!match || line.includes('`')) return null;
  const [, prefix = '', quote = '', value = '', suffix = ''] = match;
  if (Number(value) !== from) return null;
  return `${prefix}${quote}${to}${quote}${suffix}`;
}

/**
 * The body names the line it was written for (by hash, as the line may hold `-->`): a later push
 * that leaves the line as it was keeps the comment, one that edits it gets a fresh one.
 */
function suggestionBody(review: ChangeReview, target: number, original: string, line: string): string {
  const { change } = review;
  const added = review.gpusNeeded ?? 0;
  const how = added > 0 ? `${change.gpusBefore} today + ${added} to add` : 'what it has today, 0 to add';
  const written = createHash('sha256').update(original).digest('hex').slice(0, 16);
  return [
    `${SUGGESTION_MARKER}<!-- for line ${written} -->`,
    `**gpu-justify:** ${md(change.name)} meets its need with headroom at ${target} GPUs (${how}), not ${change.gpusAfter}. ` +
      `Why: ${md(reviewReason(review), 400)}`,
    '',
    '```suggestion',
    line,
    '```',
  ].join('\n');
}
