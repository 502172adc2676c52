import { describe, expect, it } from 'vitest';
import { runtimeStats } from '../../src/analysis/job-runs.js';
import { observedForDraft } from '../../src/analysis/observed-workloads.js';
import type { DeclaredWorkload, DraftEntry, JobRun, ObservedGpuJobs } from '../../src/domain/index.js';

const DAY = 86_400;
const declared = (name: string, kind: string, namespace: string | null): DraftEntry => {
  const source = { file: `jobs/${name}.yaml`, line: 1 };
  const workload: DeclaredWorkload = {
    name,
    namespace,
    kind,
    type: 'batch',
    source,
    groups: [{ role: 'job', gpusPerPod: 1, pods: 1, source }],
    gpuResource: 'nvidia.com/gpu',
    schedule: null,
    maxRuntimeMinutes: null,
    localQueue: null,
    clusterQueue: null,
    pool: null,
    instanceType: null,
  };
  return { workload, name, schedule: null };
};
const run = (namespace: string, job: string, cronJob: string | null, start: number, minutes: number | null): JobRun => ({
  namespace,
  job,
  cronJob,
  startedAt: start,
  completedAt: minutes === null ? null : start + minutes * 60,
});
const jobs = (runs: JobRun[], gpus: Record<string, number>): ObservedGpuJobs => ({
  runs: { runs, evidence: [] },
  gpus: Object.entries(gpus).map(([key, n]) => {
    const [namespace, job] = key.split('/') as [string, string];
    return { namespace, job, gpus: n };
  }),
  gpuEvidence: [],
});

describe('what telemetry saw of a draft’s workloads', () => {
  it('matches each declared CronJob and Job to its own runs, and lists the rest by CronJob or lone Job', () => {
    const seen = jobs(
      [
        run('etl', 'nightly-1', 'nightly', DAY + 3600, 90),
        run('etl', 'nightly-2', 'nightly', 2 * DAY + 2 * 3600, 120),
        run('etl', 'embed-1', 'embed', DAY + 3 * 3600, 60),
        run('ml', 'finetune', null, DAY + 5 * 3600, null),
        // Same name, another namespace: not the declared nightly's.
        run('other', 'nightly-9', 'nightly', DAY, 10),
      ],
      { 'etl/nightly-1': 8, 'etl/nightly-2': 4, 'etl/embed-1': 2, 'ml/finetune': 1, 'other/nightly-9': 1 },
    );
    const { declared: byName, undeclared } = observedForDraft(
      [declared('nightly', 'CronJob', 'etl'), declared('finetune', 'Job', 'ml'), declared('serve', 'Deployment', 'ml')],
      seen,
      2,
    );
    expect([...byName.keys()]).toEqual(['nightly', 'finetune']);
    expect(byName.get('nightly')).toEqual({
      namespace: 'etl',
      name: 'nightly',
      kind: 'CronJob',
      runs: 2,
      runtime: { completed: 2, median: 90, p90: 120, longest: 120 },
      earliestStartUtc: 60,
      runsPerDay: 1,
      gpusPerRun: 8,
    });
    // A run still going (or failed) has no runtime.
    expect(byName.get('finetune')).toMatchObject({ kind: 'Job', runs: 1, runtime: null, earliestStartUtc: 300 });
    expect(undeclared.map((o) => [o.kind, `${o.namespace}/${o.name}`, o.runs, o.gpusPerRun])).toEqual([
      ['CronJob', 'etl/embed', 1, 2],
      ['CronJob', 'other/nightly', 1, 1],
    ]);
  });

  it('gives the median and the 90th percentile by nearest rank, whole minutes up', () => {
    const runs = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100.5].map((m, i) => run('a', `j-${i}`, 'j', i * DAY, m));
    expect(runtimeStats(runs)).toEqual({ completed: 10, median: 50, p90: 90, longest: 101 });
    expect(runtimeStats([run('a', 'j', null, 0, null)])).toBeNull();
  });
});
