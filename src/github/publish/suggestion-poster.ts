import type { GitHubClient, Logger, PullRequestTarget } from '../api/index.js';
import { isGone } from './comment-duplicates.js';
import { MAX_SUGGESTIONS, SUGGESTION_MARKER } from './suggestions.js';

/** Stale suggestions of ours deleted by one review at most: a replaced set, and copies of it a race left. */
const MAX_SUGGESTION_DELETES = 2 * MAX_SUGGESTIONS;
import type { Suggestion } from './suggestions.js';

export interface SuggestionOutcome {
  kept: number;
  created: number;
  deleted: number;
  /** Write requests made: one per deletion, one per review posted. */
  writes: number;
}

/**
 * Makes our review comments on the pull request exactly `wanted`: one the same as wanted (same
 * path, line and body, and the body names the line's text it was written for) is kept, even
 * from an earlier commit — each write GitHub notifies about is slow and rate-limited; the rest
 * of ours are deleted, a second copy of a kept one too (two replicas reviewing at the same moment
 * can both post it), and the missing ones are posted together as one review on the head commit
 * (no review at all when none is missing). A suggestion GitHub refuses (a line outside the diff)
 * is logged and skipped: it is a convenience, never a reason for the review to fail.
 */
export async function syncSuggestions(
  octokit: GitHubClient,
  log: Logger,
  target: PullRequestTarget,
  wanted: Suggestion[],
  /** False: no review of ours came before, so there is nothing of ours to list. */
  earlier = true,
  /** Marks ours: an instance's own (instance.ts). */
  marker = SUGGESTION_MARKER,
): Promise<SuggestionOutcome> {
  const repo = target.base;
  // Oldest first: when two replicas posted the same suggestion, every re-run keeps the same copy.
  const existing = earlier
    ? (await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...repo, pull_number: target.number, per_page: 100 }))
        .filter((c) => c.user.type === 'Bot' && c.body.includes(marker))
        .sort((a, b) => a.id - b.id)
    : [];

  const outcome: SuggestionOutcome = { kept: 0, created: 0, deleted: 0, writes: 0 };
  const keep = new Set<number>();
  const missing: Suggestion[] = [];
  for (const s of wanted) {
    const same = existing.find((c) => !keep.has(c.id) && c.path === s.path && c.line === s.line && c.body === s.body);
    if (same) keep.add(same.id);
    else missing.push(s);
  }
  const stale = existing.filter((c) => !keep.has(c.id));
  // Bounded like the suggestions themselves: more than this many of ours (left before the cap,
  // or by replicas racing) are removed over the next reviews, never in one burst of deletes.
  if (stale.length > MAX_SUGGESTION_DELETES)
    log.warn({ stale: stale.length, deleted: MAX_SUGGESTION_DELETES }, 'more stale suggestions than one review deletes');
  for (const c of stale.slice(0, MAX_SUGGESTION_DELETES)) {
    outcome.writes += 1;
    try {
      await octokit.rest.pulls.deleteReviewComment({ ...repo, comment_id: c.id });
      outcome.deleted += 1;
    } catch (err) {
      // Another replica re-running at the same moment deleted it first.
      if (!isGone(err)) throw err;
    }
  }
  outcome.kept = keep.size;
  if (missing.length > 0) await postReview(octokit, log, target, missing, outcome);
  return outcome;
}

/**
 * GitHub refuses a review whole when one of its comments is refused: then each suggestion is
 * tried on its own, so one line outside the diff does not cost the others.
 */
async function postReview(
  octokit: GitHubClient,
  log: Logger,
  target: PullRequestTarget,
  batch: Suggestion[],
  outcome: SuggestionOutcome,
): Promise<void> {
  outcome.writes += 1;
  try {
    await octokit.rest.pulls.createReview({
      ...target.base,
      pull_number: target.number,
      commit_id: target.headSha,
      event: 'COMMENT',
      // GitHub documents the body as required for a COMMENT review, comments or not.
      body: `gpu-justify suggests ${batch.length === 1 ? 'a change' : `${batch.length} changes`} to the GPU capacity asked for; the evidence is in the gpu-justify comment.`,
      comments: batch.map((s) => ({ path: s.path, line: s.line, side: 'RIGHT', body: s.body })),
    });
    outcome.created += batch.length;
  } catch (err) {
    if ((err as { status?: unknown }).status !== 422) throw err;
    if (batch.length === 1) {
      log.warn({ path: batch[0]?.path, line: batch[0]?.line }, 'suggested change refused by GitHub');
      return;
    }
    for (const s of batch) await postReview(octokit, log, target, [s], outcome);
  }
}
