import { createHash } from 'node:crypto';
import type { FakeGitHub, FakeRequest, FakeResponse } from './fake-github.js';
import { createCheckRun, listCheckRuns, updateCheckRun } from './fake-repo-checks.js';
import { customMediaType } from './fake-media-types.js';
import { contentsAnswer, notFound } from './fake-repo-contents.js';
import { changedFiles, PATCH_LIMIT } from './fake-repo-files.js';
import type { Sides } from './fake-repo-files.js';
import { createReview, createReviewComment, deleteReviewComment } from './fake-repo-reviews.js';
import type { ReviewContext } from './fake-repo-reviews.js';
import { gitBlobSha, setSpecial, specialOf, treeAnswer } from './fake-repo-trees.js';
import type { FakeSpecial } from './fake-repo-trees.js';
import { graphqlAnswer } from './fake-graphql.js';

/**
 * The GitHub state one pull request needs, served through a FakeGitHub: files at commits, the
 * PR's file list (with each file's patch), its issue comments, line comments, reviews and check
 * runs, answered the way the REST API does (base64 contents, empty content over 1 MB, blobs as
 * JSON or raw bytes by the `Accept` header, Git trees, Link-header pagination).
 */

export type {
  CheckRunState,
  PullRequestState,
  RepoId,
  StoredComment,
  StoredReaction,
  StoredReview,
  StoredReviewComment,
} from './fake-repo-state.js';
import type {
  CheckRunState,
  PullRequestState,
  RepoId,
  StoredComment,
  StoredReaction,
  StoredReview,
  StoredReviewComment,
} from './fake-repo-state.js';

export { CONTENTS_LIMIT } from './fake-repo-contents.js';

export class FakeRepo {
  readonly comments: StoredComment[] = [];
  readonly checkRuns: CheckRunState[] = [];
  readonly reviewComments: StoredReviewComment[] = [];
  readonly reviews: StoredReview[] = [];
  readonly reactions: StoredReaction[] = [];
  /** login → role (`read`, `triage`, `write`, `maintain`, `admin`); others are not collaborators. */
  readonly roles: Record<string, string> = {};
  /** team slug → active member logins, in the base repository's organisation. */
  readonly teams: Record<string, string[]> = {};
  /** Who comments created through the API are written by: the App's bot, or the Action's. */
  commentAuthor = 'gpu-justify[bot]';
  /** What `GET /pulls/:n` reports as the head: tests move it to simulate a push. */
  currentHeadSha: string;
  perPage = 100;
  /** Bytes of a file's patch above which the file list leaves it out. */
  patchLimit = PATCH_LIMIT;
  /** Entries a recursive Git tree answer holds; past it GitHub cuts the answer and says `truncated`. */
  treeEntryLimit = 100_000;
  /** Files the PR's file list gives at most, as GitHub's does; `changed_files` still counts them all. */
  listedFilesLimit = 3000;
  /** False: a GitHub Enterprise Server without the GraphQL API, answering POST /graphql with 404. */
  graphql = true;
  /** Merge queue groups by head commit: what the comparison of their base and head lists. */
  readonly #groups = new Map<string, { baseSha: string; baseFiles: Record<string, string>; headFiles: Record<string, string> }>();
  #nextId = 1000;
  readonly #trees: Map<string, Record<string, string>>;
  readonly #blobs: Map<string, string>;

  /**
   * `sharing`: a repository already served on the same fake, whose Git data this one joins. The
   * Git routes (contents, trees, blobs, GraphQL) are the fake's one set, so two pull requests
   * served at once must keep their trees together; each needs its own repository, since a
   * repository's check runs are one route.
   */
  constructor(
    private readonly fake: FakeGitHub,
    readonly pr: PullRequestState,
    options: { sharing?: FakeRepo } = {},
  ) {
    this.#trees = options.sharing ? options.sharing.#trees : new Map<string, Record<string, string>>();
    this.#blobs = options.sharing ? options.sharing.#blobs : new Map<string, string>();
    this.currentHeadSha = pr.headSha;
    this.addTree(pr.base, pr.baseSha, pr.baseFiles, pr.baseSpecial);
    this.addTree(pr.head ?? pr.base, pr.headSha, pr.headFiles, pr.headSpecial);
  }

  /** Files of `repo` at `ref` (a SHA, or `HEAD` for the default branch), with its links and submodules. */
  addTree(repo: RepoId, ref: string, files: Record<string, string>, special: Record<string, FakeSpecial> = {}): this {
    setSpecial(files, special);
    this.#trees.set(treeKey(repo, ref), files);
    // A blob is GitHub's by its id whichever API named it (a GraphQL `oid` as much as a contents `sha`).
    const blobs = [...Object.values(files), ...Object.values(special).flatMap((e) => ('link' in e ? [e.link] : []))];
    for (const text of blobs) this.#blobs.set(`${repo.owner}/${repo.repo}/${gitBlobSha(Buffer.from(text, 'utf8'))}`, text);
    return this;
  }

