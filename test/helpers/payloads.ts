import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import type { RepoId } from './fake-repo.js';

// The package is a CommonJS JSON module whose types declare it as an ES default export.
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];

/**
 * Recorded GitHub webhook payloads (@octokit/webhooks-examples), changed only where a scenario
 * needs it.
 */

export interface PullRequestPayloadOptions {
  action: 'opened' | 'synchronize' | 'reopened' | 'ready_for_review' | 'edited';
  installationId: number;
  number?: number;
  baseSha: string;
  headSha: string;
  /** Makes the PR come from a fork in this repository. */
  fork?: RepoId;
  /** The repository it is opened in; the recorded example's (EXAMPLE_REPO) when absent. */
  repo?: RepoId;
  draft?: boolean;
  /** For `edited`: what changed (`{ base: … }` when the base branch did). */
  changes?: Record<string, unknown>;
  /** `pull_request.changed_files`; the recorded example's (1) when absent. */
  changedFiles?: number;
  /** For `synchronize`: the head the push moved from; the recorded example's when absent. */
  before?: string;
}

/** The repository every recorded pull_request example lives in. */
export const EXAMPLE_REPO: RepoId = { owner: 'Codertocat', repo: 'Hello-World' };

export function pullRequestPayload(options: PullRequestPayloadOptions): Record<string, unknown> {
  // No recorded `edited` example carries an installation: an `opened` one, relabelled, stands in.
  const recordedAction = options.action === 'edited' ? 'opened' : options.action;
  const payload = recordedExample<PullRequestPayload>('pull_request', recordedAction);
  if (options.action === 'edited') {
    (payload as unknown as Record<string, unknown>).action = 'edited';
    (payload as unknown as Record<string, unknown>).changes = options.changes ?? {};
  }
  if (options.draft !== undefined) payload.pull_request.draft = options.draft;
  if (options.changedFiles !== undefined) payload.pull_request.changed_files = options.changedFiles;
  payload.installation.id = options.installationId;
  if (options.number !== undefined) {
    payload.number = options.number;
    payload.pull_request.number = options.number;
  }
  payload.pull_request.base.sha = options.baseSha;
  payload.pull_request.head.sha = options.headSha;
  if (options.action === 'synchronize') {
    payload.after = options.headSha;
    if (options.before !== undefined) (payload as unknown as Record<string, unknown>).before = options.before;
  }
  if (options.repo) {
    const { owner, repo: name } = options.repo;
    for (const repo of [payload.repository, payload.pull_request.base.repo, payload.pull_request.head.repo]) {
      repo.name = name;
      repo.full_name = `${owner}/${name}`;
      repo.owner.login = owner;
      repo.html_url = `https://github.com/${owner}/${name}`;
    }
  }
  if (options.fork) {
    const repo = payload.pull_request.head.repo;
    repo.name = options.fork.repo;
    repo.full_name = `${options.fork.owner}/${options.fork.repo}`;
    repo.owner.login = options.fork.owner;
    repo.html_url = `https://github.com/${options.fork.owner}/${options.fork.repo}`;
    repo.fork = true;
  }
  return payload as unknown as Record<string, unknown>;
}

/** A recorded example of `event.action` that carries an installation, deep-copied. */
function recordedExample<T>(event: string, action: string): T {
  const definition = examples.find((d) => d.name === event);
  const recorded = definition?.examples.find((e) => (e as { action?: string }).action === action && 'installation' in e);
  if (!recorded) throw new Error(`no recorded ${event}.${action} payload with an installation`);
  return structuredClone(recorded) as unknown as T;
}

export interface IssueCommentPayloadOptions {
  installationId: number;
  number: number;
  body: string;
  login?: string;
  userType?: 'User' | 'Bot';
  /** An issue rather than a pull request. */
  issueOnly?: boolean;
  commentId?: number;
  /** When the comment was written; now unless given. */
  createdAt?: string;
  /** `edited` is not a trigger; scenarios send it to prove so. */
  action?: 'created' | 'edited';
}

export function issueCommentPayload(options: IssueCommentPayloadOptions): Record<string, unknown> {
  const payload = recordedExample<IssueCommentPayload>('issue_comment', 'created');
  payload.installation.id = options.installationId;
  payload.action = options.action ?? 'created';
  payload.issue.number = options.number;
  payload.issue.state = 'open';
  if (options.issueOnly) delete payload.issue.pull_request;
  else {
    const api = `https://api.github.com/repos/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}`;
    payload.issue.pull_request = {
      url: `${api}/pulls/${options.number}`,
      html_url: `https://github.com/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}/pull/${options.number}`,
      diff_url: `https://github.com/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}/pull/${options.number}.diff`,
      patch_url: `https://github.com/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}/pull/${options.number}.patch`,
      merged_at: null,
    };
  }
  payload.comment.body = options.body;
  if (options.commentId !== undefined) payload.comment.id = options.commentId;
  payload.comment.created_at = options.createdAt ?? new Date().toISOString();
  payload.comment.updated_at = payload.comment.created_at;
  payload.comment.user.login = options.login ?? 'octocat';
  payload.comment.user.type = options.userType ?? 'User';
  if (payload.action === 'edited') payload.changes = { body: { from: 'an earlier text' } };
  return payload as unknown as Record<string, unknown>;
}

