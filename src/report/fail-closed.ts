import type { Diagnostic, ReviewResult } from '../domain/index.js';
import { code, md, prose } from './escape.js';
import { fixFirst, missingWords } from './missing-words.js';

/** Items of a list in a check summary before the rest is counted, not shown. */
const MAX_ITEMS = 10;

/** The command that overrides a failing check, as the comment and the check say it. */
export const OVERRIDE_COMMAND = '/gpu-justify override <reason>';

/** Whether the PR may add GPUs: anything but "no change" or a change that only shrinks or shares. */
export function mayGrowCapacity(result: ReviewResult): boolean {
  if (result.verdict === 'no-gpu-change') return false;
  return !(result.verdict === 'justified' && result.gpusRequested === 0);
}

/**
 * The policy's errors, listed first, with where the fix lands: the policy is read from the base
 * branch, so a fix in the pull request itself changes nothing until it is merged. Until then the
 * review runs in enforce mode. A policy some of whose files could not be read (`policyUnread`) says
 * so first: it is not known, not just wrong.
 */
export function policyErrorsBlock(errors: readonly Diagnostic[], context: ReviewResult['context']): string {
  const items = errors.slice(0, MAX_ITEMS).map((d) => `- ${where(d)} ${md(d.message, 600)}`);
  const more = errors.length > MAX_ITEMS ? `\n- …and ${errors.length - MAX_ITEMS} more.` : '';
  const unread = context.policyUnread ?? [];
  const branch = context.baseBranch === undefined ? 'the base branch' : code(context.baseBranch, 120);
  if (unread.length > 0) {
    // The repository's own file (no `repo:` prefix) is fixed on the base branch, like any policy error.
    const own = unread.filter((f) => !f.includes(':'));
    const fixHere =
      own.length > 0 ? ` Fix ${own.map((f) => code(f, 120)).join(' and ')} on ${branch}; this pull request's copy is not read.` : '';
    const files = unread
      .slice(0, MAX_ITEMS)
      .map((f) => code(f))
      .join(', ');
    return (
      `**The gpu-justify policy is invalid**: ${files} could not be read whole, so the policy is not known; this review ` +
      `runs in enforce mode, fails any change that may add GPUs and accepts no override until it can be read.${fixHere}\n${items.join('\n')}${more}`
    );
  }
  // The repository's own file is read at the base branch; one it `_extends` (`org/.github:file`) at that repository's default branch.
  const files = [...new Set(errors.map((d) => d.file))].map((f) => `${code(f, 120)} on ${f.includes(':') ? 'its default branch' : branch}`);
  return (
    `**The gpu-justify policy is invalid: fix ${files.join(' and ')}**; this pull request's copy is not read ` +
    `(a fix made here counts once it is merged). Until then this review runs in ` +
    `enforce mode and fails any change that may add GPUs:\n${items.join('\n')}${more}`
  );
}

/**
 * What a failing enforce-mode check asks for: what is missing, how to supply it, and how an
 * authorised reviewer overrides, so a blocked author is never left guessing.
 */
export function toPassBlock(result: ReviewResult): string {
  const lines: string[] = [];
  const missing = result.missingEvidence.slice(0, MAX_ITEMS).map((e) => {
    const fix = fixFirst(e);
    if (fix !== null) return `- ${prose(fix)}.`;
    const m = missingWords(e);
    return `- Missing ${md(m.what, 200)}: ${prose(m.how)}`;
  });
  if (missing.length > 0) lines.push(...missing);
  if (result.missingEvidence.length > MAX_ITEMS) lines.push(`- …and ${result.missingEvidence.length - MAX_ITEMS} more.`);
  // An error a missing item already says to fix at its line is not listed twice.
  const fixedAt = new Set(result.missingEvidence.flatMap((e) => ('at' in e && fixFirst(e) !== null ? [e.at] : [])));
  const errors = result.diagnostics.filter(
    (d) =>
      d.severity === 'error' && !result.context.policyErrors?.includes(d) && !fixedAt.has(d.line === null ? d.file : `${d.file}:${d.line}`),
  );
  for (const d of errors.slice(0, MAX_ITEMS)) lines.push(`- Fix ${where(d)} ${md(d.message, 400)}`);
  const fix = lines.length > 0 ? `${lines.join('\n')}\n\n` : '';
  return (
    `**To pass this check:** ${result.verdict === 'insufficient-evidence' ? 'supply what is missing' : 'ask for what is needed'}, ` +
    `then push; the check runs again.\n\n${fix}` +
    `Or an authorised reviewer comments ${code(OVERRIDE_COMMAND)} to let it through for this GPU request.`
  );
}

function where(d: Diagnostic): string {
  return code(d.line === null ? d.file : `${d.file}:${d.line}`);
}
