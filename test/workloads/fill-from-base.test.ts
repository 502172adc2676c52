import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';

/**
 * A catalog entry that leaves a field `unknown` is filled from the manifests as the base branch has
 * them: a pull request that moves a CronJob's schedule (so the runs squeeze into less of their window
 * and need more GPUs at once), adds the CronJob, or moves it to another namespace (whose runs would be
 * measured for its runtime) does not write what its entry is judged by.
 */

const catalog = (runtime: string, start: string) => `workloads:
  - name: nightly
    type: batch
    queue: batch-q
    gpusPerJob: 8
    jobsPerDay: 3
    runtime: ${runtime}
    window:
      earliestStart: ${start}
      deadline: "06:00"
`;

const cronJob = (hour: number, namespace = 'etl') => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: ${namespace}
spec:
  schedule: "0 ${hour} * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: main
              image: registry.example/etl:1
              resources:
                limits:
                  nvidia.com/gpu: 8
`;

const queue = (gpus: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: batch-q
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;

/** A telemetry source that answers nothing and records every query it is sent. */
function recording(asked: string[]): TelemetrySource {
  return {
    description: 'recording',
    query: (q, at, window) => {
      asked.push(q.promql);
      return Promise.resolve({
        query: q,
        source: 'recording',
        at: at.toISOString(),
        windowMinutes: window,
        status: 'missing',
        reason: 'no-data',
        message: 'none',
      });
    },
  };
}

/** A PR raising batch-q from 8 to 32 GPUs with the catalog unchanged, and `jobs/` as given on each side. */
async function review(text: string, baseJobs: Tree, headJobs: Tree, source?: TelemetrySource) {
  const common = { 'gpu-workloads.yaml': text };
  return runReview({
    changes: memoryChangeSet(
      { ...common, 'queues/batch.yaml': queue(8), ...baseJobs },
      { ...common, 'queues/batch.yaml': queue(32), ...headJobs },
    ),
    policy: { policy: { ...DEFAULT_POLICY, mode: 'enforce' }, diagnostics: [], file: null },
    ...(source ? { telemetry: { source, at: new Date('2026-11-01T00:00:00Z') } } : {}),
  });
}

describe('an unknown start filled from a manifest', () => {
  const unknownStart = catalog('2h', 'unknown');

  it.each([1, 2, 3, 4])('is the base schedule’s (00:00), not the %i:00 the PR moves it to', async (hour) => {
    const moved = await review(unknownStart, { 'jobs/nightly.yaml': cronJob(0) }, { 'jobs/nightly.yaml': cronJob(hour) });
    // From 00:00 the three 2-hour runs go one after another: 8 GPUs, 10 with headroom. From the
    // PR's start they would overlap in what is left of the window, and need more.
    expect(moved.reviews[0]?.need).toBe(10);
    expect(moved.verdict).toBe('partially-justified');
    expect(moved.diagnostics.map((d) => d.message)).toContain(
      'workloads[0].window.earliestStart: "unknown": taken as "00:00" from jobs/nightly.yaml:7; write it to confirm it',
    );
  });

  it.each([0, 2, 4])('is not taken from a CronJob scheduled at %i:00 that the PR adds: the entry stays out of the need', async (hour) => {
    const added = await review(unknownStart, {}, { [`jobs/nightly-${hour}.yaml`]: cronJob(hour) });
    expect(added.verdict).toBe('insufficient-evidence');
    expect(added.reviews[0]?.gpusNeeded).toBeNull();
    expect(added.missingEvidence.some((m) => 'code' in m && m.code === 'catalog-entry-invalid')).toBe(true);
    expect(added.diagnostics.some((d) => d.message.includes('taken as'))).toBe(false);
  });
});

describe('an unknown runtime measured from a manifest’s runs', () => {
  it.each(['busy', 'etl-prod', 'kube-system'])(
    'is asked of the base manifest’s namespace, not %s where the PR moves it',
    async (namespace) => {
      const asked: string[] = [];
      await review(
        catalog('unknown', '"00:00"'),
        { 'jobs/nightly.yaml': cronJob(0) },
        { 'jobs/nightly.yaml': cronJob(0, namespace) },
        recording(asked),
      );
      const runs = asked.filter((q) => q.includes('kube_job_status_start_time'));
      expect(runs).not.toEqual([]);
      expect(runs.every((q) => q.includes('namespace=~"etl"'))).toBe(true);
      expect(asked.some((q) => q.includes(namespace))).toBe(false);
    },
  );
});
