import type { Context } from 'probot';
import { ApiTreeReader } from '../api-change-set.js';
import type { GitHubClient, RepoRef } from '../client.js';
import { parseCommand } from '../command-parser.js';
import type { Command } from '../command-parser.js';
import { describeFailure } from '../errors.js';
import { renderExplain, renderHelp, REPLY_MARKER } from '../explain.js';
import { commandNoLongerStands } from '../command-comment.js';
import { decideOverride } from '../override-permission.js';
import { readCodeOwners } from '../code-owners.js';
import { loadPolicy } from '../policy-loader.js';
import { loadPull } from '../pull-target.js';
import type { LoadedPull } from '../pull-target.js';
import { analysePullRequest } from '../review-pull-request.js';
import { keyOf, queuedReview } from './queued-review.js';
import type { HandlerDeps } from './queued-review.js';

/** Only new comments: editing an old comment into a command must not run it. */
export const COMMENT_EVENTS = ['issue_comment.created'] as const;

type CommentContext = Context<'issue_comment.created'>;

export function issueCommentHandler(deps: HandlerDeps): (context: CommentContext) => Promise<void> {
  return async (context) => {
    const { comment, issue, repository } = context.payload;
    if (!issue.pull_request || issue.state !== 'open') return;
    // Bots never command us, we least of all: a reply of ours echoing a command must not loop.
    const user = comment.user;
    if (!user || user.type === 'Bot' || user.login.endsWith('[bot]') || comment.performed_via_github_app) return;
    const command = parseCommand(comment.body);
    if (!command) return;

    const repo = { owner: repository.owner.login, repo: repository.name };
    const reply = (body: string) => postReply(deps.metrics.instrument(context.octokit), repo, issue.number, body);
    if (command.kind === 'invalid') {
      await reply(renderHelp(`@${user.login} \`/gpu-justify ${command.given}\`: ${command.problem}.`));
      return;
    }
    await deps.metrics
      .instrument(context.octokit)
      .rest.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: 'eyes' });
    if (command.kind === 'help') {
      await reply(renderHelp());
      return;
    }
    const pull = await loadPull(deps.metrics.instrument(context.octokit), repo, issue.number);
    const log = context.log.child({ command: command.kind, by: user.login });
    await runCommand({
      deps,
      context,
      log,
      repo,
      pull,
      command,
      reply,
      login: user.login,
      commentId: comment.id,
      createdAt: comment.created_at,
    });
  };
}

interface CommandRun {
  deps: HandlerDeps;
  context: CommentContext;
  log: CommentContext['log'];
  repo: RepoRef;
  pull: LoadedPull;
  command: Exclude<Command, { kind: 'invalid' | 'help' }>;
  reply: (body: string) => Promise<void>;
  login: string;
  /** The command comment and when GitHub says it was written: what an override binds to. */
  commentId: number;
  createdAt: string;
}

async function runCommand(run: CommandRun): Promise<void> {
  const { deps, context, log, repo, pull, command, reply, login, commentId, createdAt } = run;
  const octokit = deps.metrics.instrument(context.octokit);
  switch (command.kind) {
    case 'rerun':
      await queuedReview(deps, octokit, log, pull.target);
      return;
    case 'explain': {
      const analysis = await deps.queue
        .run(keyOf(pull.target), () => analysePullRequest(octokit, pull.target, deps.telemetry))
        .catch((err: unknown) => {
          log.warn({ err: describeFailure(err) }, 'explain could not run');
          return null;
        });
      await reply(
        analysis
          ? renderExplain(analysis.result)
          : `${REPLY_MARKER}\nThe review could not run, so there is nothing to explain yet; see the check run for why.`,
      );
      return;
    }
    case 'override': {
      // The base branch's policy decides: a pull request cannot grant itself the right.
      const base = new ApiTreeReader(octokit, repo, pull.target.baseSha);
      const policy = await loadPolicy(octokit, repo, base);
      const decision = await decideOverride(octokit, {
        repo,
        login,
        author: pull.author,
        policy: policy.policy.overrides,
        unreadPolicy: policy.unread,
        catalog: { path: policy.policy.catalog, codeOwners: () => readCodeOwners(base) },
      });
      if (!decision.allowed) {
        log.info({ why: decision.why }, 'override refused');
        await reply(`${REPLY_MARKER}\n@${login} the override was not accepted: ${decision.why}. Nothing was changed.`);
        return;
      }
      // What the webhook said may have been edited or deleted before this delivery ran.
      const gone = await commandNoLongerStands(octokit, repo, { commentId, by: login, reason: command.reason });
      if (gone) {
        log.info({ commentId, why: gone }, 'override refused');
        await reply(`${REPLY_MARKER}\n@${login} the override was not accepted: ${gone}. Nothing was changed.`);
        return;
      }
      // One command grants once: a re-sent delivery of the same comment is not run again here,
      // and on another replica the review finds the grant already recorded or no longer bound.
      const claim = `command:${repo.owner}/${repo.repo}#${commentId}`.toLowerCase();
      if (!(await deps.commands.claimDelivery(claim))) {
        log.info({ commentId }, 'override command already handled');
        return;
      }
      const grant = {
        by: login,
        reason: command.reason,
        commentId,
        commandAt: createdAt,
        ...(decision.scope ? { scope: decision.scope } : {}),
      };
      const outcome = await queuedReview(deps, octokit, log, pull.target, grant).catch(async (err: unknown) => {
        await deps.commands.releaseDelivery(claim);
        throw err;
      });
      log.info({ via: decision.via, applied: outcome.override !== null }, 'override requested');
      if (outcome.result !== null) await deps.commands.finishDelivery(claim);
      if (outcome.result === null) {
        await deps.commands.releaseDelivery(claim);
        await reply(`${REPLY_MARKER}\n@${login} the review could not run, so no override was recorded; see the check run for why.`);
      } else if (outcome.refused !== null) {
        await reply(`${REPLY_MARKER}\n@${login} the override was not recorded: ${outcome.refused}.`);
      } else if (outcome.override === null) {
        await reply(`${REPLY_MARKER}\n@${login} the check passes on its own (${outcome.conclusion}); there is nothing to override.`);
      }
      return;
    }
  }
}

async function postReply(octokit: GitHubClient, repo: RepoRef, number: number, body: string): Promise<void> {
  await octokit.rest.issues.createComment({ ...repo, issue_number: number, body });
}
