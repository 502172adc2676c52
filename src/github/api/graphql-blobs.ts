import { z } from 'zod';
import { GitHubAnswerError } from './answers.js';
import type { GitHubClient, Logger, RepoRef } from './client.js';
import { describeFailure } from './errors.js';
import { chunksByBytes, GRAPHQL_WHOLE_BYTES, MAX_ANSWER_BYTES, sizeOf } from './graphql-sizes.js';
import {
  aliasedNode,
  answerOf,
  answerShape,
  blobQuery,
  keyOf,
  LINK_SHAPED_MAX,
  missingRepositories,
  treeOf,
} from './graphql-blob-query.js';
import type { Asked, BlobAnswer, BlobAt, TreeAnswer } from './graphql-blob-query.js';

/**
 * Blobs per query. GitHub's limits are on nodes (500,000, far above a query without connections)
 * and on time (10 s); each `Blob.text` is cut at 512,000 bytes. 250 blobs keep an answer of usual
 * manifests (a few KB each) around a megabyte and the query's own text, one variable per blob,
 * around 30 KB; a PR with more changed files makes several queries, sent together. The sizes are
 * not known before asking (the file list gives none), so the chunk is by count.
 */
const MAX_BLOBS_PER_QUERY = 250;

type Settle = { resolve: (answer: BlobAnswer) => void; reject: (err: unknown) => void };

type Pending =
  | (BlobAt & { tree?: false; resolve: (answer: BlobAnswer) => void; reject: (err: unknown) => void })
  | (BlobAt & { tree: true; resolve: (answer: TreeAnswer) => void; reject: (err: unknown) => void });

/**
 * How long a GraphQL failure sends every review of the same GitHub to REST: a failing endpoint
 * costs each review the client's retries (seconds) before its fall-back, so later reviews skip it.
 */
const FAILED_FOR_MS = 10 * 60_000;
const failedUntil = new Map<string, number>();

/** Forgets every failure seen: for a process that starts talking to a new GitHub (the tests' fakes). */
export function forgetGraphqlFailures(): void {
  failedUntil.clear();
}

function endpointOf(octokit: GitHubClient): string {
  const base = (octokit.request as { endpoint?: { DEFAULTS?: { baseUrl?: unknown } } }).endpoint?.DEFAULTS?.baseUrl;
  return typeof base === 'string' ? base : '';
}

/**
 * Reads files through GitHub's GraphQL API, many per request: every `load` asked in one turn of
 * the event loop (and every `prefetch`) goes into one query per repository set, an alias per
 * blob, chunked at `MAX_BLOBS_PER_QUERY`. Once a query fails (a GitHub Enterprise Server without
 * GraphQL, a 5xx, an `errors` array), every later load of this review, and of every review of
 * the same GitHub in the next 10 minutes, answers `rest`; logged once per failure.
 */
export class GraphqlBlobs {
  readonly #answers = new Map<string, Promise<BlobAnswer>>();
  readonly #trees = new Map<string, Promise<TreeAnswer>>();
  #queue: Pending[] = [];
  readonly #spare = new Map<string, Asked>();
  /** Repositories an answer has shown (true) or answered null for, GitHub's 404 (false). */
  readonly #repositories = new Map<string, boolean>();
  #scheduled = false;
  #failed = false;
  /** Queries sent, for the review's log. */
  queries = 0;

  /** Text bytes the prefetches asked for so far, against `prefetchBytes`. */
  #prefetchedBytes = 0;

  constructor(
    private readonly octokit: GitHubClient,
    /** Where the fall-back to REST is logged; the client's own log when absent. */
    private readonly log: Logger | null = null,
    /** Text bytes all prefetches ask for at most (the review's read budget); the rest is read when asked. */
    private readonly prefetchBytes = Number.POSITIVE_INFINITY,
  ) {
    this.#failed = (failedUntil.get(endpointOf(octokit)) ?? 0) > Date.now();
  }

  /** Whether an answer showed the repository (false: GitHub answered it as not found); undefined when none said. */
  repositorySeen(repo: RepoRef): boolean | undefined {
    return this.#repositories.get(`${repo.owner}/${repo.repo}`.toLowerCase());
  }

  /** Whether GraphQL has failed in this review: every read then goes through REST. */
  get failed(): boolean {
    return this.#failed;
  }

