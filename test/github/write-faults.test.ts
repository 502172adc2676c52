import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
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
 * Until the App has gone quiet: the check concluded and no request for half a second. A busy
 * machine can answer the webhook (202) before the review ends.
 */
async function quiet(repo: FakeRepo): Promise<void> {
  await eventually(() => repo.checkRuns[0]?.status === 'completed', { what: 'the check concluded', state: () => repo.checkRuns });
  for (let seen = -1; seen !== h.fake.requests.length;) {
    seen = h.fake.requests.length;
    await new Promise((r) => setTimeout(r, 500));
    await h.fake.settled();
  }
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

  it('that cannot be written leaves a computed failure a failure', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, { status: 500, body: { message: 'Server Error' } }, 10);

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(repo.comments).toHaveLength(0);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(repo.checkRuns[0]?.history.filter((b) => b.conclusion !== undefined).map((b) => b.conclusion)).toEqual(['failure']);
  });

  it('rate-limited past the budget leaves a computed failure a failure', async () => {
    vi.stubEnv('GPU_JUSTIFY_WRITE_BUDGET_SECONDS', '0');
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, secondary(60), 10);

    await h.app.deliver('pull_request', prEvent());
    await quiet(repo);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
  });
});
