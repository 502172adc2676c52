import type { GitHubClient, Logger } from '../client.js';
import type { WorkStore } from '../work/store.js';

/**
 * How the App keeps its writes within GitHub's secondary rate limits, per installation.
 *
 * GitHub's published guidance: make requests for one installation serially, and wait at least a
 * second between POST, PATCH, PUT or DELETE requests
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#avoid-concurrent-requests);
 * in general no more than 80 content-generating requests a minute and no more than 500 an hour
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits).
 *
 * - Serial writes a second apart, and notifying writes (comments, reviews) three seconds apart:
 *   octokit's throttling plugin, keyed by installation by Probot and, with `REDIS_URL`, clustered
 *   through that Redis so every replica shares it. A second apart keeps writes under 60 a minute.
 * - At most `GPU_JUSTIFY_CREATES_PER_HOUR` content-creating writes (every POST but a GraphQL
 *   query or a token) per installation in any hour: this hook, counted in the work store, so in
 *   Redis when replicas share one.
 */

/** GitHub's ceiling is 500 an hour; the default leaves a margin for requests made elsewhere. */
const DEFAULT_CREATES_PER_HOUR = 480;
const HOUR_MS = 60 * 60_000;
/** Longest a write waits here for the allowance; past it the job is tried again when it frees up. */
const MAX_WAIT_MS = 30_000;

/** The installation has spent its hourly allowance of content-creating writes; `retryAt` is when one frees up. */
export class CreationAllowanceSpent extends Error {
  readonly kind = 'github-creation-allowance';
  constructor(
    readonly retryAt: number,
    limit: number,
  ) {
    super(
      `this installation made ${limit} content-creating writes in the last hour, GitHub's secondary limit; the next one is possible at ${new Date(retryAt).toISOString()}`,
    );
    this.name = 'CreationAllowanceSpent';
  }
}

/** The operator's allowance: `GPU_JUSTIFY_CREATES_PER_HOUR`, a positive integer, else the default. */
export function createsPerHour(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env['GPU_JUSTIFY_CREATES_PER_HOUR']);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_CREATES_PER_HOUR;
}

/** A request that creates content on GitHub. */
function creates(options: { method: string; url: string }): boolean {
  if (options.method !== 'POST') return false;
  return !/\/graphql$/.test(options.url) && !/\/access_tokens$/.test(options.url);
}

const paced = new WeakSet<object>();

/** Every content-creating write of this installation client takes its turn from the shared allowance first. */
export function paceCreations(
  octokit: GitHubClient,
  allowance: { store: WorkStore; installationId: number; perHour: number },
  log: Pick<Logger, 'warn'>,
): GitHubClient {
  if (paced.has(octokit)) return octokit;
  paced.add(octokit);
  octokit.hook.before('request', async (options) => {
    if (!creates({ method: options.method, url: String(options.url) })) return;
    for (let waited = 0; ;) {
      const wait = await allowance.store.takeCreation(allowance.installationId, allowance.perHour, HOUR_MS);
      if (wait === 0) return;
      if (waited + wait > MAX_WAIT_MS) throw new CreationAllowanceSpent(Date.now() + wait, allowance.perHour);
      log.warn({ installation: allowance.installationId, waitMs: wait }, 'hourly allowance of content-creating writes spent; waiting');
      await new Promise((resolve) => setTimeout(resolve, wait));
      waited += wait;
    }
  });
  return octokit;
}
