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
  action: 'opened' | 'synchronize' | 'reopened';
  installationId: number;
  number?: number;
  baseSha: string;
  headSha: string;
  /** Makes the PR come from a fork in this repository. */
  fork?: RepoId;
}

/** The repository every recorded pull_request example lives in. */
export const EXAMPLE_REPO: RepoId = { owner: 'Codertocat', repo: 'Hello-World' };

export function pullRequestPayload(options: PullRequestPayloadOptions): Record<string, unknown> {
  const definition = examples.find((d) => d.name === 'pull_request');
  const recorded = definition?.examples.find(
    (e) => (e as { action?: string; installation?: unknown }).action === options.action && 'installation' in e,
  );
  if (!recorded) throw new Error(`no recorded pull_request.${options.action} payload with an installation`);
  const payload = structuredClone(recorded) as unknown as PullRequestPayload;
  payload.installation.id = options.installationId;
  if (options.number !== undefined) {
    payload.number = options.number;
    payload.pull_request.number = options.number;
  }
  payload.pull_request.base.sha = options.baseSha;
  payload.pull_request.head.sha = options.headSha;
  if (options.action === 'synchronize') {
    payload.after = options.headSha;
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

/** The parts of the payload the scenarios touch. */
interface PullRequestPayload {
  number: number;
  after?: string;
  installation: { id: number };
  pull_request: {
    number: number;
    base: { sha: string };
    head: {
      sha: string;
      repo: { name: string; full_name: string; html_url: string; fork: boolean; owner: { login: string } };
    };
  };
}
