import type { GitHubClient, Logger, PullRequestTarget } from './client.js';
import { SUGGESTION_MARKER } from './suggestions.js';
import type { Suggestion } from './suggestions.js';

export interface SuggestionOutcome {
  kept: number;
  created: number;
  deleted: number;
}

/**
 * Makes our review comments on the pull request exactly `wanted`: one the same as wanted (same
 * path, line and body, and the body names the line's text it was written for) is kept, even
 * from an earlier commit — each review comment GitHub notifies about is a slow, rate-limited
 * write; the rest of ours are deleted, the missing ones created on the head commit. A suggestion
 * GitHub refuses (a line outside the diff) is logged and skipped: it is a convenience, never
 * a reason for the review to fail.
 */
export async function syncSuggestions(
  octokit: GitHubClient,
  log: Logger,
  target: PullRequestTarget,
  wanted: Suggestion[],
): Promise<SuggestionOutcome> {
  const repo = target.base;
  const existing = (
    await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...repo, pull_number: target.number, per_page: 100 })
  ).filter((c) => c.user?.type === 'Bot' && c.body.includes(SUGGESTION_MARKER));

  const outcome: SuggestionOutcome = { kept: 0, created: 0, deleted: 0 };
  const keep = new Set<number>();
  const missing: Suggestion[] = [];
  for (const s of wanted) {
    const same = existing.find(
      (c) => !keep.has(c.id) && c.path === s.path && c.line === s.line && c.body === s.body,
    );
    if (same) keep.add(same.id);
    else missing.push(s);
  }
  for (const c of existing) {
    if (keep.has(c.id)) continue;
    await octokit.rest.pulls.deleteReviewComment({ ...repo, comment_id: c.id });
    outcome.deleted += 1;
  }
  outcome.kept = keep.size;
  for (const s of missing) {
    try {
      await octokit.rest.pulls.createReviewComment({
        ...repo,
        pull_number: target.number,
        commit_id: target.headSha,
        path: s.path,
        line: s.line,
        side: 'RIGHT',
        body: s.body,
      });
      outcome.created += 1;
    } catch (err) {
      if ((err as { status?: unknown }).status !== 422) throw err;
      log.warn({ path: s.path, line: s.line }, 'suggested change refused by GitHub');
    }
  }
  return outcome;
}
