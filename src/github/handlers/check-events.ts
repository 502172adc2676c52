import type { Context } from 'probot';
import { CHECK_NAME } from '../check-run.js';
import type { GitHubClient, Logger, RepoRef } from '../client.js';
import { prKey } from '../pr-queue.js';
import { loadPull } from '../pull-target.js';
import { reviewPullRequest } from '../review-pull-request.js';
import { reviewDeps } from './queued-review.js';
import type { HandlerDeps } from './queued-review.js';

export const CHECK_EVENTS = ['check_run.rerequested', 'check_suite.requested', 'check_suite.rerequested'] as const;

/** "Re-run" on our check in the Checks tab: review again the pull requests of its commit. */
export function checkRunHandler(deps: HandlerDeps): (context: Context<'check_run.rerequested'>) => Promise<void> {
  return async (context) => {
    const run = context.payload.check_run;
    if (run.name !== CHECK_NAME) return;
    await reviewCommit(
      deps,
      deps.metrics.instrument(context.octokit),
      context.log,
      repoOf(context.payload.repository),
      run.head_sha,
      numbersIn(run.pull_requests, context.payload.repository.url),
      true,
    );
  };
}

/**
 * A new commit (requested) or "Re-run all checks" (rerequested). A push also sends
 * `pull_request.synchronize`, so a requested suite whose commit this instance already reviewed
 * is left alone.
 */
export function checkSuiteHandler(
  deps: HandlerDeps,
): (context: Context<'check_suite.requested' | 'check_suite.rerequested'>) => Promise<void> {
  return async (context) => {
    const { check_suite: suite, repository, action } = context.payload;
    await reviewCommit(
      deps,
      deps.metrics.instrument(context.octokit),
      context.log,
      repoOf(repository),
      suite.head_sha,
      numbersIn(suite.pull_requests, repository.url),
      action === 'rerequested',
    );
  };
}

async function reviewCommit(
  deps: HandlerDeps,
  octokit: GitHubClient,
  log: Logger,
  repo: RepoRef,
  headSha: string,
  listed: number[],
  force: boolean,
): Promise<void> {
  // Fork pull requests are not listed in check payloads; ask which open PRs have this head.
  const numbers = listed.length > 0 ? listed : await openPullsWithHead(octokit, repo, headSha);
  for (const number of numbers) {
    const key = prKey(repo.owner, repo.repo, number);
    if (!force && (await deps.queue.wasReviewed(key, headSha))) continue;
    await deps.queue.run(key, async () => {
      if (!force && (await deps.queue.wasReviewed(key, headSha))) return;
      const pull = await loadPull(octokit, repo, number);
      if (!pull.open || pull.target.headSha !== headSha) {
        log.info({ number, headSha }, 'commit is no longer the head of an open pull request; not reviewed');
        return;
      }
      await deps.metrics.timeReview(() => reviewPullRequest({ ...reviewDeps(deps), octokit, log, target: pull.target }));
      await deps.queue.markReviewed(key, headSha);
    });
  }
}

async function openPullsWithHead(octokit: GitHubClient, repo: RepoRef, headSha: string): Promise<number[]> {
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: headSha, per_page: 100 });
  const full = `${repo.owner}/${repo.repo}`.toLowerCase();
  return data
    .filter((pr) => pr.state === 'open' && pr.head.sha === headSha && pr.base.repo.full_name.toLowerCase() === full)
    .map((pr) => pr.number);
}

/** Pull requests of this repository only: a check payload may list PRs elsewhere. */
function numbersIn(prs: readonly { number: number; base: { repo: { url: string } } }[], repoUrl: string): number[] {
  return prs.filter((pr) => pr.base.repo.url === repoUrl).map((pr) => pr.number);
}

function repoOf(repository: { owner: { login: string }; name: string }): RepoRef {
  return { owner: repository.owner.login, repo: repository.name };
}
