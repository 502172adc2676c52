import type { ChangeSet } from '../domain/files.js';
import type { ReviewResult } from '../domain/review.js';
import type { LoadedPolicy } from '../review/index.js';
import type { GitHubClient, PullRequestTarget } from './api/index.js';
import type { SelfLogin } from './api/index.js';
import { commandNoLongerStands } from './overrides/index.js';
import type { GrantedCommand } from './overrides/index.js';
import { decideOverride } from './overrides/index.js';
import type { OverrideDecision, OverrideRequest } from './overrides/index.js';

/** What one review judged: the files as read, the base policy, the result. */
export interface Judged {
  changes: ChangeSet;
  policy: LoadedPolicy;
  result: ReviewResult;
}

/** The pull request as GitHub has it now. */
export interface PullNow {
  headSha: string;
  /** Who opened it. */
  author: string;
}

/**
 * What a review reads besides the files it judges: who we are, the pull request now, and whether
 * an override still stands. github-publisher.ts's twin on the reading side; the review's unit
 * tests answer from memory.
 */
export interface ReviewReads {
  /** Our own login: only our comments are read or written as ours. */
  self: SelfLogin;
  /** Reads and judges the pull request, telling `onPolicy` the base policy as soon as it is read. */
  judge(onPolicy: (policy: LoadedPolicy) => void): Promise<Judged>;
  /** Asked afresh on each call. */
  pull(): Promise<PullNow>;
  /** Whether `request.login` may override on this repository now (override-permission.ts). */
  mayOverride(request: Omit<OverrideRequest, 'repo'>): Promise<OverrideDecision>;
  /** Why the command that granted an override no longer stands (deleted, edited), or null. */
  commandNoLongerStands(granted: GrantedCommand): Promise<string | null>;
}

/** The reads of one review through GitHub's API; `judge` is the analysis the caller runs. */
export function githubReads(octokit: GitHubClient, target: PullRequestTarget, self: SelfLogin, judge: ReviewReads['judge']): ReviewReads {
  return {
    self,
    judge,
    pull: async () => {
      const { data } = await octokit.rest.pulls.get({ ...target.base, pull_number: target.number });
      return { headSha: data.head.sha, author: data.user.login };
    },
    mayOverride: (request) => decideOverride(octokit, { repo: target.base, ...request }),
    commandNoLongerStands: (granted) => commandNoLongerStands(octokit, target.base, granted),
  };
}
