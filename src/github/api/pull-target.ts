import type { GitHubClient, PullRequestTarget, RepoRef } from './client.js';

/** The fields of a pull request (webhook or REST) a review needs. */
export interface PullRequestLike {
  number: number;
  draft?: boolean | undefined;
  state?: string;
  user?: { login: string } | null;
  base: { sha: string; ref?: string };
  changed_files?: number | undefined;
  head: { sha: string; repo?: { name: string; html_url?: string; owner?: { login: string } | null } | null };
}

export function targetFromPull(pr: PullRequestLike, repository: RepoRef & { htmlUrl?: string }): PullRequestTarget {
  const base = { owner: repository.owner, repo: repository.repo };
  // A fork whose repository was deleted has no head repo; the base repo still holds its commits.
  const headRepo = pr.head.repo;
  const head = headRepo?.owner ? { owner: headRepo.owner.login, repo: headRepo.name } : base;
  const htmlUrl = headRepo?.owner
    ? (headRepo.html_url ?? `https://github.com/${head.owner}/${head.repo}`)
    : (repository.htmlUrl ?? `https://github.com/${base.owner}/${base.repo}`);
  return {
    base,
    head,
    number: pr.number,
    baseSha: pr.base.sha,
    ...(pr.base.ref === undefined ? {} : { baseRef: pr.base.ref }),
    headSha: pr.head.sha,
    headUrl: `${htmlUrl}/blob/${pr.head.sha}`,
    draft: pr.draft === true,
    ...(typeof pr.changed_files === 'number' ? { changedFiles: pr.changed_files } : {}),
  };
}

export interface LoadedPull {
  target: PullRequestTarget;
  author: string;
  open: boolean;
}

/** The pull request as it is now: for commands and re-runs, whose payloads do not carry it. */
export async function loadPull(octokit: GitHubClient, repo: RepoRef, number: number): Promise<LoadedPull> {
  const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
  return { target: targetFromPull(data, repo), author: data.user.login, open: data.state === 'open' };
}
