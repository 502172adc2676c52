import { z } from 'zod';
import { statusOf } from '../api/index.js';
import type { GitHubClient, RepoRef } from '../api/index.js';
import { parseCommand } from './command-parser.js';
import { GitHubApiError } from '../api/index.js';

/** An override command as granted: the comment that said it, by whom, and what it said. */
export interface GrantedCommand {
  commentId: number;
  by: string;
  reason: string;
}

const CommentAnswer = z.object({
  id: z.number(),
  body: z.string().nullish(),
  user: z.object({ login: z.string() }).nullable(),
});

/**
 * Why the grantor's command comment no longer stands, or null when it does. An override is only
 * as good as the comment that granted it: deleted, rewritten by someone else, or edited into
 * something other than the same override, it grants nothing any more. Read through the API on
 * each review that carries the override, never from the webhook that first delivered it.
 */
export async function commandNoLongerStands(octokit: GitHubClient, repo: RepoRef, granted: GrantedCommand): Promise<string | null> {
  let data: unknown;
  try {
    ({ data } = await octokit.rest.issues.getComment({ ...repo, comment_id: granted.commentId }));
  } catch (err) {
    if (statusOf(err) === 404 || statusOf(err) === 410) return 'the override command comment was deleted';
    throw GitHubApiError.from(err) ?? err;
  }
  const parsed = CommentAnswer.safeParse(data);
  // An answer we cannot read is not evidence that the grant still stands.
  if (!parsed.success) return 'the override command comment could not be read back';
  const { user, body } = parsed.data;
  if (user === null || user.login.toLowerCase() !== granted.by.toLowerCase()) {
    return 'the override command comment is not written by its grantor';
  }
  const command = parseCommand(body ?? '');
  if (command?.kind !== 'override' || command.reason !== granted.reason) {
    return 'the override command comment was edited since it was granted';
  }
  return null;
}
