import type { Context } from 'probot';
import type { Submission } from './submit.js';
import type { IntakeDeps } from './deps.js';
import { submit } from './submit.js';

export const CHECK_EVENTS = ['check_run.rerequested', 'check_suite.requested', 'check_suite.rerequested'] as const;

type CheckRunContext = Context<'check_run.rerequested'>;
type CheckSuiteContext = Context<'check_suite.requested' | 'check_suite.rerequested'>;

/** "Re-run" on our check in the Checks tab: a re-run request for each pull request of its commit. */
export function checkRunIntake(deps: IntakeDeps): (context: CheckRunContext) => Promise<void> {
  return async (context) => {
    const { check_run: run, repository, installation } = context.payload;
    if (run.name !== deps.instance.checkName || installation === undefined) return;
    const numbers = numbersIn(run.pull_requests, repository.url);
    await submit(
      deps.work,
      deps.metrics,
      context.id,
      commitWork(installation.id, repository, run.head_sha, numbers, true, context.id),
      context.log,
    );
  };
}

/**
 * A new commit (requested) or "Re-run all checks" (rerequested). A push also sends
 * `pull_request.synchronize`: a requested suite whose head is already reviewed asks nothing more.
 */
export function checkSuiteIntake(deps: IntakeDeps): (context: CheckSuiteContext) => Promise<void> {
  return async (context) => {
    const { check_suite: suite, repository, installation, action } = context.payload;
    if (installation === undefined) return;
    const numbers = numbersIn(suite.pull_requests, repository.url);
    const rerun = action === 'rerequested';
    await submit(
      deps.work,
      deps.metrics,
      context.id,
      commitWork(installation.id, repository, suite.head_sha, numbers, rerun, context.id),
      context.log,
    );
  };
}

/** A job per pull request listed; a commit job to find them when none is (fork pull requests are not listed). */
function commitWork(
  installationId: number,
  repository: { owner: { login: string }; name: string },
  headSha: string,
  numbers: number[],
  rerun: boolean,
  delivery: string,
): Submission[] {
  const repo = { installationId, owner: repository.owner.login, repo: repository.name, delivery };
  if (numbers.length === 0) return [{ data: { kind: 'commit', ...repo, headSha, rerun }, requests: [] }];
  return numbers.map((number) => ({
    data: { kind: 'pr', ...repo, number, headSha },
    requests: [rerun ? { kind: 'rerun', delivery, headSha } : { kind: 'review', delivery, event: 'check_suite', at: Date.now(), headSha }],
  }));
}

/** Pull requests of this repository only: a check payload may list PRs elsewhere. */
function numbersIn(prs: readonly { number: number; base: { repo: { url: string } } }[], repoUrl: string): number[] {
  return prs.filter((pr) => pr.base.repo.url === repoUrl).map((pr) => pr.number);
}
