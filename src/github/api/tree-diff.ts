import type { GitHubClient, PullRequestTarget, RepoRef } from './client.js';
import { describeFailure } from './errors.js';

/** GitHub's list of a pull request's files stops here, whatever the PR changes. */
export const MAX_LISTED_FILES = 3000;

/** A pull request whose changed files cannot all be known. */
export interface UnlistedFiles {
  /** Files GitHub's list gave. */
  listed: number;
  /** Files GitHub counts as changed; null when it did not say. */
  total: number | null;
  /** Why the rest could not be found another way. */
  reason: string;
}

interface Entry {
  path: string;
  mode: string;
  sha: string;
}

/**
 * The paths the pull request changes, from the trees of its merge base and its head: every path
 * whose blob (or mode: a file turned into a link) differs, or that one side lacks. The merge base,
 * not the base branch's tip, so changes made on the base branch since are not taken for the PR's.
 * A tree GitHub cuts short (over 100,000 entries or 7 MB) cannot be compared: the reason is given.
 */
export async function changedByTrees(octokit: GitHubClient, target: PullRequestTarget): Promise<{ paths: string[] } | { reason: string }> {
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...target.base,
      // PR heads, forks' too, are reachable from the base repository by SHA.
      basehead: `${target.baseSha}...${target.headSha}`,
      per_page: 1,
    });
    // Read defensively: an answer not as documented must not pass for one with a merge base.
    const sha = (data as { merge_base_commit?: { sha?: unknown } | null }).merge_base_commit?.sha;
    const mergeBase = typeof sha === 'string' ? sha : null;
    if (mergeBase === null) return { reason: 'GitHub gave no merge base to compare the trees from' };
    const [before, after] = await Promise.all([tree(octokit, target.base, mergeBase), tree(octokit, target.head, target.headSha)]);
    if (before === null || after === null) return { reason: 'a tree of the merge base or the head is too large for GitHub to list whole' };
    const paths = new Set<string>();
    for (const [path, entry] of after) {
      const old = before.get(path);
      if (!old || old.sha !== entry.sha || old.mode !== entry.mode) paths.add(path);
    }
    for (const path of before.keys()) if (!after.has(path)) paths.add(path);
    return { paths: [...paths].sort() };
  } catch (err) {
    return { reason: `the trees could not be compared: ${describeFailure(err)}` };
  }
}

/** The blobs of a commit's tree by path; null when GitHub's answer is truncated. */
async function tree(octokit: GitHubClient, repo: RepoRef, sha: string): Promise<Map<string, Entry> | null> {
  const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: sha, recursive: '1' });
  if (data.truncated) return null;
  const out = new Map<string, Entry>();
  for (const e of data.tree) {
    // Blobs only: a directory's entry changes whenever a file in it does, and is no file itself.
    if (e.type !== 'blob' || typeof e.path !== 'string' || typeof e.sha !== 'string' || typeof e.mode !== 'string') continue;
    out.set(e.path, { path: e.path, mode: e.mode, sha: e.sha });
  }
  return out;
}