interface IssueCommentPayload {
  action: string;
  changes?: unknown;
  installation: { id: number };
  issue: { number: number; state: string; pull_request?: Record<string, unknown> };
  comment: { id: number; body: string; created_at: string; updated_at: string; user: { login: string; type: string } };
}

export interface CheckPayloadOptions {
  installationId: number;
  headSha: string;
  /** Pull requests the payload lists (GitHub lists none for a fork's PR). */
  pullNumbers?: number[];
  /** The check run's name, for `check_run`. */
  name?: string;
}

/** `check_run.rerequested`, moved to the scenarios' repository. */
export function checkRunPayload(options: CheckPayloadOptions): Record<string, unknown> {
  const payload = recordedExample<CheckPayload & { check_run: CheckObject & { name: string } }>('check_run', 'rerequested');
  fillCheck(payload, payload.check_run, options);
  payload.check_run.name = options.name ?? 'gpu-justify';
  return payload as unknown as Record<string, unknown>;
}

/** `check_suite.requested` or `rerequested`. */
export function checkSuitePayload(action: 'requested' | 'rerequested', options: CheckPayloadOptions): Record<string, unknown> {
  const payload = recordedExample<CheckPayload & { check_suite: CheckObject }>('check_suite', action);
  fillCheck(payload, payload.check_suite, options);
  return payload as unknown as Record<string, unknown>;
}

interface CheckObject {
  head_sha: string;
  pull_requests: unknown[];
}

interface CheckPayload {
  installation: { id: number };
  repository: { name: string; full_name: string; url: string; html_url: string; owner: { login: string } };
}

function fillCheck(payload: CheckPayload, check: CheckObject, options: CheckPayloadOptions): void {
  const { owner, repo } = EXAMPLE_REPO;
  const url = `https://api.github.com/repos/${owner}/${repo}`;
  payload.installation.id = options.installationId;
  Object.assign(payload.repository, { name: repo, full_name: `${owner}/${repo}`, url, html_url: `https://github.com/${owner}/${repo}` });
  payload.repository.owner.login = owner;
  check.head_sha = options.headSha;
  check.pull_requests = (options.pullNumbers ?? []).map((number) => ({
    url: `${url}/pulls/${number}`,
    id: number,
    number,
    head: { ref: 'feature', sha: options.headSha, repo: { id: 1, url, name: repo } },
    base: { ref: 'main', sha: 'f'.repeat(40), repo: { id: 1, url, name: repo } },
  }));
}

/** The parts of the payload the scenarios touch. */
interface PayloadRepo {
  name: string;
  full_name: string;
  html_url: string;
  fork: boolean;
  owner: { login: string };
}

interface PullRequestPayload {
  number: number;
  after?: string;
  installation: { id: number };
  repository: PayloadRepo;
  pull_request: {
    number: number;
    draft?: boolean;
    changed_files?: number;
    base: { sha: string; repo: PayloadRepo };
    head: { sha: string; repo: PayloadRepo };
  };
}

export interface MergeGroupPayloadOptions {
  installationId: number;
  /** The group's last pull request, named by its branch. */
  number: number;
  baseSha: string;
  headSha: string;
  /** The branch the group merges into; `main` when absent. */
  base?: string;
  /** The branch as GitHub names it; `gh-readonly-queue/<base>/pr-<number>-<baseSha>` when absent. */
  headRef?: string;
}

/** `merge_group.checks_requested`, moved to the scenarios' repository. */
export function mergeGroupPayload(options: MergeGroupPayloadOptions): Record<string, unknown> {
  const payload = recordedExample<
    CheckPayload & { merge_group: { head_sha: string; head_ref: string; base_sha: string; base_ref: string; head_commit: { id: string } } }
  >('merge_group', 'checks_requested');
  fillCheck(payload, { head_sha: '', pull_requests: [] }, { installationId: options.installationId, headSha: options.headSha });
  const base = options.base ?? 'main';
  Object.assign(payload.merge_group, {
    head_sha: options.headSha,
    head_ref: options.headRef ?? `refs/heads/gh-readonly-queue/${base}/pr-${options.number}-${options.baseSha}`,
    base_sha: options.baseSha,
    base_ref: `refs/heads/${base}`,
  });
  payload.merge_group.head_commit.id = options.headSha;
  return payload as unknown as Record<string, unknown>;
}

/**
 * A review submitted (`pull_request_review`) or a review comment written (`pull_request_review_comment`)
 * on pull request `number`, its text `body`: places a command is not read from.
 */
export function reviewTextPayload(
  event: 'pull_request_review' | 'pull_request_review_comment',
  options: { installationId: number; number: number; body: string; id: number },
): Record<string, unknown> {
  const payload = recordedExample<{
    installation: { id: number };
    pull_request: { number: number };
    review?: { id: number; body: string | null };
    comment?: { id: number; body: string };
  }>(event, event === 'pull_request_review' ? 'submitted' : 'created');
  payload.installation.id = options.installationId;
  payload.pull_request.number = options.number;
  const text = event === 'pull_request_review' ? payload.review : payload.comment;
  if (!text) throw new Error(`the recorded ${event} payload has no text`);
  text.id = options.id;
  text.body = options.body;
  return payload;
}
