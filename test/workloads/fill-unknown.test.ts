import { reviewReason } from '../../src/report/reasons.js';
import { describe, expect, it } from 'vitest';
import { dirsIn, filesIn } from '../../src/cli/tree-readers/dir-reader.js';
import type { ChangeSet, ReviewResult, TreeReader } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review/index.js';
import { clusterQueue } from '../e2e/capacity-files.js';

const NIGHTLY = [
  'apiVersion: batch/v1',
  'kind: CronJob',
  'metadata:',
  '  name: nightly',
  '  namespace: etl',
  'spec:',
  '  schedule: "0 1 * * *"',
  '  jobTemplate:',
  '    metadata:',
  '      labels:',
  '        kueue.x-k8s.io/queue-name: batch-lq',
  '    spec:',
  '      template:',
  '        spec:',
  '          containers:',
  '            - name: main',
  '              resources:',
  '                limits:',
  '                  nvidia.com/gpu: 8',
  '',
].join('\n');
const LOCAL_QUEUE =
  'apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: batch-lq\n  namespace: etl\nspec:\n  clusterQueue: batch-q\n';
const CATALOG = [
  'workloads:',
  '  - name: nightly',
  '    type: batch',
  '    queue: batch-q',
  '    gpusPerJob: 8',
  '    runtime: 2h',
  '    window:',
  '      earliestStart: unknown',
  '      deadline: "06:00"',
  '  - name: embed',
  '    type: batch',
  '    queue: batch-q',
  '    gpusPerJob: 4',
  '    runtime: 1h',
  '    window: {earliestStart: "01:00", deadline: "06:00"}',
  '',
].join('\n');

type Tree = Record<string, string>;
function tree(label: string, files: Tree): TreeReader {
  const paths = Object.keys(files);
  return {
    label,
    read: (p) => Promise.resolve(Object.hasOwn(files, p) ? (files[p] ?? null) : null),
    list: (dir) => Promise.resolve(filesIn(paths, dir)),
    dirs: (dir) => Promise.resolve(dirsIn(paths, dir)),
  };
}

async function review(files: Tree): Promise<ReviewResult> {
  const base = { ...files, 'queues/batch.yaml': clusterQueue('batch-q', 8, null) };
  const head = { ...files, 'queues/batch.yaml': clusterQueue('batch-q', 16, null) };
  const changes: ChangeSet = {
    base: tree('base', base),
    head: tree('head', head),
    changedPaths: () => Promise.resolve(['queues/batch.yaml']),
  };
  return runReview({ changes, policy: { policy: DEFAULT_POLICY, diagnostics: [], file: null } });
}

describe('a catalog entry whose earliest start is unknown, from the files alone', () => {
  it('takes it from its CronJob’s schedule, plans it, and says what it took', async () => {
    const result = await review({ 'gpu-workloads.yaml': CATALOG, 'jobs/nightly.yaml': NIGHTLY, 'jobs/queue.yaml': LOCAL_QUEUE });
    const r = result.reviews[0]!;
    // nightly 01:00–03:00 on 8 GPUs, embed after it: a peak of 8, 10 with headroom. No telemetry: confidence low.
    expect(r).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 2, need: 10, confidence: 'low' });
    expect(r.inferred?.find((w) => w.name === 'nightly')?.earliestStartUtc).toEqual({
      value: 60,
      origin: { source: 'manifest', ref: 'jobs/nightly.yaml:7' },
    });
    expect(result.diagnostics.filter((d) => d.file === 'gpu-workloads.yaml')).toEqual([
      {
        file: 'gpu-workloads.yaml',
        line: 8,
        severity: 'info',
        message: 'workloads[0].window.earliestStart: "unknown": taken as "01:00" from jobs/nightly.yaml:7; write it to confirm it',
      },
    ]);
  });

  it('leaves it out of the need when no manifest declares the workload', async () => {
    const result = await review({ 'gpu-workloads.yaml': CATALOG });
    const r = result.reviews[0]!;
    expect(r).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    expect(reviewReason(r)).toBe('nightly cannot be planned from the catalog, so the need of ClusterQueue batch-q is unknown');
    expect(result.diagnostics.find((d) => d.file === 'gpu-workloads.yaml')?.severity).toBe('warning');
  });
});
