import { describe, expect, it } from 'vitest';
import { deadlineLadder } from '../../src/analysis/deadline-ladder.js';
import { filledWorkload, inferredWorkloads } from '../../src/analysis/inferred-workloads.js';
import { reviewChange } from '../../src/analysis/review-change.js';
import type {
  DeclaredWorkload,
  DraftEntry,
  InferredWorkload,
  JobWorkload,
  ObservedJobRuns,
  PartialJobWorkload,
} from '../../src/domain/index.js';
import { batch, policy, queueChange } from '../factories.js';
import { answer, telemetry } from './measured-fixture.js';

const src = (line: number) => ({ file: 'jobs/nightly.yaml', line });
const declared: DeclaredWorkload = {
  name: 'nightly',
  namespace: 'etl',
  kind: 'CronJob',
  type: 'batch',
  source: src(4),
  groups: [{ role: 'job', gpusPerPod: 2, pods: 2, source: src(20) }],
  gpuResource: 'nvidia.com/gpu',
  schedule: { cron: '0 1 * * *', timeZone: null, source: src(7) },
  maxRuntimeMinutes: null,
  localQueue: null,
  clusterQueue: { name: 'batch-q', source: src(9) },
  pool: null,
  instanceType: null,
};
const entry: DraftEntry = { workload: declared, name: 'nightly', schedule: { jobsPerDay: 1, earliestStartUtc: 60, how: 'UTC' } };
const DAY = 86_400;
const runs: ObservedJobRuns = {
  runs: [
    { namespace: 'etl', job: 'nightly-1', cronJob: 'nightly', startedAt: DAY + 3600, completedAt: DAY + 3600 + 90 * 60 },
    { namespace: 'etl', job: 'nightly-2', cronJob: 'nightly', startedAt: 2 * DAY + 3600, completedAt: 2 * DAY + 3600 + 100 * 60 },
    // Another CronJob of the namespace: not this workload's runs.
    { namespace: 'etl', job: 'other-1', cronJob: 'other', startedAt: DAY, completedAt: DAY + 600 },
  ],
  evidence: [{ source: 'prometheus', ref: 'kube_job_status_start_time', window: '2880m to 2026-12-02T00:00:00.000Z' }],
};

describe('the merged view of a change’s workloads', () => {
  it('takes GPUs and schedule from the manifest, the runtime from its own runs, and leaves the deadline unknown', () => {
    const [w, ...rest] = inferredWorkloads([], [entry], runs, 2);
    expect(rest).toEqual([]);
    expect(w).toMatchObject({
      name: 'nightly',
      runsObserved: 2,
      gpus: { value: 4, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:20' } },
      earliestStartUtc: { value: 60, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:7' } },
      runtimeMinutes: { value: 100, origin: { source: 'telemetry', ref: 'kube_job_status_start_time' } },
      deadlineUtc: { value: null, origin: null },
    });
  });

  it('lets a catalog entry win field by field and never lists the workload twice', () => {
    const catalog: JobWorkload = {
      name: 'nightly',
      type: 'batch',
      gpusPerJob: 8,
      runtime: 120,
      jobsPerDay: 1,
      window: { earliestStart: 120, deadline: 360 },
      interruptible: false,
      selector: { namespace: 'etl' },
      source: { file: 'gpu-workloads.yaml', line: 3 },
    };
    const merged = inferredWorkloads([catalog], [entry], runs, 2);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      gpus: { value: 8, origin: { source: 'catalog', ref: 'gpu-workloads.yaml:3' } },
      deadlineUtc: { value: 360, origin: { source: 'catalog' } },
      runsObserved: 2,
    });
  });
});

const job = (name: string, gpus: number, runtime: number, start: number): InferredWorkload => ({
  name,
  namespace: null,
  type: 'batch',
  gpus: { value: gpus, origin: null },
  runtimeMinutes: { value: runtime, origin: null },
  jobsPerDay: { value: 1, origin: null },
  earliestStartUtc: { value: start, origin: null },
  deadlineUtc: { value: null, origin: null },
  runsObserved: 0,
});

describe('what each deadline would need', () => {
  it('gives the tightest deadline, each later one needing fewer GPUs, and when today’s GPUs finish', () => {
    // Three 4-GPU runs of 2 h from 00:00: by 02:00 side by side (12), by 04:00 two at a time (8), by 06:00 one (4).
    const l = deadlineLadder([job('a', 4, 120, 0), job('b', 4, 120, 0), job('c', 4, 120, 0)], 8);
    expect(l).toEqual({
      workloads: ['a', 'b', 'c'],
      rungs: [
        { deadlineUtc: 120, gpus: 12 },
        { deadlineUtc: 240, gpus: 8 },
        { deadlineUtc: 360, gpus: 4 },
      ],
      capacity: 8,
      capacityDoneBy: 240,
    });
  });

  it('has nothing to plan when a field is unknown, and says when today’s GPUs meet no deadline', () => {
    expect(deadlineLadder([{ ...job('a', 4, 120, 0), runtimeMinutes: { value: null, origin: null } }], 8)).toBeNull();
    expect(deadlineLadder([job('a', 12, 60, 0)], 8)?.capacityDoneBy).toBeNull();
  });
});

