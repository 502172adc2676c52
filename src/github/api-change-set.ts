import type { ChangeSet, TreeReader } from '../domain/files.js';
import type { GitHubClient, PullRequestTarget, RepoRef } from './client.js';
import { GitHubApiError } from './errors.js';

/**
 * One side of a pull request read through the contents API at a fixed commit. PR code is never
 * checked out or run; each path is fetched at most once per reader.
 */
export class ApiTreeReader implements TreeReader {
  readonly label: string;
  readonly #cache = new Map<string, Promise<string | null>>();

  constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    /** A commit SHA; null reads the default branch (an organisation's shared config). */
    private readonly ref: string | null,
  ) {
    this.label = ref === null ? `${repo.owner}/${repo.repo}` : `${repo.owner}/${repo.repo}@${ref}`;
  }

  read(path: string): Promise<string | null> {
    const key = path.replace(/^\/+/, '');
    let pending = this.#cache.get(key);
    if (!pending) {
      pending = this.#fetch(key);
      this.#cache.set(key, pending);
    }
    return pending;
  }

  async #fetch(path: string): Promise<string | null> {
    let data: unknown;
    try {
      const ref = this.ref === null ? {} : { ref: this.ref };
      ({ data } = await this.octokit.rest.repos.getContent({ ...this.repo, path, ...ref }));
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw GitHubApiError.from(err) ?? err;
    }
    const entry = parseContentEntry(data);
    if (!entry) return null; // a directory, symlink or submodule is not a file we can read
    if (entry.encoding === 'base64' && entry.content !== '') return decodeBase64(entry.content);
    // Over 1 MB the contents API leaves `content` empty (encoding "none"); the blob API serves
    // files up to 100 MB.
    if (entry.size === 0) return '';
    const blob = await this.octokit.rest.git.getBlob({ ...this.repo, file_sha: entry.sha }).then(
      (res) => res.data,
      (err: unknown) => {
        throw GitHubApiError.from(err) ?? err;
      },
    );
    return blob.encoding === 'base64' ? decodeBase64(blob.content) : blob.content;
  }
}

/** The pull request's two sides and the paths its diff touches (old names of renames too). */
export class ApiChangeSet implements ChangeSet {
  readonly base: ApiTreeReader;
  readonly head: ApiTreeReader;
  #paths: Promise<string[]> | null = null;

  constructor(
    private readonly octokit: GitHubClient,
    private readonly target: PullRequestTarget,
  ) {
    this.base = new ApiTreeReader(octokit, target.base, target.baseSha);
    this.head = new ApiTreeReader(octokit, target.head, target.headSha);
  }

  changedPaths(): Promise<string[]> {
    this.#paths ??= this.#listPaths();
    return this.#paths;
  }

  async #listPaths(): Promise<string[]> {
    const files = await this.octokit.paginate(this.octokit.rest.pulls.listFiles, {
      ...this.target.base,
      pull_number: this.target.number,
      per_page: 100,
    });
    const paths = new Set<string>();
    for (const file of files) {
      // A rename's old path still holds the capacity the base side declared.
      if (file.previous_filename) paths.add(file.previous_filename);
      paths.add(file.filename);
    }
    return [...paths];
  }
}

interface ContentEntry {
  sha: string;
  size: number;
  content: string;
  encoding: string;
}

function parseContentEntry(data: unknown): ContentEntry | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const d = data as Record<string, unknown>;
  if (d.type !== 'file' || typeof d.sha !== 'string') return null;
  return {
    sha: d.sha,
    size: typeof d.size === 'number' ? d.size : 0,
    content: typeof d.content === 'string' ? d.content : '',
    encoding: typeof d.encoding === 'string' ? d.encoding : 'none',
  };
}

function decodeBase64(content: string): string {
  return Buffer.from(content, 'base64').toString('utf8');
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
