import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { reviewTextPayload } from '../helpers/payloads.js';
import { ENFORCE_POLICY, INSTALLATION, NUMBER, commentEvent, prEvent, pullRequest, useApp, writes } from './app-harness.js';

/**
 * Commands answered by a reply (`explain`, `help`, one not understood) in bursts on a head already
 * reviewed, through the real App over HTTP with signed webhooks against the strict fake GitHub.
 * Each reply is a comment GitHub notifies about, the writes its secondary limits count most
 * (80 content-creating requests a minute, 500 an hour): a burst of the same question on the same
 * head is answered once, and every command still gets its reaction.
 */
const h = useApp();

async function settled(quietMs = 1500): Promise<void> {
  let last = -1;
  let since = Date.now();
  await eventually(
    () => {
      const n = writes(h.fake).length;
      if (n !== last) {
        last = n;
        since = Date.now();
      }
      return Date.now() - since >= quietMs;
    },
    { what: 'the writes to settle', timeoutMs: 60_000 },
  );
}

async function reviewedOnce(): Promise<FakeRepo> {
  const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
  await h.app.deliver('pull_request', prEvent());
  await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.some((c) => c.body.includes(COMMENT_MARKER)), {
    what: 'the first review',
  });
  await settled();
  return repo;
}

/** Each command `times` times, by `authors` in turn, delivered at once. */
async function burst(repo: FakeRepo, body: string, times: number, authors: readonly string[] = ['octocat']): Promise<number[]> {
  const sent = Array.from({ length: times }, (_, i) => {
    const login = authors[i % authors.length] ?? 'octocat';
    return { id: repo.addComment(body, 'User', login).id, login };
  });
  await Promise.all(sent.map(({ id, login }) => h.app.deliver('issue_comment', commentEvent(body, { commentId: id, login }))));
  await settled();
  return sent.map((s) => s.id);
}

describe('a burst of commands answered by a reply', () => {
  it.each([
    ['fifteen /gpu-justify explain', '/gpu-justify explain'],
    ['fifteen /gpu-justify help', '/gpu-justify help'],
  ])('%s on one head: one reply, fifteen reactions', async (_name, body) => {
    const repo = await reviewedOnce();
    const before = writes(h.fake).length;
    const comments = repo.comments.length;
    const ids = await burst(repo, body, 15);
    const after = writes(h.fake).slice(before);
    // Fifteen replies and fifteen reactions before: 30 writes, 15 of them notifying.
    expect(repo.comments.length - comments - ids.length).toBe(1);
    expect(after.filter((w) => !w.includes('/reactions'))).toHaveLength(1);
    expect(repo.reactions.map((r) => r.commentId).sort()).toEqual([...ids].sort());
  });

  it('fifteen commands not understood, from three commenters: one reply each, quoting what they wrote', async () => {
    const repo = await reviewedOnce();
    const before = writes(h.fake).length;
    const comments = repo.comments.length;
    const ids = await burst(repo, '/gpu-justify frobnicate', 15, ['octocat', 'hubot', 'monalisa']);
    const replies = repo.comments.slice(comments).filter((c) => !ids.includes(c.id));
    expect(replies).toHaveLength(3);
    for (const login of ['octocat', 'hubot', 'monalisa']) expect(replies.filter((r) => r.body.includes(`@${login} `))).toHaveLength(1);
    expect(writes(h.fake).slice(before)).toHaveLength(3);
  });
});

describe('commands written where they are not read', () => {
  it('fifteen reviews and fifteen review comments saying /gpu-justify: nothing written', async () => {
    const repo = await reviewedOnce();
    const before = writes(h.fake);
    const bodies = ['/gpu-justify', '/gpu-justify explain', '/gpu-justify override ship it'];
    await Promise.all(
      Array.from({ length: 15 }, (_, i) => {
        const body = bodies[i % bodies.length] ?? '/gpu-justify';
        const options = { installationId: INSTALLATION, number: NUMBER, body, id: 9000 + i };
        return [
          h.app.deliver('pull_request_review', reviewTextPayload('pull_request_review', options)),
          h.app.deliver('pull_request_review_comment', reviewTextPayload('pull_request_review_comment', options)),
        ];
      }).flat(),
    );
    await settled();
    expect(writes(h.fake)).toEqual(before);
    expect(repo.checkRuns).toHaveLength(1);
  });
});
