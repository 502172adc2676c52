import type { GitHubClient, RepoRef } from './client.js';

/** GitHub's limit on an issue comment's body. */
const MAX_COMMENT_CHARS = 65_536;

export type CommentOutcome = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface UpsertCommentOptions {
  repo: RepoRef;
  issueNumber: number;
  /** Hidden text that marks our comment; `body` must contain it. */
  marker: string;
  body: string;
  /** Whether a new comment is worth creating when none exists yet. */
  createIfAbsent: boolean;
  /** Our comment as already looked up (null: none); saves listing the comments again. */
  existing?: MarkedComment | null;
}

/**
 * Keeps one comment per pull request: finds ours by its marker, edits it only when the text
 * changed (so a redelivered webhook writes nothing), creates it when absent.
 */
export async function upsertComment(
  octokit: GitHubClient,
  options: UpsertCommentOptions,
): Promise<CommentOutcome> {
  const { repo, issueNumber, marker } = options;
  const body = clip(options.body, MAX_COMMENT_CHARS, marker);
  const existing =
    options.existing === undefined ? await findMarkedComment(octokit, repo, issueNumber, marker) : options.existing;
  if (existing) {
    if (normalise(existing.body) === normalise(body)) return 'unchanged';
    await octokit.rest.issues.updateComment({ ...repo, comment_id: existing.id, body });
    return 'updated';
  }
  if (!options.createIfAbsent) return 'skipped';
  await octokit.rest.issues.createComment({ ...repo, issue_number: issueNumber, body });
  return 'created';
}

export interface MarkedComment {
  id: number;
  body: string;
}

/** Our comment on the issue or pull request: the first bot comment holding the marker. */
export async function findMarkedComment(
  octokit: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  marker: string,
): Promise<MarkedComment | null> {
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  for await (const { data } of pages) {
    // Only a bot's comment counts: a person quoting our marker must not have their comment edited.
    const found = data.find((c) => c.user?.type === 'Bot' && c.body?.includes(marker));
    if (found) return { id: found.id, body: found.body ?? '' };
  }
  return null;
}

function normalise(text: string): string {
  return text.replace(/\r\n/g, '\n').trimEnd();
}

function clip(body: string, max: number, marker: string): string {
  if (body.length <= max) return body;
  const note = `\n\n… (truncated)\n${marker}`;
  return body.slice(0, max - note.length) + note;
}
