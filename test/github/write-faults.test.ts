import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { COMMENT_RETRIES } from '../../src/github/publish/comment-retry.js';
import { ENFORCE_POLICY, NEWER_SHA, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Writes GitHub refuses (rate limits, server errors, a comment deleted under the review): waited
 * out within the budget, and never a reason for a check to end softer than the review found, or
 * to stay in progress.
 */

const h = useApp();

const COMMENTS = `${REPO_PATH}/issues/7/comments`;
const CHECK_UPDATE = /\/check-runs\/\d+$/;

afterEach(() => vi.unstubAllEnvs());

/**
 * Until the App has gone quiet: its queue has run every job (retries and waits for rate limits
 * included) and the fake has answered every request it took. A busy machine can answer the
 * webhook (202) before the review ends.
 */
async function quiet(repo: FakeRepo): Promise<void> {
  await h.app.settled();
  await h.fake.settled();
  expect(repo.checkRuns[0]?.status, 'the check concluded').toBe('completed');
}

const secondary = (seconds: number) => ({
  status: 403,
  headers: { 'retry-after': String(seconds) },
  body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
});

const primary = (resetInSeconds: number) => ({
  status: 403,
  headers: {
    'x-ratelimit-remaining': '0',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + resetInSeconds),
  },
  body: { message: 'API rate limit exceeded for installation ID 4242.' },
});

describe('rate limits on writes', () => {
  it('a 429 with retry-after on the conclusion is waited out: the check fails as the review found', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('PATCH', CHECK_UPDATE, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } });

    const started = Date.now();
    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(repo.checkRuns[0]?.output.title).toContain('not justified');
    expect(h.fake.calls('PATCH', CHECK_UPDATE)).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a spent primary limit on the comment waits for x-ratelimit-reset, then posts it', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, primary(1));

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
  });

  it('a secondary limit on the comment edit is waited out', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    const ours = repo.addComment(`${COMMENT_MARKER}\nan older review`);
    h.fake.fail('PATCH', `${REPO_PATH}/issues/comments/${ours.id}`, secondary(1));

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('PATCH', `${REPO_PATH}/issues/comments/${ours.id}`)).toHaveLength(2);
    expect(ours.body).toContain('not justified');
  });

  it('past the budget, the check is concluded later, once the limit lifts, never left in progress', async () => {
    vi.stubEnv('GPU_JUSTIFY_WRITE_BUDGET_SECONDS', '0.5');
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    // Every conclusion the review itself sends is refused; the one sent later is taken.
    h.fake.fail('PATCH', CHECK_UPDATE, secondary(2), 2);

    await h.app.deliver('pull_request', prEvent(), { settle: false });
    await eventually(() => h.fake.calls('PATCH', CHECK_UPDATE).length >= 2, { what: 'two check updates' });
    expect(repo.checkRuns[0]?.status).toBe('in_progress');

    // The job runs again once the limit lifts, and concludes the same run.
    await h.app.settled();
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
    expect(repo.checkRuns[0]?.output.title).toContain('not justified');
  });

  it('a 5xx on an edit of the check is tried again; on a creation it is not, so nothing is made twice', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('PATCH', CHECK_UPDATE, { status: 502, body: { message: 'Server Error' } });

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(repo.checkRuns).toHaveLength(1);
    expect(h.fake.calls('PATCH', CHECK_UPDATE)).toHaveLength(2);
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
  });
});

describe('a conclusion GitHub keeps refusing', () => {
  it('is sent again later, so the check is not left in progress', { timeout: 90_000 }, async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    // Every try the review makes, and the ones the client makes for it, fail.
    h.fake.fail('PATCH', CHECK_UPDATE, { status: 502, body: { message: 'Server Error' } }, 6);

    await h.app.deliver('pull_request', prEvent(), { settle: false });
    await eventually(() => h.fake.calls('PATCH', CHECK_UPDATE).length >= 3, { what: 'three check updates' });
    expect(repo.checkRuns[0]?.status).toBe('in_progress');

    // The job runs again after a backoff, and concludes the same run.
    await h.app.settled();
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]?.status).toBe('completed');
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
  });
});

describe('the comment', () => {
  it('deleted while the review runs is created again', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    const ours = repo.addComment(`${COMMENT_MARKER}\nan older review`);
    // Deleted between the review reading it and editing it.
    const gone = h.fake.answered('GET', COMMENTS, 1).then(() => repo.comments.splice(0));

    await h.app.deliver('pull_request', prEvent());
    await gone;
    await quiet(repo);

    const marked = repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
    expect(marked).toHaveLength(1);
    expect(marked[0]?.id).not.toBe(ours.id);
    expect(marked[0]?.body).toContain('not justified');
  });

  it('that cannot be written leaves a computed failure a failure, concluded once, and the check says so', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, { status: 500, body: { message: 'Server Error' } }, 20);

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(repo.comments).toHaveLength(0);
    // Each try POSTs, finds no comment of ours, and POSTs once more (comment-creation.ts): four tries.
    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2 * (COMMENT_RETRIES + 1));
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(concluded(repo)).toEqual(['failure']);
    expect(repo.checkRuns[0]?.output.summary).toMatch(/The comment could not be posted: .*500/);
  });

  it('rate-limited past the budget leaves a computed failure a failure: not waited for, not tried again, said on the check', async () => {
    vi.stubEnv('GPU_JUSTIFY_WRITE_BUDGET_SECONDS', '0');
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, secondary(60), 10);

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(concluded(repo)).toEqual(['failure']);
    expect(repo.checkRuns[0]?.output.summary).toContain('The comment could not be posted: ');
  });
});

