import type { GitHubClient } from './client.js';

/** The login our comments are written under, asked for once and then kept. */
export type SelfLogin = () => Promise<string>;

/** The workflow token's identity: what the Action's comments are written as. */
export const ACTIONS_BOT = 'github-actions[bot]';

/**
 * The App's bot login, `<slug>[bot]`, from `GET /app` with the App's own JWT. A failed answer
 * is not kept, so the next review asks again.
 */
export function appSelfLogin(appClient: () => Promise<GitHubClient>): SelfLogin {
  let pending: Promise<string> | null = null;
  return () => {
    pending ??= (async () => {
      const octokit = await appClient();
      const { data } = await octokit.rest.apps.getAuthenticated();
      if (!data?.slug) throw new Error('GET /app answered without the App slug');
      return `${data.slug}[bot]`;
    })().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}
