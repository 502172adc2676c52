import type { GitHubClient, Logger, PullRequestTarget } from '../api/index.js';
import type { Instance } from './instance.js';
import { CheckRun, inProgressAfterSeconds } from './check-run.js';
import type { RunIdentity } from './check-run.js';
import { findMarkedComment, upsertComment } from './comment-poster.js';
import { syncSuggestions } from './suggestion-poster.js';
import type { CommentWrite, ReviewPublisher } from './publisher.js';
import type { CreationClaim } from './comment-creation.js';
import { retryCommentWrite } from './comment-retry.js';
import { WriteBudget, writeBudgetOf, writeBudgetSeconds } from './write-budget.js';

/** The first wait before a comment is written again, unless the caller says otherwise. */
const DEFAULT_COMMENT_RETRY_BASE_MS = 1000;

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
  /** The first wait before our comment, failed after the check concluded, is written again (comment-retry.ts). */
  commentRetryBaseMs?: number;
}

/**
 * A review's writes to GitHub. The check run is set up at once (CheckRun.deferred): created
 * concluded when the verdict comes first, in progress when the review runs long.
 */
export function githubPublisher(options: GitHubPublisherOptions): ReviewPublisher {
  const { octokit, log, target, instance, checkRun } = options;
  const check = CheckRun.deferred(octokit, target.base, target.headSha, inProgressAfterSeconds() * 1000, checkRun, instance.checkName);
  const where = { repo: target.base, issueNumber: target.number, marker: instance.commentMarker };
  const claim = options.claimComment ? keptOnceTaken(options.claimComment) : null;
  const upsert = (write: CommentWrite, attempt: number) => {
    // A later try reads our comment again: the write that failed may have landed.
    const { existing, ...rest } = write;
    return upsertComment(octokit, {
      ...where,
      ...rest,
      ...(attempt === 0 ? { existing } : {}),
      log,
      ...(claim ? { claimCreation: claim } : {}),
    });
  };
  return {
    check,
    findComment: (author) => findMarkedComment(octokit, { ...where, author }),
    // Before the check concluded, a failure fails the review (the queue runs it again); after, only
    // the comment is tried again, within the write budget.
    writeComment: (write) =>
      check.concluded === null
        ? upsert(write, 0)
        : retryCommentWrite((attempt) => upsert(write, attempt), {
            budget: writeBudgetOf(octokit) ?? new WriteBudget(writeBudgetSeconds()),
            baseMs: options.commentRetryBaseMs ?? DEFAULT_COMMENT_RETRY_BASE_MS,
            log,
            stillCurrent: write.stillCurrent,
          }),
    syncSuggestions: (wanted, earlier) => syncSuggestions(octokit, log, target, wanted, earlier, instance.suggestionMarker),
  };
}

/** A creation claim that stays taken for the review that took it: its own later tries need not wait for themselves. */
function keptOnceTaken(claim: CreationClaim): CreationClaim {
  let taken = false;
  return async () => (taken ||= await claim());
}
