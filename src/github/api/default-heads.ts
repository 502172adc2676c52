import { z } from 'zod';
import { GitHubAnswerError } from './answers.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { GraphqlBlobs } from './graphql-blobs.js';
import { statusOf } from './tree-reader.js';

/**
 * What a repository's default branch points at:
 * - `commit`: the commit every read of the repository in this review goes through;
 * - `unseen`: GitHub answers 404 for the repository (absent, or not in the App's installation);
 * - `empty`: the repository is there and has no commit yet (GitHub's 409), so it holds no file.
 */
export type DefaultHead = { kind: 'commit'; sha: string } | { kind: 'unseen' } | { kind: 'empty' };

const commitSha = z.string().regex(/^[0-9a-f]{40}$/);

/**
 * The default-branch commit of each repository an inherited policy is read from, asked once per
 * policy load. Reading a branch by name in several requests (the file, its directory, a link's
 * target, the next `_extends` layer) lets a push land between them and mix two states of the
 * branch into a policy neither commit holds; every read goes through the commit resolved here
 * instead. Other failures (403, 5xx after retries, an answer that is no commit id) are thrown for
 * the caller to name with the access it needs.
 */
export class DefaultHeads {
  readonly #known = new Map<string, Promise<DefaultHead>>();

  constructor(
    private readonly octokit: GitHubClient,
    /** A query that already asked for the repository tells GitHub's 404 without another request. */
    private readonly blobs: GraphqlBlobs | null = null,
  ) {}

  of(repo: RepoRef): Promise<DefaultHead> {
    const key = `${repo.owner}/${repo.repo}`.toLowerCase();
    let pending = this.#known.get(key);
    if (!pending) {
      pending = this.#resolve(repo);
      this.#known.set(key, pending);
    }
    return pending;
  }

  async #resolve(repo: RepoRef): Promise<DefaultHead> {
    if (this.blobs?.repositorySeen(repo) === false) return { kind: 'unseen' };
    try {
      // `HEAD` is the default branch; the `sha` media type answers with the commit id alone.
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
        ...repo,
        ref: 'HEAD',
        mediaType: { format: 'sha' },
      });
      // Typed as the JSON commit; with the `sha` media type GitHub sends the id as text (bytes
      // where the client does not take the content type for text).
      const body: unknown = data;
      const text = body instanceof ArrayBuffer ? new TextDecoder().decode(body) : body;
      const sha = commitSha.safeParse(typeof text === 'string' ? text.trim() : text);
      if (!sha.success) throw new GitHubAnswerError(`${repo.owner}/${repo.repo}`, 'the default branch resolved to no commit id');
      return { kind: 'commit', sha: sha.data };
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) return { kind: 'unseen' };
      if (status === 409) return { kind: 'empty' };
      throw err;
    }
  }
}