describe('a review with a catalog', () => {
  it('lists its workloads with every field from the catalog', () => {
    const w = batch({ name: 'nightly-eval', queue: 'research' });
    const r = reviewChange({ change: queueChange('research', 4, 8), workloads: [w], catalogFile: 'gpu-workloads.yaml', policy: policy() });
    const ref = `${w.source.file}:${w.source.line}`;
    expect(r.inferred).toEqual([
      {
        name: 'nightly-eval',
        namespace: null,
        type: 'batch',
        gpus: { value: w.gpusPerJob, origin: { source: 'catalog', ref } },
        runtimeMinutes: { value: w.runtime, origin: { source: 'catalog', ref } },
        jobsPerDay: { value: w.jobsPerDay, origin: { source: 'catalog', ref } },
        earliestStartUtc: { value: w.window.earliestStart, origin: { source: 'catalog', ref } },
        deadlineUtc: { value: w.window.deadline, origin: { source: 'catalog', ref } },
        runsObserved: 0,
      },
    ]);
  });
});

describe('a catalog entry that leaves its runtime or start unknown', () => {
  const partial = (over: Partial<PartialJobWorkload> = {}): PartialJobWorkload => ({
    name: 'nightly',
    type: 'batch',
    queue: 'batch-q',
    gpusPerJob: 8,
    runtime: null,
    jobsPerDay: 1,
    window: { earliestStart: null, deadline: 360 },
    interruptible: false,
    selector: { namespace: 'etl' },
    source: { file: 'gpu-workloads.yaml', line: 3 },
    ...over,
  });
  const telemetryOrigin = { source: 'telemetry', ref: 'kube_job_status_start_time', window: '2880m to 2026-12-02T00:00:00.000Z' };

  it('takes the runtime from its runs and the start from its manifest; what the catalog states stays', () => {
    const w = filledWorkload(partial(), [entry], runs, 2);
    expect(w).toEqual({
      ...partial(),
      runtime: 100,
      window: { earliestStart: 60, deadline: 360 },
      filled: { runtime: telemetryOrigin, earliestStart: { source: 'manifest', ref: 'jobs/nightly.yaml:7' } },
    });
    // The GPUs and the deadline stay the catalog's, and only unknown fields are filled.
    expect(filledWorkload(partial({ runtime: 30 }), [entry], runs, 2)).toMatchObject({
      gpusPerJob: 8,
      runtime: 30,
      filled: { earliestStart: { source: 'manifest' } },
    });
    expect(filledWorkload(partial({ runtime: 30 }), [entry], runs, 2)?.filled?.runtime).toBeUndefined();
  });

  it('finds its runs by name in its namespace when no manifest declares it', () => {
    const w = filledWorkload(partial(), [], runs, 2);
    // First run at 01:00 UTC; the longest took 100 minutes.
    expect(w).toMatchObject({
      runtime: 100,
      window: { earliestStart: 60 },
      filled: { runtime: telemetryOrigin, earliestStart: telemetryOrigin },
    });
    expect(filledWorkload(partial({ selector: { namespace: 'other' } }), [], runs, 2)).toBeNull();
  });

  it('stays out of the need when a field is still unknown, or the runtime taken overruns its window', () => {
    // The manifest gives the start, but no run was observed: the runtime stays unknown.
    expect(filledWorkload(partial(), [entry], null, 2)).toBeNull();
    expect(filledWorkload(partial({ runtime: 30 }), [entry], null, 2)).toMatchObject({ window: { earliestStart: 60 } });
    // 01:00 to 02:00 cannot hold a run of 100 minutes.
    expect(filledWorkload(partial({ window: { earliestStart: null, deadline: 120 } }), [entry], runs, 2)).toBeNull();
  });

  it('makes a review that plans it inferred, and shows where the filled fields came from', () => {
    const filled = filledWorkload(partial(), [entry], runs, 2)!;
    const t = telemetry([answer('queue-usage:queue:batch-q', [])]);
    const r = reviewChange({
      change: queueChange('batch-q', 8, 16),
      workloads: [filled],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy(),
      telemetry: t,
    });
    expect(r.confidence).toBe('inferred');
    expect(r.inferred?.[0]).toMatchObject({
      runtimeMinutes: { value: 100, origin: telemetryOrigin },
      earliestStartUtc: { value: 60, origin: { source: 'manifest' } },
      deadlineUtc: { value: 360, origin: { source: 'catalog', ref: 'gpu-workloads.yaml:3' } },
    });
    // The same entry stated in full is not inferred.
    const { filled: _f, ...stated } = filled;
    const plain = reviewChange({
      change: queueChange('batch-q', 8, 16),
      workloads: [stated],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy(),
      telemetry: t,
    });
    expect(plain.confidence).not.toBe('inferred');
  });
});
