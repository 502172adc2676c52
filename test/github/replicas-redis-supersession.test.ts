import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { checkRunPayload } from '../helpers/payloads.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from './scenarios.js';
import { HEAD_SHA, INSTALLATION, NUMBER, commentEvent, prEvent, pullRequest } from './app-harness.js';
import { metric, useRedisReplicas } from './redis-replica-harness.js';
import type { Replica } from './redis-replica-harness.js';

/**
 * Two replicas sharing a real Redis: webhooks are answered before any review, one pull request
 * runs one job at a time across replicas, pushes during a review fold into one more of the newest
 * head, and re-runs of a reviewed head are answered by its review (but not of one that could not run).
 */

const h = useRedisReplicas({ count: 2 });

describe('replicas sharing Redis', () => {
  it('answer webhooks before reviewing: the answer does not wait for a review held by GitHub', async () => {
    new FakeRepo(h.fake, pullRequest()).serve();
    let release = (): void => undefined;
    const held = h.fake.hold('POST', '/graphql', new Promise<void>((r) => (release = r)));
    const [a] = h.replicas as [Replica, Replica];
    const started = Date.now();
    const answer = await a.server.deliver('pull_request', prEvent(), { settle: false });
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    await held.arrived;
    // Either replica's worker may take the job from the shared queue: the one running it says so,
    // the other runs nothing.
    const running = await Promise.all(h.replicas.map((r) => metric([r], 'gpu_justify_worker_jobs_running')));
    release();
    expect([...running].sort()).toEqual([0, 1]);
    await Promise.all(h.replicas.map((r) => r.server.settled()));
    expect(await metric(h.replicas, 'gpu_justify_worker_jobs_running')).toBe(0);
  });

  it('review one pull request at a time, and fold pushes made during a review into one more, of the newest head', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    const [a, b] = h.replicas as [Replica, Replica];
    // The first review is held mid-way (its file reads) while three pushes arrive, on both h.replicas.
    let release = (): void => undefined;
    const held = h.fake.hold('POST', '/graphql', new Promise<void>((r) => (release = r)));
    await a.server.deliver('pull_request', prEvent(), { settle: false });
    await held.arrived;
    const heads = ['1', '2', '3'].map((d) => d.repeat(40));
    for (const [i, head] of heads.entries()) {
      repo.push(head, { [QUEUE_FILE]: clusterQueue(8 + i), 'gpu-workloads.yaml': CATALOG, 'README.md': README });
      await (i % 2 === 0 ? b : a).server.deliver('pull_request', prEvent({ action: 'synchronize', headSha: head }), { settle: false });
    }
    release();
    await a.server.settled();

    // One review of the first head, one of the newest: the two pushes between were never reviewed.
    expect(repo.checkRuns.map((r) => r.head_sha)).toEqual([HEAD_SHA, heads[2]]);
    expect(repo.checkRuns.every((r) => r.status === 'completed')).toBe(true);
    // Never two at once: the second review's check run was created after the first concluded.
    const [first, second] = repo.checkRuns;
    expect(second?.id).toBeGreaterThan(first?.id ?? Infinity);
    expect(await metric(h.replicas, 'gpu_justify_queue_superseded_total')).toBeGreaterThanOrEqual(2);
    const ours = repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain(`blob/${heads[2] ?? ''}`);
  });

  it('coalesce re-runs of a reviewed head: fifteen /gpu-justify comments give one review, each still acknowledged', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await h.replicas[0]?.server.deliver('pull_request', prEvent());
    expect(repo.checkRuns).toHaveLength(1);
    const ids = Array.from({ length: 15 }, () => repo.addComment('/gpu-justify', 'User').id);
    await Promise.all(
      ids.map((id, i) => (h.replicas[i % 2] as Replica).server.deliver('issue_comment', commentEvent('/gpu-justify', { commentId: id }))),
    );
    // Re-run from the Checks tab too.
    await h.replicas[1]?.server.deliver(
      'check_run',
      checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }),
    );

    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.reactions.map((r) => r.commentId).sort()).toEqual([...ids].sort());
    expect(await metric(h.replicas, 'gpu_justify_reruns_coalesced_total')).toBe(16);
  });

  it('re-run a head whose review could not run, once', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Every attempt of the first review is refused its reads: it concludes "could not run".
    h.fake.fail('POST', '/graphql', { status: 403, body: { message: 'Resource not accessible by integration' } }, 1000);
    h.fake.on('GET', '/repos/:owner/:repo/contents/*path', () => ({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    }));
    await h.replicas[0]?.server.deliver('pull_request', prEvent());
    expect(repo.checkRuns[0]?.output.title).toContain('could not run');
    const ids = [repo.addComment('/gpu-justify', 'User').id, repo.addComment('/gpu-justify', 'User').id];
    for (const id of ids) await h.replicas[1]?.server.deliver('issue_comment', commentEvent('/gpu-justify', { commentId: id }));
    // Each re-run of a review that reached no verdict runs; none is coalesced.
    expect(repo.checkRuns).toHaveLength(3);
    expect(await metric(h.replicas, 'gpu_justify_reruns_coalesced_total')).toBe(0);
  });
});
