import type { Context } from 'probot';
import type { PullRequestTarget } from '../client.js';
import { targetFromPull } from '../pull-target.js';
import { queuedReview } from './queued-review.js';
import type { HandlerDeps } from './queued-review.js';

/** The pull request actions that can change what the review sees. */
export const PULL_REQUEST_EVENTS = [
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.reopened',
  'pull_request.ready_for_review',
  'pull_request.edited',
] as const;

type PullRequestContext = Context<(typeof PULL_REQUEST_EVENTS)[number]>;

export function pullRequestHandler(deps: HandlerDeps): (context: PullRequestContext) => Promise<void> {
  return async (context) => {
    const { payload } = context;
    // A title or body edit changes nothing the review reads; a new base branch changes everything.
    if (payload.action === 'edited' && !payload.changes.base) return;
    await queuedReview(deps, deps.metrics.instrument(context.octokit), context.log, targetFromPayload(payload));
  };
}

function targetFromPayload(payload: PullRequestContext['payload']): PullRequestTarget {
  const { repository } = payload;
  return targetFromPull(payload.pull_request, {
    owner: repository.owner.login,
    repo: repository.name,
    htmlUrl: repository.html_url,
  });
}
