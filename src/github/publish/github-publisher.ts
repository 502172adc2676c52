import type { GitHubClient, Logger, PullRequestTarget } from '../api/index.js';
import type { Instance } from './instance.js';
import { CheckRun, inProgressAfterSeconds } from './check-run.js';
import type { RunIdentity } from './check-run.js';
import { findMarkedComment, upsertComment } from './comment-poster.js';
import { syncSuggestions } from './suggestion-poster.js';
import type { ReviewPublisher } from './publisher.js';
import type { CreationClaim } from './comment-creation.js';

export interface GitHubPublisherOptions {
  octokit: GitHubClient;
  log: Logger;
  target: PullRequestTarget;
  /** Whose comment, suggestions and check run these are: their markers and the check's name. */
  instance: Instance;
  /** How a later attempt of the same queued job finds this review's check run (work/queue.ts). */
  checkRun: RunIdentity | null;
  /** Shared by every review of the pull request (the App's work store): one of them creates our comment. */
  claimComment?: CreationClaim;
}

/**
 * A review's writes to GitHub. The check run is set up at once (CheckRun.deferred): created
 * concluded when the verdict comes first, in progress when the review runs long.
 */
export function githubPublisher({ octokit, log, target, instance, checkRun, claimComment }: GitHubPublisherOptions): ReviewPublisher {
  const check = CheckRun.deferred(octokit, target.base, target.headSha, inProgressAfterSeconds() * 1000, checkRun, instance.checkName);
  const where = { repo: target.base, issueNumber: target.number, marker: instance.commentMarker };
  return {
    check,
    findComment: (author) => findMarkedComment(octokit, { ...where, author }),
    writeComment: (write) => upsertComment(octokit, { ...where, ...write, log, ...(claimComment ? { claimCreation: claimComment } : {}) }),
    syncSuggestions: (wanted, earlier) => syncSuggestions(octokit, log, target, wanted, earlier, instance.suggestionMarker),
  };
}