  load(at: BlobAt): Promise<BlobAnswer> {
    const key = keyOf(at);
    let pending = this.#answers.get(key);
    if (!pending) {
      pending = this.#failed
        ? Promise.resolve<BlobAnswer>({ kind: 'rest' })
        : new Promise<BlobAnswer>((resolve, reject) => {
            this.#queue.push({ ...at, resolve, reject });
            this.#schedule();
          });
      this.#answers.set(key, pending);
    }
    return pending;
  }

  /** A directory's entries, when asked for before (see `prefetchIfRoom`); undefined otherwise. */
  knownTree(at: BlobAt): Promise<TreeAnswer> | undefined {
    // Offered but not yet sent: asked for now, so it still joins the query about to go.
    if (this.#spare.delete(`tree:${keyOf(at)}`)) this.#loadTree(at);
    return this.#trees.get(keyOf(at));
  }

  #loadTree(at: BlobAt): void {
    const key = keyOf(at);
    if (this.#trees.has(key)) return;
    const pending = new Promise<TreeAnswer>((resolve, reject) => {
      this.#queue.push({ ...at, tree: true, resolve, reject });
      this.#schedule();
    });
    // A failure is reported to whoever lists the directory, not here.
    pending.catch(() => undefined);
    this.#trees.set(key, pending);
  }

  /** Asks for directories a review is about to list, so they share the blobs' queries; their answers are kept. */
  prefetchTrees(trees: Iterable<BlobAt>): void {
    if (this.#failed) return;
    for (const at of trees) this.#loadTree(at);
  }

  /**
   * Asks for blobs a review is about to read, so they share queries; their answers are kept. More
   * than fit in MAX_ANSWER_BYTES (or in what `prefetchBytes` has left) at GraphQL's whole size
   * are sized first (see `#sized`).
   */
  prefetch(blobs: Iterable<BlobAt>): void {
    const fresh = [...new Map([...blobs].map((at): [string, BlobAt] => [keyOf(at), at])).values()].filter(
      (at) => !this.#answers.has(keyOf(at)),
    );
    // As many as cannot answer more than one query's bytes, nor more than the prefetches have left,
    // are asked whole at once, counted at the most they could answer.
    const worst = fresh.length * GRAPHQL_WHOLE_BYTES;
    if (this.#failed || worst <= Math.min(MAX_ANSWER_BYTES, this.prefetchBytes - this.#prefetchedBytes)) {
      this.#prefetchedBytes += this.#failed ? 0 : worst;
      // A failure is reported to whoever reads the file, not here.
      for (const at of fresh) this.load(at).catch(() => undefined);
      return;
    }
    const pending = fresh.map((at): BlobAt & Settle => {
      let settle: Settle = { resolve: () => undefined, reject: () => undefined };
      const promise = new Promise<BlobAnswer>((resolve, reject) => (settle = { resolve, reject }));
      promise.catch(() => undefined);
      this.#answers.set(keyOf(at), promise);
      return { ...at, ...settle };
    });
    for (let i = 0; i < pending.length; i += MAX_BLOBS_PER_QUERY) void this.#sized(pending.slice(i, i + MAX_BLOBS_PER_QUERY));
  }

  /**
   * Blobs' sizes first, then their text in queries of at most MAX_ANSWER_BYTES each, while the
   * prefetches' bytes stay within `prefetchBytes`. A text blob past them is answered with its size
   * and no text (`withheld`), so nothing of it is downloaded unless it is read; one small enough
   * to be a link is left to REST, which tells links apart.
   */
  async #sized(chunk: (BlobAt & Settle)[]): Promise<void> {
    const answer = await this.#query(chunk.map((p) => ({ repo: p.repo, ref: p.ref, path: p.path, sizeOnly: true })));
    if (answer === null) return chunk.forEach((p) => p.resolve({ kind: 'rest' }));
    const texts: (BlobAt & Settle & { size: number })[] = [];
    chunk.forEach((p, i) => {
      try {
        const [repoAlias, blobAlias] = answer.aliases[i] ?? ['', ''];
        const node = aliasedNode(p.path, answer.data[repoAlias], blobAlias, z.unknown(), 'file');
        const sized = node === null ? ({ kind: 'answered', answer: { kind: 'absent' } } as const) : sizeOf(node);
        if (sized.kind === 'answered') return p.resolve(sized.answer);
        const { sha, size, binary } = sized;
        if (binary || size > GRAPHQL_WHOLE_BYTES) return p.resolve({ kind: 'file', sha, size, text: null });
        if (this.#prefetchedBytes + size <= this.prefetchBytes) {
          this.#prefetchedBytes += size;
          return texts.push({ ...p, size });
        }
        p.resolve(size <= LINK_SHAPED_MAX ? { kind: 'rest' } : { kind: 'file', sha, size, text: null, withheld: true });
      } catch (err) {
        p.reject(err instanceof GitHubAnswerError ? err : new GitHubAnswerError(p.path, (err as Error).message));
      }
    });
    for (const part of chunksByBytes(texts, MAX_BLOBS_PER_QUERY, MAX_ANSWER_BYTES)) void this.#send(part);
  }

  /**
   * Blobs a review may read: sent only where the next queries have room left (they cost bytes,
   * never a request of their own); one left out is asked for when it is read, like any other.
   */
  prefetchIfRoom(blobs: Iterable<BlobAt>, trees: Iterable<BlobAt> = []): void {
    if (this.#failed) return;
    for (const at of blobs) if (!this.#answers.has(keyOf(at))) this.#spare.set(keyOf(at), at);
    for (const at of trees) if (!this.#trees.has(keyOf(at))) this.#spare.set(`tree:${keyOf(at)}`, { ...at, tree: true });
    if (this.#spare.size > 0) this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // One turn: the loads a caller starts together (detection reads eight files at a time) share a query.
    setImmediate(() => {
      this.#scheduled = false;
      const room = (MAX_BLOBS_PER_QUERY - (this.#queue.length % MAX_BLOBS_PER_QUERY)) % MAX_BLOBS_PER_QUERY;
      // Directories first: a listing they answer saves a call for sure, a spare base side maybe.
      const spare = [...this.#spare.values()]
        .filter((at) => !(at.tree ? this.#trees : this.#answers).has(keyOf(at)))
        .sort((a, b) => Number(b.tree ?? false) - Number(a.tree ?? false));
      this.#spare.clear();
      if (this.#queue.length > 0)
        for (const at of spare.slice(0, room)) {
          if (at.tree) this.#loadTree(at);
          else this.prefetch([at]);
        }
      const queue = this.#queue;
      this.#queue = [];
      for (let i = 0; i < queue.length; i += MAX_BLOBS_PER_QUERY) void this.#send(queue.slice(i, i + MAX_BLOBS_PER_QUERY));
    });
  }

  async #send(chunk: Pending[]): Promise<void> {
    const answer = await this.#query(chunk);
    if (answer === null) return chunk.forEach((p) => p.resolve({ kind: 'rest' }));
    chunk.forEach((p, i) => {
      const [repoAlias, blobAlias] = answer.aliases[i] ?? ['', ''];
      try {
        if (p.tree) p.resolve(treeOf(p.path, answer.data[repoAlias], blobAlias));
        else p.resolve(answerOf(p.path, answer.data[repoAlias], blobAlias));
      } catch (err) {
        p.reject(err);
      }
    });
  }

  /** One query's answer by repository alias, with each asked object's aliases; null once GraphQL failed. */
  async #query(chunk: readonly Asked[]): Promise<{ data: z.infer<typeof answerShape>; aliases: [string, string][] } | null> {
    if (this.#failed) return null;
    const { query, variables, aliases } = blobQuery(chunk);
    let data: unknown;
    try {
      this.queries += 1;
      data = await this.octokit.graphql<unknown>(query, variables);
    } catch (err) {
      const partial = missingRepositories(err);
      if (partial === null) {
        this.#fail(err);
        return null;
      }
      data = partial;
    }
    const parsed = answerShape.safeParse(data);
    if (!parsed.success) {
      this.#fail(new Error('the GraphQL answer is not a map of repositories'));
      return null;
    }
    chunk.forEach((p, i) => {
      const repository = parsed.data[aliases[i]?.[0] ?? ''];
      if (repository !== undefined) this.#repositories.set(`${p.repo.owner}/${p.repo.repo}`.toLowerCase(), repository !== null);
    });
    return { data: parsed.data, aliases };
  }

  #fail(err: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    failedUntil.set(endpointOf(this.octokit), Date.now() + FAILED_FOR_MS);
    const message = 'GraphQL reads failed; reading files through REST for this review and the next 10 minutes';
    if (this.log) this.log.warn({ err: describeFailure(err) }, message);
    else this.octokit.log.warn(`${message}: ${describeFailure(err)}`);
  }
}
