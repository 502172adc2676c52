import { describe, expect, it } from 'vitest';
import { SUGGESTION_MARKER } from '../../src/github/publish/suggestions.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { CATALOG, README, QUEUE_FILE, clusterQueue } from './scenarios.js';
import { HEAD_SHA, NEWER_SHA, NUMBER, REPO_PATH, prEvent, pullRequest } from './app-harness.js';
import { useReplicas } from './replica-harness.js';

/**
 * Two replicas of the App reviewing the same pull request at the same moment against one GitHub:
 * whatever the interleaving, the pull request ends with one sticky comment.
 */

const h = useReplicas();

const COMMENTS = `${REPO_PATH}/issues/${NUMBER}/comments`;
const ONE_COMMENT = new RegExp(`^${REPO_PATH}/issues/comments/\\d+$`);
const REVIEW_COMMENTS = `${REPO_PATH}/pulls/${NUMBER}/comments`;
const ONE_REVIEW_COMMENT = new RegExp(`^${REPO_PATH}/pulls/comments/\\d+$`);
const PULL = `${REPO_PATH}/pulls/${NUMBER}`;

/** A push asking for 10 GPUs instead of 12. */
const NEWER_FILES = { [QUEUE_FILE]: clusterQueue(10), 'gpu-workloads.yaml': CATALOG, 'README.md': README };

function marked(repo: FakeRepo) {
  return repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
}

function idOf(path: string): number {
  return Number(path.split('/').pop());
}

describe('two replicas reviewing one pull request', () => {
  it('leave one comment when the same delivery reaches both', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Neither creates its comment before both have looked for one and found none (each looks
    // once, as its review starts: finding none, it creates without looking again).
    h.fake.hold('POST', COMMENTS, h.fake.answered('GET', COMMENTS, 2));
    const event = prEvent();
    const answers = await Promise.all([
      h.app.deliver('pull_request', event, { delivery: 'same-delivery' }),
      h.other.deliver('pull_request', event, { delivery: 'same-delivery' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2);
    const [survivor, ...rest] = marked(repo);
    expect(rest).toEqual([]);
    expect(survivor?.body).toContain(`blob/${HEAD_SHA}`);
    // Both replicas agree on the survivor: only higher ids are deleted.
    const deleted = h.fake.calls('DELETE', ONE_COMMENT).map((r) => idOf(r.path));
    expect(deleted.every((id) => id > (survivor?.id ?? Infinity))).toBe(true);

    // The cost of the race: one more list per creation, a delete per replica at most, and no
    // edit, as both wrote the same text.
    expect(h.fake.calls('GET', COMMENTS)).toHaveLength(4);
    expect(deleted.length).toBeGreaterThanOrEqual(1);
    expect(deleted.length).toBeLessThanOrEqual(2);
    expect(h.fake.calls('PATCH', ONE_COMMENT)).toEqual([]);
    // Each replica's job reads the pull request as it starts, and again before writing.
    expect(h.fake.calls('GET', PULL)).toHaveLength(4);
  });

  it('keep the newer push’s text when the older review created its comment first', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // The older review has checked that its head is current and is about to create its comment…
    const held = h.fake.hold('POST', COMMENTS, h.fake.answered('GET', COMMENTS, 2));
    const opened = h.app.deliver('pull_request', prEvent());
    await held.arrived;
    // …when a push lands and the other replica reviews it, looking for a comment before the
    // first one exists.
    repo.push(NEWER_SHA, NEWER_FILES);
    const synchronized = h.other.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    await Promise.all([opened, synchronized]);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2);
    const [survivor, ...rest] = marked(repo);
    expect(rest).toEqual([]);
    // The older review's comment survives, with the newer review's text written into it.
    expect(survivor?.id).toBe(Math.min(...h.fake.calls('DELETE', ONE_COMMENT).map((r) => idOf(r.path)), survivor?.id ?? 0));
    expect(survivor?.body).toContain(`blob/${NEWER_SHA}`);
    expect(survivor?.body).not.toContain(`blob/${HEAD_SHA}`);
    expect(h.fake.calls('PATCH', ONE_COMMENT)).toHaveLength(1);
  });

  it('keep the newer push’s text when the older review created its comment last', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // The older review's comment is created only after the newer review's.
    const held = h.fake.hold('POST', COMMENTS, h.fake.answered('POST', COMMENTS, 1));
    const opened = h.app.deliver('pull_request', prEvent());
    await held.arrived;
    repo.push(NEWER_SHA, NEWER_FILES);
    const synchronized = h.other.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    await Promise.all([opened, synchronized]);

    expect(h.fake.calls('POST', COMMENTS)).toHaveLength(2);
    const [survivor, ...rest] = marked(repo);
    expect(rest).toEqual([]);
    // The older review, no longer current, removes its own copy without writing over the newer.
    expect(survivor?.body).toContain(`blob/${NEWER_SHA}`);
    expect(h.fake.calls('PATCH', ONE_COMMENT)).toEqual([]);
  });

  it('leave duplicate suggestions for the next review to remove, keeping the oldest copy', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Both replicas find no comment of ours before either creates one. The one whose comment
    // then gives way to the older copy looks for earlier suggestions; the other, a first review,
    // does not. Neither posts its suggestions before that look: both post them.
    h.fake.hold('POST', COMMENTS, h.fake.answered('GET', COMMENTS, 2));
    h.fake.hold('POST', `${REPO_PATH}/pulls/${NUMBER}/reviews`, h.fake.answered('GET', REVIEW_COMMENTS, 1));
    const event = prEvent();
    await Promise.all([h.app.deliver('pull_request', event), h.other.deliver('pull_request', event)]);
    const copies = repo.reviewComments.filter((c) => c.body.includes(SUGGESTION_MARKER));
    expect(copies).toHaveLength(2);
    expect(copies[0]?.body).toBe(copies[1]?.body);
    const oldest = Math.min(...copies.map((c) => c.id));

    // Both replicas re-run at once, each listing before either deletes: both delete the same
    // copy, one of them after it is gone.
    const listed = h.fake.calls('GET', REVIEW_COMMENTS).length;
    h.fake.hold('DELETE', ONE_REVIEW_COMMENT, h.fake.answered('GET', REVIEW_COMMENTS, listed + 2));
    const again = prEvent({ action: 'reopened' });
    await Promise.all([h.app.deliver('pull_request', again), h.other.deliver('pull_request', again)]);

    expect(repo.reviewComments.filter((c) => c.body.includes(SUGGESTION_MARKER)).map((c) => c.id)).toEqual([oldest]);
    expect(h.fake.calls('POST', `${REPO_PATH}/pulls/${NUMBER}/reviews`)).toHaveLength(2);
    expect(marked(repo)).toHaveLength(1);
  });
});

describe('one replica alone', () => {
  it('lists the comments once more after creating its comment, and never after editing it', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // A first review lists the comments as it starts, then once after creating its comment. A
    // later one whose check does not pass (neutral here) lists them twice before writing: once
    // for the override it carries, once after concluding for one another replica granted meanwhile.
    await h.app.deliver('pull_request', prEvent());
    expect(h.fake.calls('GET', COMMENTS)).toHaveLength(2);
    repo.push(NEWER_SHA, NEWER_FILES);
    await h.other.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    expect(h.fake.calls('GET', COMMENTS)).toHaveLength(4);
    expect(h.fake.calls('DELETE', ONE_COMMENT)).toEqual([]);
    expect(marked(repo)).toHaveLength(1);
  });
});
