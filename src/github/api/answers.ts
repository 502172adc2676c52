import { z } from 'zod';
import { GpuJustifyError } from '../../domain/errors.js';

/**
 * GitHub answered with something its API does not document (a string where JSON was expected, a
 * body the JSON parser could not take, a field missing or of the wrong type). Named by the file
 * or listing it was for, so the review says which input it could not read, never crashes, and
 * never takes the odd answer for "no such file".
 */
export class GitHubAnswerError extends GpuJustifyError {
  override readonly kind = 'github-bad-answer';

  constructor(
    /** The file or listing the answer was for. */
    readonly file: string,
    why: string,
    options: { cause?: unknown } = {},
  ) {
    super(`GitHub's answer for ${file} is not what its API documents (${why}); ${file} could not be read`, options);
    this.name = 'GitHubAnswerError';
  }
}

const fileEntry = z.object({
  type: z.literal('file'),
  sha: z.string().min(1),
  size: z.number().int().nonnegative(),
  encoding: z.string().optional(),
  content: z.string().optional(),
});
const linkEntry = z.object({ type: z.literal('symlink'), target: z.string() });
const submoduleEntry = z.object({ type: z.literal('submodule'), sha: z.string().min(1) });
const otherEntry = z.object({ type: z.literal('dir') });

export { MAX_LINK_HOPS, linkTarget } from '../../domain/files.js';

/** What the contents API says of one path. */
export type ContentAnswer =
  | { kind: 'file'; sha: string; size: number; encoding: string | null; content: string | null }
  | { kind: 'symlink'; target: string }
  | { kind: 'submodule'; sha: string }
  | { kind: 'none' };

export function parseContentAnswer(path: string, data: unknown): ContentAnswer {
  // A directory is listed as an array of its entries: no file here.
  if (Array.isArray(data)) return { kind: 'none' };
  if (typeof data !== 'object' || data === null) throw new GitHubAnswerError(path, `a ${typeof data} where a JSON object was expected`);
  const file = fileEntry.safeParse(data);
  if (file.success) {
    const { sha, size, encoding, content } = file.data;
    return { kind: 'file', sha, size, encoding: encoding ?? null, content: content ?? null };
  }
  const link = linkEntry.safeParse(data);
  if (link.success) return { kind: 'symlink', target: link.data.target };
  const submodule = submoduleEntry.safeParse(data);
  if (submodule.success) return { kind: 'submodule', sha: submodule.data.sha };
  if (otherEntry.safeParse(data).success) return { kind: 'none' };
  throw new GitHubAnswerError(path, describeIssue(file.error));
}

/**
 * What the contents API says stands at a directory's path: the names it lists, or what is there
 * instead. `link`: a symbolic link (GitHub answers one leading to a file with that file, under
 * the file's own path); `other`: a file, or nothing GitHub lists. Nothing is served below any
 * but a directory.
 */
export type DirectoryAnswer =
  { kind: 'dir'; names: ReadonlySet<string> } | { kind: 'submodule'; sha: string } | { kind: 'link' } | { kind: 'other' };

const listedEntry = z.object({ name: z.string().min(1) });
const answeredPath = z.object({ path: z.string() });

export function parseDirectoryAnswer(dir: string, data: unknown): DirectoryAnswer {
  if (Array.isArray(data)) {
    const names = new Set<string>();
    for (const item of data) {
      const entry = listedEntry.safeParse(item);
      if (!entry.success) throw new GitHubAnswerError(dir, describeIssue(entry.error));
      names.add(entry.data.name);
    }
    return { kind: 'dir', names };
  }
  const answer = parseContentAnswer(dir, data);
  switch (answer.kind) {
    case 'submodule':
      return { kind: 'submodule', sha: answer.sha };
    case 'symlink':
      return { kind: 'link' };
    case 'file': {
      const at = answeredPath.safeParse(data);
      return at.success && at.data.path.replace(/^\/+/, '') !== dir ? { kind: 'link' } : { kind: 'other' };
    }
    case 'none':
      return { kind: 'other' };
  }
}

const blobAnswer = z.object({ content: z.string(), encoding: z.string() });

export function parseBlobAnswer(path: string, data: unknown): { content: string; encoding: string } {
  const blob = blobAnswer.safeParse(data);
  if (!blob.success) {
    throw new GitHubAnswerError(
      path,
      typeof data === 'object' && data !== null ? describeIssue(blob.error) : `a ${typeof data} where a JSON object was expected`,
    );
  }
  return blob.data;
}

const listedFile = z.object({
  filename: z.string().min(1),
  status: z.string(),
  sha: z.string().nullable().optional(),
  patch: z.string().nullable().optional(),
  previous_filename: z.string().nullable().optional(),
});
export type ListedFileAnswer = z.infer<typeof listedFile>;

export function parseListedFiles(what: string, data: unknown): ListedFileAnswer[] {
  if (!Array.isArray(data)) throw new GitHubAnswerError(what, `a ${typeof data} where a list was expected`);
  const files = z.array(listedFile).safeParse(data);
  if (!files.success) throw new GitHubAnswerError(what, describeIssue(files.error));
  return files.data;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the answer';
  return `${where}: ${issue.message}`;
}
