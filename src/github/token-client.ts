import { ProbotOctokit } from 'probot';
import type { GitHubClient } from './client.js';

/** The environment a client outside the App reads: a token and, for GitHub Enterprise, the API URL. */
export interface TokenEnv {
  GITHUB_TOKEN?: string | undefined;
  GITHUB_API_URL?: string | undefined;
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * A client for the CLI and the Action: the App's own Octokit (retry and throttling included),
 * authenticated with a token instead of an installation. Without a token it reads public
 * repositories only, within GitHub's unauthenticated rate limit.
 */
export function tokenClient(env: TokenEnv = process.env as TokenEnv, log: Partial<typeof quiet> = quiet): GitHubClient {
  const token = env.GITHUB_TOKEN?.trim();
  return new ProbotOctokit({
    ...(token ? { auth: { token } } : {}),
    ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL.replace(/\/+$/, '') } : {}),
    log: { ...quiet, ...log },
  });
}