  /** A merge queue's group: its base and head commits, as trees of the base repository. */
  addMergeGroup(baseSha: string, baseFiles: Record<string, string>, headSha: string, headFiles: Record<string, string>): this {
    this.addTree(this.pr.base, baseSha, baseFiles);
    this.addTree(this.pr.base, headSha, headFiles);
    this.#groups.set(headSha, { baseSha, baseFiles, headFiles });
    return this;
  }

  /** Declares the routes a pull-request review uses. */
  serve(): this {
    const { base, number } = this.pr;
    const prefix = `/repos/${base.owner}/${base.repo}`;
    this.fake
      .on('GET', '/repos/:owner/:repo', (req) => this.#repository(req))
      .on('GET', '/repos/:owner/:repo/contents/*path', (req) => this.#contents(req))
      .on('GET', '/repos/:owner/:repo/git/blobs/:sha', (req) => this.#blob(req))
      .on('GET', '/repos/:owner/:repo/git/trees/:sha', (req) => this.#tree(req))
      .on('GET', '/repos/:owner/:repo/commits/:ref', (req) => this.#commit(req))
      .on('POST', '/graphql', (req) => this.#graphql(req))
      .on('GET', `${prefix}/pulls/${number}/files`, (req) => this.#page(req, this.#changedFiles().slice(0, this.listedFilesLimit)))
      .on('GET', `${prefix}/compare/*basehead`, (req) => this.#compare(req))
      .on('GET', `${prefix}/pulls/${number}`, () => ({ body: this.#pullRequest() }))
      .on('GET', `${prefix}/issues/${number}/comments`, (req) => this.#page(req, this.comments))
      .on('POST', `${prefix}/issues/${number}/comments`, (req) => this.#createComment(req))
      .on('GET', `${prefix}/issues/comments/:id`, (req) => this.#getComment(req))
      .on('PATCH', `${prefix}/issues/comments/:id`, (req) => this.#updateComment(req))
      .on('DELETE', `${prefix}/issues/comments/:id`, (req) => this.#deleteComment(req))
      .on('POST', `${prefix}/check-runs`, (req) => createCheckRun(this.checkRuns, this.#nextId++, req))
      .on('PATCH', `${prefix}/check-runs/:id`, (req) => updateCheckRun(this.checkRuns, req))
      .on('GET', `${prefix}/commits/:ref/check-runs`, (req) => listCheckRuns(this.checkRuns, req))
      .on('GET', `${prefix}/pulls/${number}/comments`, (req) => this.#page(req, this.reviewComments))
      .on('POST', `${prefix}/pulls/${number}/comments`, (req) => createReviewComment(this.#reviewContext(), req))
      .on('POST', `${prefix}/pulls/${number}/reviews`, (req) => createReview(this.#reviewContext(), req))
      .on('DELETE', `${prefix}/pulls/comments/:id`, (req) => deleteReviewComment(this.#reviewContext(), req))
      .on('POST', `${prefix}/issues/comments/:id/reactions`, (req) => this.#react(req))
      .on('GET', `${prefix}/collaborators/:user/permission`, (req) => this.#permission(req))
      .on('GET', `/orgs/${base.owner}/teams/:team/memberships/:user`, (req) => this.#membership(req))
      .on('GET', `${prefix}/commits/:sha/pulls`, (req) => this.#pullsOfCommit(req));
    return this;
  }

  /** A server without the GraphQL API: the App's reads go through REST, where a test's faults wait. */
  withoutGraphql(): this {
    this.graphql = false;
    return this;
  }

  /** A new head commit with these files: what a push to the pull request's branch does. */
  push(headSha: string, headFiles: Record<string, string>, headSpecial: Record<string, FakeSpecial> = {}): this {
    this.pr.headSha = headSha;
    this.pr.headFiles = headFiles;
    this.pr.headSpecial = headSpecial;
    this.currentHeadSha = headSha;
    return this.addTree(this.pr.head ?? this.pr.base, headSha, headFiles, headSpecial);
  }

  /** A suggestion or line comment someone (or an earlier run) already left. */
  addReviewComment(comment: Omit<StoredReviewComment, 'id' | 'side'>): StoredReviewComment {
    const stored = { id: this.#nextId++, side: 'RIGHT', ...comment };
    this.reviewComments.push(stored);
    return stored;
  }

  /** A comment someone (or an earlier run) already left. */
  addComment(body: string, type: 'Bot' | 'User' = 'Bot', login = type === 'Bot' ? 'gpu-justify[bot]' : 'octocat'): StoredComment {
    const at = new Date().toISOString();
    const comment = { id: this.#nextId++, body, user: { login, type }, created_at: at, updated_at: at };
    this.comments.push(comment);
    return comment;
  }

  /** A repository is there for the App to see when some commit of it is: else GitHub's 404. */
  #repository(req: FakeRequest): FakeResponse {
    const { owner = '', repo = '' } = req.params;
    if (![...this.#trees.keys()].some((key) => key.startsWith(treeKey({ owner, repo }, '')))) return notFound();
    return { body: { id: 1, name: repo, full_name: `${owner}/${repo}`, owner: { login: owner }, private: true, default_branch: 'main' } };
  }

  /**
   * A commit by id, or `HEAD` (the default branch) resolved to one: the default branch's id is
   * derived from its files when asked, and its files kept under it, so a read at that id still
   * sees them after the branch moves (`addTree(repo, 'HEAD', …)` again is a push to it).
   */
  #commit(req: FakeRequest): FakeResponse {
    const { owner = '', repo = '', ref = '' } = req.params;
    const files = this.#trees.get(treeKey({ owner, repo }, ref));
    if (files === undefined)
      return this.#repository(req).status === 404 ? notFound() : { status: 422, body: { message: `No commit found for SHA: ${ref}` } };
    const sha =
      ref === 'HEAD'
        ? createHash('sha1')
            .update(`${owner}/${repo}\0${JSON.stringify([files, specialOf(files)])}`)
            .digest('hex')
        : ref;
    // The same file set, not a copy: its links and submodules are known by the object.
    this.#trees.set(treeKey({ owner, repo }, sha), files);
    if (customMediaType(req.headers.accept) === 'sha')
      return { raw: Buffer.from(sha), headers: { 'content-type': 'application/vnd.github.sha; charset=utf-8' } };
    return { body: { sha, commit: { message: 'a commit' } } };
  }

  #graphql(req: FakeRequest): FakeResponse {
    if (!this.graphql) return notFound();
    return graphqlAnswer(
      req,
      {
        filesAt: (owner, repo, ref) => this.#trees.get(treeKey({ owner, repo }, ref)),
        exists: (owner, repo) => [...this.#trees.keys()].some((key) => key.startsWith(treeKey({ owner, repo }, ''))),
      },
      (why) => this.fake.errors.push(`POST /graphql: invalid query: ${why}`),
    );
  }

  #blob(req: FakeRequest): FakeResponse {
    const { owner = '', repo = '', sha = '' } = req.params;
    const text = this.#blobs.get(`${owner}/${repo}/${sha}`);
    if (text === undefined) return notFound();
    const bytes = Buffer.from(text, 'utf8');
    if (customMediaType(req.headers.accept) === 'raw') return { raw: bytes, headers: { 'content-type': 'application/vnd.github.raw' } };
    return { body: { sha, size: bytes.length, encoding: 'base64', content: bytes.toString('base64') } };
  }

  #tree(req: FakeRequest): FakeResponse {
    const repo = { owner: req.params.owner ?? '', repo: req.params.repo ?? '' };
    const prefix = treeKey(repo, '');
    return treeAnswer(req, {
      filesAt: (sha) => this.#trees.get(treeKey(repo, sha)),
      all: () => [...this.#trees].filter(([key]) => key.startsWith(prefix)).map(([, files]) => files),
      limit: this.treeEntryLimit,
    });
  }

  /** Contents of a path at a ref ([`contentsAnswer`](./fake-repo-contents.ts)); a blob it serves is one `#blob` answers. */
  #contents(req: FakeRequest): FakeResponse {
    const { owner = '', repo = '' } = req.params;
    const tree = this.#trees.get(treeKey({ owner, repo }, req.query.get('ref') ?? 'HEAD'));
    return contentsAnswer(req, tree, (key, text) => this.#blobs.set(key, text));
  }

  /** The PR's file list ([`changedFiles`](./fake-repo-files.ts)), or a merge group's. */
  #changedFiles(sides: Sides = this.pr): Record<string, unknown>[] {
    return changedFiles(sides, this.pr.base, this.patchLimit);
  }

  /** The comparison of two commits; the base commit stands for the merge base, as in these scenarios. */
  #compare(req: FakeRequest): FakeResponse {
    const [from = '', to = ''] = (req.params.basehead ?? '').split('...');
    const group = this.#groups.get(to);
    if (group && from === group.baseSha) {
      // A group's head is built on its base: the base is the merge base, and GitHub lists the files (300 at most).
      const files = this.#changedFiles({ ...group, headSha: to }).slice(0, 300);
      return {
        body: {
          status: 'ahead',
          ahead_by: 1,
          behind_by: 0,
          total_commits: 1,
          merge_base_commit: { sha: from },
          base_commit: { sha: from },
          commits: [],
          files,
        },
      };
    }
    const { baseSha } = this.pr;
    if (from !== baseSha || to !== this.pr.headSha) return notFound();
    return {
      body: {
        status: 'ahead',
        ahead_by: 1,
        behind_by: 0,
        total_commits: 1,
        merge_base_commit: { sha: baseSha },
        base_commit: { sha: baseSha },
        commits: [],
      },
    };
  }

  #pullRequest(): Record<string, unknown> {
    const { base, head = base, number, baseSha } = this.pr;
    return {
      number,
      changed_files: this.#changedFiles().length,
      state: this.pr.state ?? 'open',
      draft: this.pr.draft ?? false,
      user: { login: this.pr.author ?? 'Codertocat', type: 'User' },
      head: {
        sha: this.currentHeadSha,
        repo: {
          name: head.repo,
          full_name: `${head.owner}/${head.repo}`,
          html_url: `https://github.com/${head.owner}/${head.repo}`,
          owner: { login: head.owner },
        },
      },
      base: { sha: baseSha, repo: { name: base.repo, full_name: `${base.owner}/${base.repo}`, owner: { login: base.owner } } },
    };
  }

  #reviewContext(): ReviewContext {
    return {
      reviewComments: this.reviewComments,
      reviews: this.reviews,
      headSha: () => this.currentHeadSha,
      patches: () => new Map(this.#changedFiles().map((f) => [String(f.filename), f.patch as string | undefined])),
      nextId: () => this.#nextId++,
    };
  }

  #react(req: FakeRequest): FakeResponse {
    const commentId = Number(req.params.id);
    const content = (req.body as { content: string }).content;
    this.reactions.push({ commentId, content });
    return { status: 201, body: { id: this.#nextId++, content, user: { login: 'gpu-justify[bot]', type: 'Bot' } } };
  }

  #permission(req: FakeRequest): FakeResponse {
    const login = req.params.user ?? '';
    const role = this.roles[login];
    if (role === undefined) return notFound();
    // `permission` is the legacy three-level name; `role_name` the real role.
    const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
    return { body: { permission, role_name: role, user: { login } } };
  }

  #membership(req: FakeRequest): FakeResponse {
    const members = this.teams[req.params.team ?? ''] ?? [];
    if (!members.includes(req.params.user ?? '')) return notFound();
    return { body: { state: 'active', role: 'member', url: `https://api.github.com/teams/1/memberships/${req.params.user}` } };
  }

  #pullsOfCommit(req: FakeRequest): FakeResponse {
    if (req.params.sha !== this.currentHeadSha) return { body: [] };
    return { body: [this.#pullRequest()] };
  }

  #createComment(req: FakeRequest): FakeResponse {
    const { body } = req.body as { body: string };
    const at = new Date().toISOString();
    const comment = { id: this.#nextId++, body, user: { login: this.commentAuthor, type: 'Bot' as const }, created_at: at, updated_at: at };
    this.comments.push(comment);
    return { status: 201, body: comment };
  }

  #getComment(req: FakeRequest): FakeResponse {
    const id = Number(req.params.id);
    const comment = this.comments.find((c) => c.id === id) ?? this.fake.issueComments.get(id);
    return comment ? { body: comment } : notFound();
  }

  #updateComment(req: FakeRequest): FakeResponse {
    const comment = this.comments.find((c) => String(c.id) === req.params.id);
    if (!comment) return notFound();
    comment.body = (req.body as { body: string }).body;
    comment.updated_at = new Date().toISOString();
    return { body: comment };
  }

  #deleteComment(req: FakeRequest): FakeResponse {
    const i = this.comments.findIndex((c) => String(c.id) === req.params.id);
    if (i < 0) return notFound();
    this.comments.splice(i, 1);
    return { status: 204 };
  }

  /** Link-header pagination, as octokit's paginate follows it. */
  #page(req: FakeRequest, items: readonly unknown[]): FakeResponse {
    const perPage = Math.min(Number(req.query.get('per_page') ?? 30), this.perPage);
    const page = Number(req.query.get('page') ?? 1);
    const body = items.slice((page - 1) * perPage, page * perPage);
    if (page * perPage >= items.length) return { body };
    const next = new URLSearchParams(req.query);
    next.set('page', String(page + 1));
    const host = String(req.headers.host);
    return { body, headers: { link: `<http://${host}${req.path}?${next.toString()}>; rel="next"` } };
  }
}

function treeKey(repo: RepoId, ref: string): string {
  return `${repo.owner}/${repo.repo}@${ref}`;
}
