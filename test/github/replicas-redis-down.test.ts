import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from './scenarios.js';
import { HEAD_SHA, NEWER_SHA, prEvent, pullRequest } from './app-harness.js';
import { connected, useRedisReplicas } from './redis-replica-harness.js';

/**
 * Replicas whose Redis goes away (killed): each queues on itself instead, so no review is lost,
 * the comment settles to one through GitHub, and the log and /metrics say so.
 */

const h = useRedisReplicas({ count: 0 });

describe('replicas whose Redis goes away', () => {
  let lost: RunningRedis;
  beforeEach(async () => {
    // A Redis of the test's own, killed by it: the file's stays up.
    lost = await startRedis();
    await h.start(lost.url);
    await h.start(lost.url);
    await Promise.all(h.replicas.map(connected));
  });
  afterEach(async () => {
    // The replicas first, then their Redis (the shared hooks stop the fake after).
    for (const r of h.replicas.splice(0)) await r.server.close();
    await lost.stop();
  });

  it('queue on each replica instead, so no review is lost, settle on one comment through GitHub, and say so', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await lost.stop({ crash: true });
    const event = prEvent();
    const started = Date.now();
    const answers = await Promise.all(
      h.replicas.map((r) => r.server.deliver('pull_request', event, { delivery: randomUUID(), settle: false })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // No answer waited for Redis (timed to the answers: the file's first reviews start cold): both
    // queued here and reviewed, and the comment settled to one.
    expect(Date.now() - started).toBeLessThan(10_000);
    await Promise.all(h.replicas.map((r) => r.server.settled()));
    expect(repo.checkRuns.length).toBeGreaterThanOrEqual(1);
    expect(repo.checkRuns.every((c) => c.status === 'completed')).toBe(true);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
    for (const r of h.replicas) {
      expect(r.logged.some((l) => l.includes('redis unavailable: queueing on this replica'))).toBe(true);
      const text = await r.metrics.registry.metrics();
      expect(text).toMatch(/^gpu_justify_redis_up 0$/m);
      expect(text).toMatch(/^gpu_justify_coordination_fallbacks_total\{operation="enqueue"\} [1-9]/m);
    }
  });

  it('a push after Redis went away is still reviewed, with the newest head', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await h.replicas[0]?.server.deliver('pull_request', prEvent());
    await lost.stop({ crash: true });
    repo.push(NEWER_SHA, { [QUEUE_FILE]: clusterQueue(10), 'gpu-workloads.yaml': CATALOG, 'README.md': README });
    await h.replicas[1]?.server.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    expect(repo.checkRuns.map((r) => [r.head_sha, r.status])).toEqual([
      [HEAD_SHA, 'completed'],
      [NEWER_SHA, 'completed'],
    ]);
  });
});
