import type { ReviewResult } from '../domain/index.js';
import { mayGrowCapacity, OVERRIDE_COMMAND } from './fail-closed.js';
import type { Surface } from './surface.js';

/** Whether the check concludes `success`: nothing to judge, or shown justified. */
export function checkPasses(result: ReviewResult): boolean {
  if (result.context.policyErrors?.length && mayGrowCapacity(result)) return false;
  return result.verdict === 'no-gpu-change' || result.verdict === 'justified';
}

/** Who may override, from the base branch's policy (docs/check-run.md, "Who may override"). */
function whoMayOverride(result: ReviewResult): string {
  const o = result.context.overrides;
  if (o === undefined) return 'someone the policy allows (`overrides:` in `.github/gpu-justify.yml`)';
  const teams = o.teams.length > 0 ? `, or a member of ${o.teams.map((t) => `@${t}`).join(', ')},` : '';
  const author = o.allowAuthor ? '' : ' other than the author';
  return `a reviewer with ${o.minPermission} permission or higher${teams}${author}`;
}

/** What the check does with this review: passes, stays neutral, or fails. */
function checkEffect(result: ReviewResult): string {
  if (checkPasses(result)) return 'the check passes';
  const enforced = result.context.mode === 'enforce' || Boolean(result.context.policyErrors?.length);
  return enforced ? 'the check fails and blocks merging where it is required' : 'the check is neutral and does not block merging';
}

/**
 * One line: the mode, whether the check blocks, and how to override and who may. The CLI's
 * markdown names its own flags instead of commands only the App and the Action answer.
 */
export function modeLine(result: ReviewResult, surface: Surface): string {
  const forced = result.context.policyUnread?.length ? 'enforce (the policy could not be read)' : 'enforce (the policy is invalid)';
  const mode = `**Mode: ${result.context.policyErrors?.length ? forced : result.context.mode}**`;
  if (surface === 'cli') {
    const exit = checkPasses(result) ? '`gpu-justify review` exits 0' : '`gpu-justify review` exits 0 unless `--fail-on` is given';
    return `${mode}: on the pull request ${checkEffect(result)}; ${exit}.`;
  }
  if (checkPasses(result) || result.verdict === 'no-gpu-change') return `${mode}: ${checkEffect(result)}.`;
  return `${mode}: ${checkEffect(result)}. To override, ${whoMayOverride(result)} comments \`${OVERRIDE_COMMAND}\`.`;
}