/** Every conclusion the check run was sent, in order. */
const concluded = (repo: FakeRepo) => repo.checkRuns[0]?.history.filter((b) => b.conclusion !== undefined).map((b) => b.conclusion);

describe('a comment that fails after its check concluded', () => {
  for (const status of [500, 502, 503, 504])
    it(`a ${status} creating it: only the comment is written again, once, the check concluded once`, async () => {
      const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
      // Both POSTs of the first try (the POST, and once more after finding no comment of ours).
      h.fake.fail('POST', COMMENTS, { status, body: { message: 'Server Error' } }, 2);

      await h.app.deliver('pull_request', prEvent());
      await quiet(repo);

      expect(h.fake.calls('POST', COMMENTS)).toHaveLength(3);
      expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
      expect(repo.comments[0]?.body).toContain('not justified');
      expect(repo.checkRuns).toHaveLength(1);
      expect(concluded(repo)).toEqual(['failure']);
      expect(repo.checkRuns[0]?.output.summary).not.toContain('could not be posted');
    });

  it('a creation GitHub made but answered with a 502: found on the next try and edited, not made twice', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, { status: 502, body: { message: 'Server Error' } }, 2);
    // The second POST of the first try lands all the same (GitHub holds our comment) though its
    // answer is a 502: made here once the first try has looked for ours (its second listing).
    void h.fake.answered('GET', COMMENTS, 2).then(() => repo.addComment(`${COMMENT_MARKER}\nwritten, answer lost`));

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2);
    const marked = repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
    expect(marked).toHaveLength(1);
    expect(marked[0]?.body).toContain('not justified');
    expect(concluded(repo)).toEqual(['failure']);
  });

  it('a 502 on every edit of it within one try: the next try edits it; the check concluded once', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    const ours = repo.addComment(`${COMMENT_MARKER}\nan older review`);
    const edit = `${REPO_PATH}/issues/comments/${ours.id}`;
    // The edit and the client's two tries after 1 s and 2 s (write-budget.ts).
    h.fake.fail('PATCH', edit, { status: 502, body: { message: 'Server Error' } }, 3);

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('PATCH', edit)).toHaveLength(4);
    expect(ours.body).toContain('not justified');
    expect(concluded(repo)).toEqual(['failure']);
    expect(repo.checkRuns[0]?.output.summary).not.toContain('could not be posted');
  });

  it('a 5xx, then a secondary limit within the budget: waited out, written once', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, { status: 503, body: { message: 'Unavailable' } }, 2);
    h.fake.fail('POST', COMMENTS, secondary(1), 1);

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(4);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    expect(concluded(repo)).toEqual(['failure']);
  });

  it('never waits past the write budget: a 5xx on every try stops when the next wait would not fit', async () => {
    vi.stubEnv('GPU_JUSTIFY_WRITE_BUDGET_SECONDS', '2');
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    const ours = repo.addComment(`${COMMENT_MARKER}\nan older review`);
    const edit = `${REPO_PATH}/issues/comments/${ours.id}`;
    h.fake.fail('PATCH', edit, { status: 502, body: { message: 'Server Error' } }, 50);

    const started = Date.now();
    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    // The client's first wait (1 s) fits, its second (2 s) does not; each later try's first wait
    // of 1 s no longer fits either, so the tries end with the budget, not with their count.
    const edits = h.fake.calls('PATCH', edit).length;
    expect(edits).toBeGreaterThanOrEqual(2);
    expect(edits).toBeLessThan(2 * (COMMENT_RETRIES + 1));
    expect(ours.body).toContain('an older review');
    expect(concluded(repo)).toEqual(['failure']);
    expect(repo.checkRuns[0]?.output.summary).toMatch(/The comment could not be posted: .*502/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('is not written when the head moved while it waited: a newer review writes its own', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, { status: 502, body: { message: 'Server Error' } }, 2);
    // A push lands during the first try (after it looked for our comment a second time).
    void h.fake.answered('GET', COMMENTS, 2).then(() => (repo.currentHeadSha = NEWER_SHA));

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2);
    expect(repo.comments).toHaveLength(0);
    expect(concluded(repo)).toEqual(['failure']);
    expect(repo.checkRuns[0]?.output.summary).not.toContain('could not be posted');
  });
});
