import type { Logger, ProbotOctokit } from 'probot';

/** The installation-authenticated client Probot hands each handler. */
export type GitHubClient = InstanceType<typeof ProbotOctokit>;

export type { Logger };

/** A repository as the REST API addresses it. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** Everything needed to review one pull request at one head commit. */
export interface PullRequestTarget {
  /** The repository the pull request lives in (and its base branch). */
  base: RepoRef;
  /** The repository holding the head branch: the fork for a fork PR. */
  head: RepoRef;
  number: number;
  baseSha: string;
  headSha: string;
  /** The branch it merges into (`main`), where the policy is read: the comment says where to fix it. */
  baseRef?: string;
  /** Blob URL of the head commit (`https://github.com/o/r/blob/<sha>`), for links in the comment. */
  headUrl?: string;
  draft?: boolean;
  /** How many files GitHub counts as changed (`changed_files`); its file list stops at 3,000. */
  changedFiles?: number;
  /**
   * A merge queue's group rather than a pull request: its changed files are GitHub's comparison
   * of the two commits (`number` then names the group's last pull request, for messages only).
   */
  compared?: true;
}
