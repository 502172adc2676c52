import type { GitHubClient, Logger, RepoRef } from '../api/index.js';
import { describeFailure } from '../api/index.js';

/**
 * Creating our comment once, though the same review may run twice at the same moment (a queued
 * job taken up by another replica while the first is still running, a delivery queued on two
 * replicas while Redis did not answer) and a creation's answer may be lost on its way back.
 * Settling duplicates after the fact (comment-duplicates.ts) keeps one comment, but each
 * duplicate has already notified people; these steps keep the second POST from being sent.
 */

/** Takes the creation of our comment on this pull request: false when another review took it moments ago. */
export type CreationClaim = () => Promise<boolean>;

/** How long a review that lost the claim looks for the winner's comment before creating its own (settled after). */
const WAIT_FOR_WINNER_MS = 20_000;
/** The pauses between looks: quick at first, since the winner usually posts at once. */
const LOOK_AFTER_MS = [250, 500, 1000, 2000];

/**
 * Before creating: takes the claim, or, when another review holds it, waits for that review's
 * comment and returns it (null: create, then settle). A claim that cannot be asked (the store
 * does not answer) is no reason to post nothing: the comment is created and settled as before.
 */
export async function claimOrFind<T>(
  claim: CreationClaim | undefined,
  find: () => Promise<T | null>,
  log?: Pick<Logger, 'warn'>,
): Promise<T | null> {
  if (!claim) return null;
  try {
    if (await claim()) return null;
  } catch (err) {
    log?.warn({ err: describeFailure(err) }, 'creation of our comment not claimed; creating it and settling duplicates after');
    return null;
  }
  const until = Date.now() + WAIT_FOR_WINNER_MS;
  for (let look = 0; ; look++) {
    const found = await find();
    if (found !== null) return found;
    const pause = LOOK_AFTER_MS[Math.min(look, LOOK_AFTER_MS.length - 1)] ?? 1000;
    if (Date.now() + pause > until) return null;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

export interface Creation {
  repo: RepoRef;
  issueNumber: number;
  body: string;
  /** Our login: who the comment is by when it is found rather than created. */
  author: string;
  /** Our comment as GitHub has it now. */
  find: () => Promise<{ id: number } | null>;
}

/**
 * POSTs the comment once: Octokit's own retry would send the POST again after a 5xx or a lost
 * connection, when GitHub may well have created it. Here the first attempt is not retried; after
 * such a failure our comment is looked up by its marker, and only when it is absent is it created
 * again (with the client's retries).
 */
export async function createOnce(octokit: GitHubClient, c: Creation): Promise<{ id: number; login: string }> {
  const params = { ...c.repo, issue_number: c.issueNumber, body: c.body };
  try {
    const { data } = await octokit.rest.issues.createComment({ ...params, request: { retries: 0 } });
    return { id: data.id, login: data.user?.login ?? c.author };
  } catch (err) {
    if (!mayHaveLanded(err)) throw err;
    const found = await c.find();
    if (found !== null) return { id: found.id, login: c.author };
    const { data } = await octokit.rest.issues.createComment(params);
    return { id: data.id, login: data.user?.login ?? c.author };
  }
}

/** A failure after which the request may have reached GitHub: a 5xx, or no answer (Octokit reports it as 500). */
function mayHaveLanded(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 500;
}
