import type { ReviewResult } from '../domain/review.js';
import { renderCheck, renderFailedCheck } from '../report/check.js';
import { COMMENT_MARKER, renderComment } from '../report/comment.js';
import { runReview } from '../review.js';
import { ApiChangeSet } from './api-change-set.js';
import { CheckRun } from './check-run.js';
import type { GitHubClient, Logger, PullRequestTarget } from './client.js';
import { upsertComment } from './comment-poster.js';
import { describeFailure } from './errors.js';
import { loadPolicy } from './policy-loader.js';

export interface ReviewPullRequestOptions {
  octokit: GitHubClient;
  log: Logger;
  target: PullRequestTarget;
}

/**
 * Reviews one pull request at one head commit: check run in progress, read both sides through
 * the API, judge, post. Whatever fails, the check run is concluded; the failure is logged, not
 * rethrown, once the check says so.
 */
export async function reviewPullRequest({ octokit, log, target }: ReviewPullRequestOptions): Promise<void> {
  const pr = { repo: `${target.base.owner}/${target.base.repo}`, number: target.number, headSha: target.headSha };
  let check: CheckRun;
  try {
    check = await CheckRun.start(octokit, target.base, target.headSha);
  } catch (err) {
    // Nothing to conclude: let Probot record the failed delivery.
    log.error({ err, pr, reason: describeFailure(err) }, 'could not create check run');
    throw err;
  }
  try {
    const changes = new ApiChangeSet(octokit, target);
    const policy = await loadPolicy(octokit, target.base, changes.base);
    const result = await runReview({ changes, policy, headSha: target.headSha });
    const body = renderComment(result, {
      ...(target.headUrl === undefined ? {} : { headUrl: target.headUrl }),
      ...(target.draft ? { draft: true } : {}),
    });

    if (await headIsCurrent(octokit, target)) {
      const outcome = await upsertComment(octokit, {
        repo: target.base,
        issueNumber: target.number,
        marker: COMMENT_MARKER,
        body,
        createIfAbsent: worthNewComment(result),
      });
      log.info({ pr, verdict: result.verdict, comment: outcome }, 'review posted');
    } else {
      // A newer push has its own review coming; this result must not replace it.
      log.info({ pr, verdict: result.verdict }, 'head moved; comment not posted');
    }
    // The check belongs to the reviewed commit, so it concludes with that commit's result.
    await check.complete(renderCheck(result, body));
  } catch (err) {
    const reason = describeFailure(err);
    log.error({ err, pr, reason }, 'review failed');
    try {
      await check.complete(renderFailedCheck(reason));
    } catch (concludeErr) {
      log.error({ err: concludeErr, pr }, 'could not conclude check run');
      throw concludeErr;
    }
  }
}

/**
 * Most pull requests touch no GPUs and deserve no comment; one whose capacity files could not be
 * read does, so the author learns why.
 */
function worthNewComment(result: ReviewResult): boolean {
  return result.verdict !== 'no-gpu-change' || result.diagnostics.some((d) => d.severity !== 'info');
}

async function headIsCurrent(octokit: GitHubClient, target: PullRequestTarget): Promise<boolean> {
  const { data } = await octokit.rest.pulls.get({ ...target.base, pull_number: target.number });
  return data.head.sha === target.headSha;
}
