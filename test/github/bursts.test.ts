import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { EXAMPLE_REPO, checkRunPayload } from '../helpers/payloads.js';
import {
  ENFORCE_POLICY,
  HEAD_SHA,
  INSTALLATION,
  NUMBER,
  POLICY_FILE,
  commentEvent,
  prEvent,
  pullRequest,
  useApp,
  writes,
} from './app-harness.js';
import { clusterQueue } from './scenarios.js';

/**
 * Bursts on one head, through the real App over HTTP with signed webhooks against the strict fake
 * GitHub (one process, its in-memory queue): however many re-runs arrive for a head already
 * reviewed — `/gpu-justify` comments and check re-runs, mixed and at once —
 * the head is reviewed once and its check written once; each comment is still acknowledged. A
 * review of many changes writes its annotations in one request, at most 50, and says how many more.
 */
const h = useApp();

/** Waits until GitHub has seen no write for `quietMs`: the App has done what the burst asked. */
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

describe('a burst of re-runs on a head already reviewed', () => {
  it.each([
    ['fifteen /gpu-justify comments', { comments: 15, syncs: 0, reruns: 0 }],
    ['comments and check re-runs at once', { comments: 8, syncs: 0, reruns: 6 }],
  ])('%s give one review and one check-run write set', async (_name, burst) => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.some((c) => c.body.includes(COMMENT_MARKER)), {
      what: 'the first review',
    });
    await settled();
    const before = writes(h.fake).filter((w) => !w.includes('/reactions'));
    const ids = Array.from({ length: burst.comments }, () => repo.addComment('/gpu-justify', 'User').id);
    await Promise.all([
      ...ids.map((id) => h.app.deliver('issue_comment', commentEvent('/gpu-justify', { commentId: id }))),
      ...Array.from({ length: burst.syncs }, () => h.app.deliver('pull_request', prEvent({ action: 'synchronize' }))),
      ...Array.from({ length: burst.reruns }, () =>
        h.app.deliver('check_run', checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] })),
      ),
    ]);
    await settled();
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    // Nothing but the acknowledgements was written after the first review.
    expect(writes(h.fake).filter((w) => !w.includes('/reactions'))).toEqual(before);
    expect(repo.reactions.map((r) => r.commentId).sort()).toEqual([...ids].sort());
  });
});

/**
 * GitHub sends one `synchronize` per new head, so one for a head already reviewed (against the same
 * base and policy, its check written) is a redelivery under a new id: it is answered by that
 * review. What may have changed what the review reads is reviewed again: the inherited policy, a
 * check of ours that is gone. Re-runs keep their own window (above).
 */
describe('pushes redelivered for a head already reviewed', () => {
  const SHARED = { owner: EXAMPLE_REPO.owner, repo: 'policies' };

  async function reviewedOnce(policy = ENFORCE_POLICY): Promise<FakeRepo> {
    const repo = new FakeRepo(h.fake, pullRequest({}, policy)).serve();
    repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: 'headroom: 0.1\n' });
    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed', { what: 'the first review' });
    await settled();
    return repo;
  }

  const syncs = (n: number) =>
    Promise.all(Array.from({ length: n }, () => h.app.deliver('pull_request', prEvent({ action: 'synchronize' }))));

  it.each([1, 3, 12])('%i synchronize redeliveries, one after another and at once, write nothing', async (n) => {
    const repo = await reviewedOnce();
    const before = writes(h.fake);
    await syncs(n);
    await settled();
    await syncs(1);
    await settled();
    expect(repo.checkRuns).toHaveLength(1);
    expect(writes(h.fake)).toEqual(before);
  });

  it('an inherited policy changed since the review: reviewed again', async () => {
    const repo = await reviewedOnce(`_extends: policies\n${ENFORCE_POLICY}`);
    repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: 'headroom: 0.3\n' });
    await syncs(1);
    await eventually(() => repo.checkRuns.length === 2 && repo.checkRuns[1]?.status === 'completed', { what: 'the second review' });
  });

  it('no check of ours on the head any more (another App writes one of the same name): reviewed again', async () => {
    const repo = await reviewedOnce();
    const ours = repo.checkRuns.splice(0);
    repo.checkRuns.push(...ours.map((r) => ({ ...r, app: 'someone-else' })));
    await syncs(1);
    await eventually(() => repo.checkRuns.some((r) => r.app !== 'someone-else' && r.status === 'completed'), { what: 'a check of ours' });
  });
});

describe('a review of many changes', () => {
  it('writes at most 50 annotations, in one request, the failures first, and says how many more', async () => {
    const queues = 130;
    const files = (gpus: number) =>
      Object.fromEntries(
        Array.from({ length: queues }, (_, i) => [
          `clusters/team-${i}/queues.yaml`,
          clusterQueue(gpus).replace('name: research', `name: team-${i}`),
        ]),
      );
    const pr = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, {
      ...pr,
      baseFiles: { ...pr.baseFiles, ...files(6) },
      headFiles: { ...pr.headFiles, ...files(8) },
    }).serve();
    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed', { what: 'the review', timeoutMs: 60_000 });
    await settled();
    const run = repo.checkRuns.at(-1);
    expect(run?.output.annotations.length).toBeLessThanOrEqual(50);
    expect(run?.output.annotations.length).toBeGreaterThan(0);
    // Created, then concluded: never one request per 50 annotations.
    expect(h.fake.calls('PATCH', /\/check-runs\//).length).toBeLessThanOrEqual(2);
    expect(run?.output.summary).toMatch(/_\d+ more annotations? \(/);
  });
});
