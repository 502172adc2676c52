import type { FakeRequest, FakeResponse } from './fake-github.js';
import type { StoredReview, StoredReviewComment } from './fake-repo-state.js';

/**
 * Line comments and reviews on a pull request's diff, as GitHub takes them: a comment must sit
 * on a line of the diff (a hunk line of the head side) of the head commit; a review with one bad
 * comment is refused whole; a review without `event` stays pending and its comments unseen; a
 * COMMENT review needs a body or comments.
 */

export interface ReviewContext {
  reviewComments: StoredReviewComment[];
  reviews: StoredReview[];
  headSha(): string;
  /** Changed path → its patch (undefined when GitHub gives none). */
  patches(): Map<string, string | undefined>;
  nextId(): number;
}

interface CommentInput {
  path: string;
  line?: number;
  side?: string;
  position?: number;
  body: string;
}

const BOT = { login: 'gpu-justify[bot]', type: 'Bot' as const };

export function createReviewComment(ctx: ReviewContext, req: FakeRequest): FakeResponse {
  const body = req.body as CommentInput & { commit_id: string };
  const refused = refusal(ctx, body.commit_id, [body]);
  if (refused) return refused;
  const stored = store(ctx, body, body.commit_id, undefined);
  ctx.reviewComments.push(stored);
  return { status: 201, body: stored };
}

export function createReview(ctx: ReviewContext, req: FakeRequest): FakeResponse {
  const body = req.body as { commit_id?: string; body?: string; event?: string; comments?: CommentInput[] };
  const commitId = body.commit_id ?? ctx.headSha();
  const comments = body.comments ?? [];
  // The spec marks `body` required for these events; GitHub enforces it only when there are no comments.
  if ((body.event === 'COMMENT' || body.event === 'REQUEST_CHANGES') && !body.body && comments.length === 0) {
    return unprocessable('Review body is required for a COMMENT or REQUEST_CHANGES review without comments');
  }
  const refused = refusal(ctx, commitId, comments);
  if (refused) return refused;
  const id = ctx.nextId();
  const pending = body.event === undefined;
  const review: StoredReview = {
    id,
    body: body.body ?? '',
    state: pending ? 'PENDING' : body.event === 'COMMENT' ? 'COMMENTED' : body.event === 'APPROVE' ? 'APPROVED' : 'CHANGES_REQUESTED',
    commit_id: commitId,
    user: BOT,
    comments: comments.map((c) => store(ctx, c, commitId, id)),
  };
  ctx.reviews.push(review);
  if (!pending) ctx.reviewComments.push(...review.comments);
  const { comments: _stored, ...answer } = review;
  return {
    status: 200,
    body: { ...answer, html_url: `https://github.com/pull/review/${id}`, ...(pending ? {} : { submitted_at: new Date().toISOString() }) },
  };
}

export function deleteReviewComment(ctx: ReviewContext, req: FakeRequest): FakeResponse {
  const i = ctx.reviewComments.findIndex((c) => String(c.id) === req.params.id);
  if (i < 0) return { status: 404, body: { message: 'Not Found' } };
  ctx.reviewComments.splice(i, 1);
  return { status: 204 };
}

function store(ctx: ReviewContext, c: CommentInput, commitId: string, reviewId: number | undefined): StoredReviewComment {
  return {
    id: ctx.nextId(),
    body: c.body,
    path: c.path,
    line: c.line ?? 0,
    side: c.side ?? 'RIGHT',
    commit_id: commitId,
    user: BOT,
    ...(reviewId === undefined ? {} : { pull_request_review_id: reviewId }),
  };
}

function refusal(ctx: ReviewContext, commitId: string, comments: readonly CommentInput[]): FakeResponse | null {
  // A line comment on a commit other than the head would be outdated at once; the App never means that.
  if (commitId !== ctx.headSha()) return unprocessable('commit_id is not the head of the pull request');
  const patches = ctx.patches();
  for (const c of comments) {
    if (c.line === undefined || c.position !== undefined) return unprocessable('this fake takes comments by line only');
    if ((c.side ?? 'RIGHT') !== 'RIGHT') return unprocessable('this fake takes comments on the head side only');
    if (!patches.has(c.path) || !rightLines(patches.get(c.path)).has(c.line)) {
      return unprocessable('pull_request_review_thread.line must be part of the diff');
    }
  }
  return null;
}

/** Head-side line numbers of the diff's hunks: where GitHub takes a line comment. */
function rightLines(patch: string | undefined): Set<number> {
  const out = new Set<number>();
  let line = 0;
  for (const row of patch?.split('\n') ?? []) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(row);
    if (header) line = Number(header[1]);
    else if (row.startsWith('+') || row.startsWith(' ')) out.add(line++);
  }
  return out;
}

function unprocessable(message: string): FakeResponse {
  return { status: 422, body: { message: 'Validation Failed', errors: [message] } };
}
