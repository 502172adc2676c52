import type { Context } from 'probot';
import type { PullRequestTarget } from '../client.js';
import { reviewPullRequest } from '../review-pull-request.js';

/** The pull request actions that can change what the review sees. */
export const PULL_REQUEST_EVENTS = [
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.reopened',
  'pull_request.ready_for_review',
] as const;

type PullRequestContext = Context<(typeof PULL_REQUEST_EVENTS)[number]>;

export async function handlePullRequest(context: PullRequestContext): Promise<void> {
  await reviewPullRequest({
    octokit: context.octokit,
    log: context.log,
    target: targetFromPayload(context.payload),
  });
}

export function targetFromPayload(payload: PullRequestContext['payload']): PullRequestTarget {
  const pr = payload.pull_request;
  const base = { owner: payload.repository.owner.login, repo: payload.repository.name };
  // A fork whose repository was deleted has no head repo; the base repo still holds its commits.
  const headRepo = pr.head.repo;
  const head = headRepo?.owner ? { owner: headRepo.owner.login, repo: headRepo.name } : base;
  const htmlUrl = headRepo?.html_url ?? payload.repository.html_url;
  return {
    base,
    head,
    number: pr.number,
    baseSha: pr.base.sha,
    headSha: pr.head.sha,
    headUrl: `${htmlUrl}/blob/${pr.head.sha}`,
    draft: pr.draft === true,
  };
}
