import type { Context } from 'probot';
import { parseCommand } from '../../overrides/index.js';
import type { Request } from '../work/requests.js';
import type { IntakeDeps } from './deps.js';
import { submit } from './submit.js';

/** Only new comments: editing an old comment into a command must not run it. */
export const COMMENT_EVENTS = ['issue_comment.created'] as const;

type CommentContext = Context<'issue_comment.created'>;

/**
 * A command comment becomes a request in its pull request's mailbox and a job for the pull
 * request. The job reacts, replies and reviews (work/pull-request-job.ts); nothing here asks
 * GitHub anything.
 */
export function issueCommentIntake(deps: IntakeDeps): (context: CommentContext) => Promise<void> {
  return async (context) => {
    const { comment, issue, repository } = context.payload;
    if (!issue.pull_request || issue.state !== 'open') return;
    // Bots never command us, we least of all: a reply of ours echoing a command must not loop.
    const user = comment.user;
    if (!user || user.type === 'Bot' || user.login.endsWith('[bot]') || comment.performed_via_github_app) return;
    const command = parseCommand(comment.body);
    if (!command) return;
    // Addressed to another instance (`/gpu-justify@staging …`): that one answers, not we.
    if (command.to !== undefined && command.to !== deps.instance.name) return;
    const installationId = context.payload.installation?.id;
    if (installationId === undefined) return;
    const common = { delivery: context.id, commentId: comment.id, by: user.login };
    const request: Request =
      command.kind === 'invalid'
        ? { kind: 'invalid', ...common, given: command.given, problem: command.problem }
        : command.kind === 'override'
          ? { kind: 'override', ...common, reason: command.reason, createdAt: comment.created_at }
          : { kind: command.kind, ...common };
    const data = {
      kind: 'pr' as const,
      installationId,
      owner: repository.owner.login,
      repo: repository.name,
      number: issue.number,
      delivery: context.id,
    };
    await submit(deps.work, deps.metrics, context.id, [{ data, requests: [request] }], context.log);
  };
}
