import type { Context } from 'probot';
import type { IntakeDeps } from './deps.js';
import { submit } from './submit.js';

/** The pull request actions that can change what the review sees. */
export const PULL_REQUEST_EVENTS = [
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.reopened',
  'pull_request.ready_for_review',
  'pull_request.edited',
] as const;

type PullRequestContext = Context<(typeof PULL_REQUEST_EVENTS)[number]>;

/** A push, an opening or a new base: the pull request's job reviews its head as it is when the job runs. */
export function pullRequestIntake(deps: IntakeDeps): (context: PullRequestContext) => Promise<void> {
  return async (context) => {
    const { payload } = context;
    // A title or body edit changes nothing the review reads; a new base branch changes everything.
    if (payload.action === 'edited' && !payload.changes.base) return;
    const installationId = payload.installation?.id;
    if (installationId === undefined) return;
    const { repository, pull_request: pr } = payload;
    const data = {
      kind: 'pr' as const,
      installationId,
      owner: repository.owner.login,
      repo: repository.name,
      number: pr.number,
      headSha: pr.head.sha,
      delivery: context.id,
    };
    const request = {
      kind: 'review' as const,
      delivery: context.id,
      event: 'pull_request' as const,
      at: Date.now(),
      headSha: pr.head.sha,
      ...(payload.action === 'synchronize' ? { push: true, ...movedFrom(payload.before) } : {}),
      // A new base names the head and base a review reads as a push does: a burst of them (or a
      // redelivery) for a head and base already reviewed and checked is answered by that review.
      ...(payload.action === 'edited' ? { push: true } : {}),
    };
    await submit(deps.work, deps.metrics, context.id, [{ data, requests: [request] }], context.log);
  };
}

/** The head a push moved from, when GitHub names one as a commit id (a request holding another would be dropped whole). */
function movedFrom(before: unknown): { before?: string } {
  return typeof before === 'string' && /^[0-9a-f]{40}$/.test(before) ? { before } : {};
}
