import type { CheckOutput } from './check.js';
import { renderFailedCheck } from './check.js';

/** Why a merge group was reviewed whole rather than given its pull request's verdict. */
export type GroupReviewReason =
  /** The group changes other capacity than the pull request's review saw (more PRs, a moved base). */
  | 'changed'
  /** No verdict of ours on the pull request's head could be read back and verified. */
  | 'no-verdict';

/** The pull request's verdict, given to the merge group that changes the same capacity. Pure. */
export function renderCarriedCheck(
  pr: { conclusion: CheckOutput['conclusion']; title: string; summary: string },
  number: number,
  prHeadSha: string,
): CheckOutput {
  return {
    conclusion: pr.conclusion,
    title: pr.title,
    summary:
      `Merge queue: this group changes the same GPU capacity as pull request #${number} at \`${prHeadSha.slice(0, 7)}\`, ` +
      `so it carries that review's verdict.\n\n${pr.summary}`,
    annotations: [],
  };
}

/** The merge group's own review, saying why it was reviewed whole. Pure. */
export function noteGroupReview(output: CheckOutput, number: number, why: GroupReviewReason): CheckOutput {
  const because =
    why === 'changed'
      ? `the capacity it changes differs from what pull request #${number}'s review saw (other pull requests in the group, or a base branch that moved)`
      : `no verified verdict of this check on pull request #${number}'s head could be read back`;
  return { ...output, summary: `Merge queue: this group was reviewed whole, since ${because}.\n\n${output.summary}` };
}

/** The check of a merge group whose branch names no pull request: fails closed. Pure. */
export function renderUnnamedGroup(headRef: string): CheckOutput {
  return renderFailedCheck(`the merge group's branch ${headRef} names no pull request`, null);
}
