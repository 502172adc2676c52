import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { checkSuitePayload } from '../helpers/payloads.js';
import {
  BASE_SHA,
  ENFORCE_POLICY,
  HEAD_SHA,
  INSTALLATION,
  NUMBER,
  commentEvent,
  prEvent,
  pullRequest,
  useApp,
  writes,
} from './app-harness.js';

/**
 * Bursts in shapes beyond re-run comments, through the real App over HTTP with signed webhooks
 * against the strict fake GitHub: `/gpu-justify` comments edited or deleted, commands on a closed
 * pull request, `labeled` and title `edited` events, and check-suite storms (`requested` and
 * `rerequested`, mixed and at once) on a head already reviewed write nothing GitHub counts against
 * its secondary limits beyond what one review writes, nor does a burst of base changes to the
 * base already reviewed.
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
    { what: 'the writes to settle', timeoutMs: 30_000 },
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

const labeled = (): Record<string, unknown> => ({ ...prEvent(), action: 'labeled', label: { name: 'gpu', color: 'ededed' } });
const titleEdited = (): Record<string, unknown> => prEvent({ action: 'edited', changes: { title: { from: 'an earlier title' } } });

describe('bursts that ask for nothing new write nothing', () => {
  it('twenty /gpu-justify comments edited and deleted: no review, no reaction', async () => {
    const repo = await reviewedOnce();
    const before = writes(h.fake);
    const ids = Array.from({ length: 20 }, () => repo.addComment('/gpu-justify', 'User').id);
    await Promise.all(
      ids.flatMap((id, i) => [
        h.app.deliver(
          'issue_comment',
          commentEvent(i % 2 ? '/gpu-justify override now' : '/gpu-justify', { commentId: id, action: 'edited' }),
        ),
        h.app.deliver('issue_comment', { ...commentEvent('/gpu-justify', { commentId: id }), action: 'deleted' }),
      ]),
    );
    await settled();
    expect(writes(h.fake)).toEqual(before);
    expect(repo.checkRuns).toHaveLength(1);
  });

  it('thirty labeled and title edits at once: nothing', async () => {
    const repo = await reviewedOnce();
    const before = writes(h.fake);
    await Promise.all(Array.from({ length: 30 }, (_, i) => h.app.deliver('pull_request', i % 2 ? labeled() : titleEdited())));
    await settled();
    expect(writes(h.fake)).toEqual(before);
    expect(repo.checkRuns).toHaveLength(1);
  });

  it('twelve check suites requested and twelve re-requested at once: one check run, nothing written', async () => {
    const repo = await reviewedOnce();
    const before = writes(h.fake);
    const suite = (action: 'requested' | 'rerequested') =>
      h.app.deliver('check_suite', checkSuitePayload(action, { installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }));
    await Promise.all(Array.from({ length: 24 }, (_, i) => suite(i % 2 ? 'requested' : 'rerequested')));
    await settled();
    expect(repo.checkRuns).toHaveLength(1);
    expect(writes(h.fake)).toEqual(before);
  });

  it('fifteen commands on a closed pull request: no review, no reply, no reaction', async () => {
    const repo = new FakeRepo(h.fake, { ...pullRequest({}, ENFORCE_POLICY), state: 'closed' }).serve();
    repo.roles['maintainer'] = 'admin';
    const before = writes(h.fake);
    const commands = ['/gpu-justify', '/gpu-justify explain', '/gpu-justify override we need it'];
    await Promise.all(
      Array.from({ length: 15 }, (_, i) => {
        const body = commands[i % 3] ?? '/gpu-justify';
        const id = repo.addComment(body, 'User').id;
        return h.app.deliver('issue_comment', commentEvent(body, { commentId: id, login: 'maintainer' }));
      }),
    );
    await settled();
    expect(repo.checkRuns).toHaveLength(0);
    expect(writes(h.fake)).toEqual(before);
  });

  it('ten base changes to the base already reviewed, at once: nothing written', async () => {
    const repo = await reviewedOnce();
    const before = writes(h.fake);
    const changed = () => prEvent({ action: 'edited', changes: { base: { ref: { from: 'old' }, sha: { from: BASE_SHA } } } });
    await Promise.all(Array.from({ length: 10 }, () => h.app.deliver('pull_request', changed())));
    await settled();
    expect(repo.checkRuns).toHaveLength(1);
    expect(writes(h.fake)).toEqual(before);
  });
});
