import type { GitHubClient, RepoRef } from '../api/index.js';

/**
 * Two replicas of the App can review the same pull request at the same moment (a redelivery
 * landing on the other pod, `opened` and `synchronize` in quick succession): both list the
 * comments, find none and both create one. Whoever created a comment therefore looks again, and
 * every replica settles on the same survivor — the lowest id, the oldest — so none deletes the
 * comment another keeps. A later comment always gets a higher id, so the survivor, once seen,
 * stays the survivor.
 */

interface CreatedComment {
  id: number;
  /** Who GitHub says wrote it: our own login; only its comments are ours to delete. */
  login: string;
}

export interface SettleOptions {
  repo: RepoRef;
  issueNumber: number;
  marker: string;
  /** Our own login; see isMarkedBotComment. */
  author: string;
  /** What we just created, and with which body. */
  created: CreatedComment;
  body: string;
  /**
   * Asked before our body replaces an older duplicate's: false when our review is no longer the
   * newest (the head moved), since the newer review writes its own text.
   */
  stillCurrent?: () => Promise<boolean>;
  /** The text to write over the survivor's instead of `body`, given the survivor's text. */
  merge?: (theirs: string) => string;
}

/** `kept`: ours is the survivor; `merged`: ours was removed in favour of an older one. */
export type SettleOutcome = 'kept' | 'merged';

export async function settleCreatedComment(octokit: GitHubClient, options: SettleOptions): Promise<SettleOutcome> {
  const { repo, issueNumber, marker, author, created, body } = options;
  const listed = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: issueNumber, per_page: 100 });
  const mine = (c: (typeof listed)[number]) => isMarkedBotComment(c, marker, author) && sameLogin(c.user?.login, created.login);
  const ours = listed.filter(mine).map((c) => ({ id: c.id, body: c.body ?? '' }));
  // Ours counts even if another replica already deleted it: we must still agree on the survivor.
  if (!ours.some((c) => c.id === created.id)) ours.push({ id: created.id, body });
  ours.sort((a, b) => a.id - b.id);
  const [survivor, ...others] = ours;
  if (!survivor || others.length === 0) return 'kept';

  const text = survivor.id === created.id ? body : (options.merge?.(survivor.body) ?? body);
  if (survivor.id !== created.id && !sameText(survivor.body, text) && (await (options.stillCurrent?.() ?? true))) {
    // Written before ours goes, so the newest text is never absent from the pull request.
    await octokit.rest.issues.updateComment({ ...repo, comment_id: survivor.id, body: text });
  }
  await deleteComments(
    octokit,
    repo,
    others.map((c) => c.id),
  );
  return survivor.id === created.id ? 'kept' : 'merged';
}

/**
 * A comment we wrote that holds the marker: a bot's, under our own login. A person quoting the
 * marker, or another bot or workflow posting it, must never have their comment edited, deleted
 * or read as ours.
 */
export function isMarkedBotComment(
  c: { user?: { type?: string; login?: string } | null; body?: string | null },
  marker: string,
  author: string,
): boolean {
  return c.user?.type === 'Bot' && sameLogin(c.user.login, author) && (c.body?.includes(marker) ?? false);
}

function sameLogin(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase();
}

/** Deletes issue comments; one already gone (another replica deleted it) is what we wanted. */
export async function deleteComments(octokit: GitHubClient, repo: RepoRef, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    try {
      await octokit.rest.issues.deleteComment({ ...repo, comment_id: id });
    } catch (err) {
      if (!isGone(err)) throw err;
    }
  }
}

/** 404 (deleted meanwhile) from a DELETE. */
export function isGone(err: unknown): boolean {
  return (err as { status?: unknown }).status === 404;
}

export function sameText(a: string, b: string): boolean {
  return normalise(a) === normalise(b);
}

function normalise(text: string): string {
  return text.replace(/\r\n/g, '\n').trimEnd();
}
