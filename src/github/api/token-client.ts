import { ProbotOctokit } from 'probot';
import type { GitHubClient } from './client.js';
import { GitHubApiError } from './errors.js';

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
  const octokit = new ProbotOctokit({
    ...(token ? { auth: { token } } : {}),
    ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL.replace(/\/+$/, '') } : {}),
    log: { ...quiet, ...log },
  });
  failFastWhenUnreachable(octokit);
  return octokit;
}

/**
 * Once a request got no answer after its retries, the API is unreachable for this run: every later
 * request fails at once with the same cause, and those already in flight stop retrying (the retry
 * plugin reads `request.retries` from their options before each new try), so a review of many
 * requests ends within about one request's retries instead of paying them for each.
 */
function failFastWhenUnreachable(octokit: InstanceType<typeof ProbotOctokit>): void {
  let unreachable: GitHubApiError | null = null;
  const inFlight = new Set<{ request?: object }>();
  octokit.hook.wrap('request', async (request, options) => {
    if (unreachable !== null) throw unreachable;
    inFlight.add(options);
    try {
      return await request(options);
    } catch (err) {
      const failure = GitHubApiError.from(err);
      if (failure?.network === undefined) throw err;
      unreachable ??= failure;
      for (const other of inFlight) if (other.request) Object.assign(other.request, { retries: 0 });
      throw failure;
    } finally {
      inFlight.delete(options);
    }
  });
}
