import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { ENFORCE_POLICY, NEWER_SHA, prEvent, pullRequest, reviewPush, useApp, writes } from './app-harness.js';
import { clusterQueue } from './scenarios.js';
import { MAX_SUGGESTIONS } from '../../src/github/publish/suggestions.js';

const h = useApp();

/** `count` team queues, team-i at `gpus(i)` GPUs. */
function queues(count: number, gpus: (i: number) => number): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `clusters/team-${i}/queues.yaml`,
      clusterQueue(gpus(i)).replace('name: research', `name: team-${i}`),
    ]),
  );
}

function catalog(count: number): string {
  const entry = (q: string) =>
    `  - name: eval-${q}\n    type: batch\n    queue: ${q}\n    gpusPerJob: 2\n    runtime: 2h\n    jobsPerDay: 1\n    window: {earliestStart: "00:00", deadline: "06:00"}\n    interruptible: false\n`;
  return `workloads:\n${entry('research')}${Array.from({ length: count }, (_, i) => entry(`team-${i}`)).join('')}`;
}

/**
 * A pull request of many over-asking changes, through the real App over HTTP against the strict
 * fake GitHub: each suggested change is a line comment GitHub notifies about, and each a later push
 * makes stale is a delete. One review posts at most MAX_SUGGESTIONS, those cutting the most GPUs,
 * and a push that replaces them deletes no more than it posted.
 */
describe('suggested changes of a pull request of many changes', () => {
  it.each([25, 60])(
    '%i over-asking queues: at most MAX_SUGGESTIONS, the largest cuts, and a push deletes as few',
    async (n) => {
      const pr = pullRequest({}, ENFORCE_POLICY);
      pr.baseFiles['gpu-workloads.yaml'] = catalog(n);
      pr.headFiles['gpu-workloads.yaml'] = catalog(n);
      // team-i asks for 6 → 12 + i: the higher i, the more it would cut.
      const repo = new FakeRepo(h.fake, {
        ...pr,
        baseFiles: { ...pr.baseFiles, ...queues(n, () => 6) },
        headFiles: { ...pr.headFiles, ...queues(n, (i) => 12 + i) },
      }).serve();
      await h.app.deliver('pull_request', prEvent());
      await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && repo.reviews.length > 0, {
        what: 'the review and its suggestions',
        timeoutMs: 120_000,
      });
      expect(repo.reviews).toHaveLength(1);
      const first = repo.reviews[0]?.comments.map((c) => c.path) ?? [];
      expect(first).toHaveLength(MAX_SUGGESTIONS);
      expect(new Set(first)).toEqual(new Set(Array.from({ length: MAX_SUGGESTIONS }, (_, k) => `clusters/team-${n - 1 - k}/queues.yaml`)));
      // The comment still names every change.
      expect(repo.comments.some((c) => c.body.includes(`team-0`))).toBe(true);

      const before = writes(h.fake).length;
      repo.push(NEWER_SHA, { ...pr.headFiles, ...queues(n, (i) => 14 + i) });
      await reviewPush(h, repo);
      await eventually(() => repo.reviews.length === 2, { what: 'the new suggestions', timeoutMs: 60_000 });
      const after = writes(h.fake).slice(before);
      expect(after.filter((w) => w.startsWith('DELETE'))).toHaveLength(MAX_SUGGESTIONS);
      expect(repo.reviews[1]?.comments).toHaveLength(MAX_SUGGESTIONS);
      // A check run created and concluded, the comment edited, the stale suggestions gone, one review.
      expect(after.length).toBeLessThanOrEqual(MAX_SUGGESTIONS + 5);
    },
    180_000,
  );
});
