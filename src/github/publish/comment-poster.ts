import { redactSecrets } from '../../util/redact.js';
import type { GitHubClient, Logger, RepoRef } from '../api/index.js';
import { deleteComments, isMarkedBotComment, sameText, settleCreatedComment } from './comment-duplicates.js';
import { describeFailure } from '../api/index.js';
import { claimOrFind, createOnce } from './comment-creation.js';
import type { CreationClaim } from './comment-creation.js';

/** GitHub's limit on an issue comment's body. */
const MAX_COMMENT_CHARS = 65_536;

/**
 * `merged`: folded into a copy another review created at the same moment: an older one found
 * after creating ours, or the one whose creation claim beat ours (then ours is never created).
 */
export type CommentOutcome = 'created' | 'merged' | 'updated' | 'unchanged' | 'skipped';

export interface UpsertCommentOptions {
  repo: RepoRef;
  issueNumber: number;
  /** Hidden text that marks our comment; `body` must contain it. */
  marker: string;
  /** The login our comments are written under: a comment by anyone else is never ours. */
  author: string;
  body: string;
  /** Whether a new comment is worth creating when none exists yet. */
  createIfAbsent: boolean;
  /** Our comment as already looked up (null: none); saves listing the comments again. */
  existing?: MarkedComment | null;
  /** False once a newer review has its own text to post; see settleCreatedComment. */
  stillCurrent?: () => Promise<boolean>;
  /**
   * The text to write over a comment holding `theirs` instead of `body`, so a review can keep what
   * another replica's text records (an override); `body` when absent. Asked with the text just
   * read, whether that is our comment found before editing or an older copy found after creating.
   */
  merge?: (theirs: string) => string;
  /** Taken before creating; when another review holds it, its comment is awaited and written instead (comment-creation.ts). */
  claimCreation?: CreationClaim;
  /** Where a failed clean-up of duplicates is reported; it never fails the upsert. */
  log?: Pick<Logger, 'warn'>;
}

/**
 * Keeps one comment per pull request: finds ours by its marker, edits it only when the text
 * changed (so a redelivered webhook writes nothing), creates it when absent. Only a creation can
 * race another replica's, so only then are the comments listed again to remove a duplicate.
 */
export async function upsertComment(octokit: GitHubClient, options: UpsertCommentOptions): Promise<CommentOutcome> {
  const { repo, issueNumber, marker, author } = options;
  // The last stop before GitHub: no known secret leaves in a comment.
  const body = clip(redactSecrets(options.body), MAX_COMMENT_CHARS, marker);
  const find = () => findMarkedComment(octokit, { repo, issueNumber, marker, author });
  let existing = options.existing === undefined ? await find() : options.existing;
  // Another review creating ours at this moment: its comment is written instead of a second one.
  const joined = !existing && options.createIfAbsent ? await claimOrFind(options.claimCreation, find, options.log) : null;
  if (joined) existing = joined;
  if (existing) {
    const text = merged(options, existing.body, body);
    const changed = !sameText(existing.body, text);
    // As after a lost creation race: a review no longer current leaves the winner's text alone.
    if (joined && changed && !(await (options.stillCurrent?.() ?? true))) return 'merged';
    const gone = changed && (await editGone(octokit, repo, existing.id, text));
    if (!gone) {
      // Duplicates an earlier race left behind, seen for free on the page that held ours.
      if (existing.duplicates?.length) await bestEffort(options, () => deleteComments(octokit, repo, existing.duplicates ?? []));
      if (joined) return 'merged';
      return changed ? 'updated' : 'unchanged';
    }
    // Deleted since it was read: the review is still owed a comment, so it is created again.
    options.log?.warn({ commentId: existing.id, number: issueNumber }, 'our comment was deleted during the review; creating it again');
  } else if (!options.createIfAbsent) return 'skipped';
  const created = await createOnce(octokit, { repo, issueNumber, body, author, find });
  const settled = await bestEffort(options, () =>
    settleCreatedComment(octokit, {
      repo,
      issueNumber,
      marker,
      author,
      created,
      body,
      ...(options.stillCurrent ? { stillCurrent: options.stillCurrent } : {}),
      ...(options.merge ? { merge: (theirs: string) => merged(options, theirs, body) } : {}),
    }),
  );
  return settled === 'merged' ? 'merged' : 'created';
}

/** Edits a comment; true when GitHub says it no longer exists (404, 410), which is not a failure here. */
async function editGone(octokit: GitHubClient, repo: RepoRef, id: number, body: string): Promise<boolean> {
  try {
    await octokit.rest.issues.updateComment({ ...repo, comment_id: id, body });
    return false;
  } catch (err) {
    const status = (err as { status?: unknown } | null)?.status;
    if (status === 404 || status === 410) return true;
    throw err;
  }
}

function merged(options: UpsertCommentOptions, theirs: string, body: string): string {
  return options.merge ? clip(options.merge(theirs), MAX_COMMENT_CHARS, options.marker) : body;
}

/** Our comment is posted either way; a duplicate left now is removed by the next review. */
async function bestEffort<T>(options: UpsertCommentOptions, task: () => Promise<T>): Promise<T | null> {
  try {
    return await task();
  } catch (err) {
    options.log?.warn({ err: describeFailure(err), number: options.issueNumber }, 'could not remove duplicate comments');
    return null;
  }
}

export interface MarkedComment {
  id: number;
  body: string;
  /** When GitHub last wrote it; null when the answer did not say. */
  updatedAt: string | null;
  /** Other comments of ours holding the marker on the page that held ours: left by a race. */
  duplicates?: number[];
}

export interface CommentLookup {
  repo: RepoRef;
  issueNumber: number;
  marker: string;
  /** Our own login: another bot (a workflow posting as `github-actions[bot]`) can write any text. */
  author: string;
}

/** Our comment on the issue or pull request: the oldest comment of ours holding the marker. */
export async function findMarkedComment(octokit: GitHubClient, lookup: CommentLookup): Promise<MarkedComment | null> {
  const { repo, issueNumber, marker, author } = lookup;
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  for await (const { data } of pages) {
    const marked = data.filter((c) => isMarkedBotComment(c, marker, author));
    // Pages run oldest first; within one, the lowest id is the survivor every replica agrees on.
    const found = marked.sort((a, b) => a.id - b.id)[0];
    if (!found) continue;
    const duplicates = marked.filter((c) => c.id !== found.id).map((c) => c.id);
    const updatedAt: string | null = found.updated_at;
    return { id: found.id, body: found.body ?? '', updatedAt, ...(duplicates.length > 0 ? { duplicates } : {}) };
  }
  return null;
}

function clip(body: string, max: number, marker: string): string {
  if (body.length <= max) return body;
  const note = `\n\n… (truncated)\n${marker}`;
  return body.slice(0, max - note.length) + note;
}
