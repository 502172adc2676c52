import { sideReader } from '../../api/index.js';
import type { GitHubClient, Logger, RepoRef } from '../../api/index.js';
import { commandNoLongerStands } from '../../overrides/index.js';
import { describeFailure } from '../../api/index.js';
import { renderExplain, renderHelp, REPLY_MARKER } from '../../overrides/index.js';
import { readCodeOwners } from '../../api/index.js';
import { decideOverride } from '../../overrides/index.js';
import { loadPolicy } from '../../api/index.js';
import type { LoadedPull } from '../../api/index.js';
import { analysePullRequest } from '../../review-pull-request.js';
import type { OverrideGrant, ReviewOutcome } from '../../review-pull-request.js';
import type { TelemetryProvider } from '../../../telemetry/index.js';
import type { Request } from './requests.js';
import type { WorkStore } from './store.js';
import { code } from '../../../report/index.js';

/** A pull request's commands, answered by its job one after another (pull-request-job.ts). */
export interface CommandContext {
  octokit: GitHubClient;
  log: Logger;
  repo: RepoRef;
  pull: LoadedPull;
  telemetry: TelemetryProvider;
  store: WorkStore;
  /** Reviews the pull request's current head, with a grant when one is given. */
  review: (grant?: OverrideGrant) => Promise<ReviewOutcome>;
}

/** The eyes reaction that says a command was seen; GitHub answers a repeat with the same reaction. */
export async function acknowledge(octokit: GitHubClient, repo: RepoRef, commentId: number): Promise<void> {
  await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content: 'eyes' });
}

async function reply(octokit: GitHubClient, repo: RepoRef, number: number, body: string): Promise<void> {
  await octokit.rest.issues.createComment({ ...repo, issue_number: number, body });
}

/**
 * Answers one comment's command once, wherever and however often its mailbox entry is read (a job
 * taken up again after a stall, one comment reaching two replicas): claimed by comment id in the
 * store the replicas share, released when the answer fails, so a later attempt answers it.
 */
export async function onceForComment(
  c: Pick<CommandContext, 'store' | 'repo' | 'log'>,
  commentId: number,
  answer: () => Promise<void>,
): Promise<void> {
  const claim = commandClaim(c.repo, commentId);
  if (!(await c.store.claim(claim))) {
    c.log.info({ commentId }, 'command already answered');
    return;
  }
  try {
    await answer();
  } catch (err) {
    await c.store.release(claim).catch(() => undefined);
    throw err;
  }
  await c.store.finish(claim);
}

function commandClaim(repo: RepoRef, commentId: number): string {
  return `command:${repo.owner}/${repo.repo}#${commentId}`.toLowerCase();
}

/** `help`, or a command that was not understood: the command list, without a review. */
export async function answerWithoutReview(
  octokit: GitHubClient,
  repo: RepoRef,
  number: number,
  request: Extract<Request, { kind: 'help' | 'invalid' }>,
): Promise<void> {
  if (request.kind === 'help') return reply(octokit, repo, number, renderHelp());
  // What the commenter wrote is theirs: a backtick would end the code span and free mentions,
  // references and markers after it, and bidi controls would reorder the reply.
  await reply(octokit, repo, number, renderHelp(`@${request.by} ${code(`/gpu-justify ${request.given}`)}: ${request.problem}.`));
}

/** `explain`: the evidence behind the current head's verdict, as a reply. */
export async function explain(c: CommandContext): Promise<void> {
  const analysis = await analysePullRequest(c.octokit, c.pull.target, c.telemetry).catch((err: unknown) => {
    c.log.warn({ err: describeFailure(err) }, 'explain could not run');
    return null;
  });
  await reply(
    c.octokit,
    c.repo,
    c.pull.target.number,
    analysis
      ? renderExplain(analysis.result)
      : `${REPLY_MARKER}\nThe review could not run, so there is nothing to explain yet; see the check run for why.`,
  );
}

/**
 * `override <reason>`: decided on the base branch's policy and on the comment as GitHub has it
 * now, never on what the webhook or the queue carried; then a review that records the grant.
 */
export async function override(c: CommandContext, request: Extract<Request, { kind: 'override' }>): Promise<void> {
  const { octokit, log, repo, pull } = c;
  const { by: login, reason, commentId, createdAt } = request;
  const answer = (text: string) => reply(octokit, repo, pull.target.number, `${REPLY_MARKER}\n@${login} ${text}`);
  // The base branch's policy decides: a pull request cannot grant itself the right.
  const base = sideReader(octokit, repo, pull.target.baseSha);
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
    await answer(`the override was not accepted: ${decision.why}. Nothing was changed.`);
    return;
  }
  // What the webhook said may have been edited or deleted before this job ran.
  const gone = await commandNoLongerStands(octokit, repo, { commentId, by: login, reason });
  if (gone) {
    log.info({ commentId, why: gone }, 'override refused');
    await answer(`the override was not accepted: ${gone}. Nothing was changed.`);
    return;
  }
  // One command grants once: the same comment queued again (another delivery) grants nothing twice.
  const claim = commandClaim(repo, commentId);
  if (!(await c.store.claim(claim))) {
    log.info({ commentId }, 'override command already handled');
    return;
  }
  const grant = { by: login, reason, commentId, commandAt: createdAt, ...(decision.scope ? { scope: decision.scope } : {}) };
  const outcome = await c.review(grant).catch(async (err: unknown) => {
    await c.store.release(claim);
    throw err;
  });
  log.info({ via: decision.via, applied: outcome.override !== null }, 'override requested');
  if (outcome.result === null) {
    await c.store.release(claim);
    await answer('the review could not run, so no override was recorded; see the check run for why.');
    return;
  }
  await c.store.finish(claim);
  if (outcome.refused !== null) await answer(`the override was not recorded: ${outcome.refused}.`);
  else if (outcome.override === null) await answer(`the check passes on its own (${outcome.conclusion}); there is nothing to override.`);
}
