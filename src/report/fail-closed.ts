import type { Diagnostic, ReviewResult } from '../domain/index.js';
import { code, md, prose } from './escape.js';
import { missingWords } from './missing-words.js';

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
 * The policy's errors, listed first: until they are fixed the review runs in enforce mode. A policy
 * some of whose files could not be read (`unread`) says so first: it is not known, not just wrong.
 */
export function policyErrorsBlock(errors: readonly Diagnostic[], unread: readonly string[] = []): string {
  const items = errors.slice(0, MAX_ITEMS).map((d) => `- ${where(d)} ${md(d.message, 600)}`);
  const more = errors.length > MAX_ITEMS ? `\n- …and ${errors.length - MAX_ITEMS} more.` : '';
  const what =
    unread.length > 0
      ? `**The gpu-justify policy is invalid**: ${unread
          .slice(0, MAX_ITEMS)
          .map((f) => code(f))
          .join(', ')} could not be read whole, ` +
        `so the policy is not known; this review runs in enforce mode, fails any change that may add GPUs and accepts no ` +
        `override until it can be read`
      : `**The gpu-justify policy is invalid**, so this review runs in enforce mode and fails any change that may add GPUs until it is fixed`;
  return `${what}:\n${items.join('\n')}${more}`;
}

/**
 * What a failing enforce-mode check asks for: what is missing, how to supply it, and how an
 * authorised reviewer overrides, so a blocked author is never left guessing.
 */
export function toPassBlock(result: ReviewResult): string {
  const lines: string[] = [];
  const missing = result.missingEvidence
    .slice(0, MAX_ITEMS)
    .map((e) => missingWords(e))
    .map((m) => `- Missing ${md(m.what, 200)}: ${prose(m.how)}`);
  if (missing.length > 0) lines.push(...missing);
  if (result.missingEvidence.length > MAX_ITEMS) lines.push(`- …and ${result.missingEvidence.length - MAX_ITEMS} more.`);
  const errors = result.diagnostics.filter((d) => d.severity === 'error' && !result.context.policyErrors?.includes(d));
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
