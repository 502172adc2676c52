import type { FakeSpecial } from './fake-repo-trees.js';

/** The state a FakeRepo keeps, shaped the way the REST API returns it. */

export interface RepoId {
  owner: string;
  repo: string;
}

export interface PullRequestState {
  base: RepoId;
  /** The repository of the head branch; the base repository unless a fork. */
  head?: RepoId;
  number: number;
  baseSha: string;
  headSha: string;
  baseFiles: Record<string, string>;
  headFiles: Record<string, string>;
  /** Symbolic links and submodules at the base commit, beside `baseFiles`. */
  baseSpecial?: Record<string, FakeSpecial>;
  /** Symbolic links and submodules at the head commit, beside `headFiles`. */
  headSpecial?: Record<string, FakeSpecial>;
  /** head path → base path, for files the PR renamed. */
  renames?: Record<string, string>;
  /** Who opened the pull request. */
  author?: string;
  draft?: boolean;
  state?: 'open' | 'closed';
}

/** A review comment (a line comment on the diff), as the REST API keeps it. */
export interface StoredReviewComment {
  id: number;
  body: string;
  path: string;
  line: number;
  side: string;
  commit_id: string;
  user: { login: string; type: 'Bot' | 'User' };
  /** The review it belongs to, when posted as part of one. */
  pull_request_review_id?: number;
}

/** A pull request review: its comments are listed with the review comments once submitted. */
export interface StoredReview {
  id: number;
  body: string;
  state: 'PENDING' | 'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED';
  commit_id: string;
  user: { login: string; type: 'Bot' | 'User' };
  comments: StoredReviewComment[];
}

export interface StoredReaction {
  commentId: number;
  content: string;
}

export interface StoredComment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  created_at?: string;
  updated_at?: string;
}

export interface CheckRunState {
  id: number;
  head_sha: string;
  name: string;
  /** Every request body, creation first: what the check looked like over time. */
  history: Record<string, unknown>[];
  status: string;
  conclusion: string | null;
  /** What the App set to find the run again ('' when none). */
  external_id: string;
  output: { title?: string; summary?: string; text?: string; annotations: unknown[] };
  /** The slug of the App that wrote it: the App under test (`gpu-justify`) unless a test says another. */
  app?: string;
}
