import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review.js';
import { memoryChangeSet } from '../memory-change-set.js';

/**
 * A catalog entry that leaves its start `unknown` is filled from its CronJob's schedule as the base
 * branch has it: a pull request that moves the schedule later (so the runs squeeze into less of their
 * window and need more GPUs at once) does not write the start its entry is judged by.
 */

const CATALOG = `workloads:
  - name: nightly
    type: batch
    queue: batch-q
    gpusPerJob: 8
    jobsPerDay: 3
    runtime: 2h
    window:
      earliestStart: unknown
      deadline: "06:00"
    selector: {namespace: etl}
`;

const cronJob = (hour: number) => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: etl
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

async function review(baseHour: number, headHour: number) {
  const common = { 'gpu-workloads.yaml': CATALOG };
  return runReview({
    changes: memoryChangeSet(
      { ...common, 'queues/batch.yaml': queue(8), 'jobs/nightly.yaml': cronJob(baseHour) },
      { ...common, 'queues/batch.yaml': queue(32), 'jobs/nightly.yaml': cronJob(headHour) },
    ),
    policy: { policy: { ...DEFAULT_POLICY, mode: 'enforce' }, diagnostics: [], file: null },
  });
}

describe('an unknown start filled from a manifest', () => {
  it.each([1, 2, 3, 4])('is the base schedule’s (00:00), not the %i:00 the PR moves it to', async (hour) => {
    const moved = await review(0, hour);
    // From 00:00 the three 2-hour runs go one after another: 8 GPUs, 10 with headroom. From the
    // PR's start they would overlap in what is left of the window, and need more.
    expect(moved.reviews[0]?.need).toBe(10);
    expect(moved.verdict).toBe('partially-justified');
    expect(moved.diagnostics.map((d) => d.message)).toContain(
      'workloads[0].window.earliestStart: "unknown": taken as "00:00" from jobs/nightly.yaml:7; write it to confirm it',
    );
  });
});
