import { describe, expect, it } from 'vitest';
import { declaredWorkloads } from '../../src/workloads/manifests/read-workloads.js';

type File = { path: string; text: string };

const job = (opts: { namespace?: string; annotation?: boolean } = {}) => `apiVersion: batch/v1
kind: Job
metadata:
  name: train
${opts.namespace ? `  namespace: ${opts.namespace}\n` : ''}  ${opts.annotation ? 'annotations' : 'labels'}:
    kueue.x-k8s.io/queue-name: lq
spec:
  template:
    spec:
      containers:
        - name: t
          resources:
            limits:
              nvidia.com/gpu: 2
`;

const localQueue = (namespace: string | null, clusterQueue: string) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: lq
${namespace === null ? '' : `  namespace: ${namespace}\n`}spec:
  clusterQueue: ${clusterQueue}
`;

/** The lookup as the draft sees it: the ClusterQueue found, and how. */
function lookup(files: File[]) {
  const [w] = declaredWorkloads(files).workloads;
  return { clusterQueue: w?.clusterQueue?.name ?? null, code: w?.queueLookup?.code ?? null, namespace: w?.namespace ?? null };
}

/**
 * Semantics-preserving rewrites of a repository: the files in another order, moved under another
 * folder together, each LocalQueue in a file of its own or all in one. The answer must not change.
 */
function variants(files: File[]): File[][] {
  const reversed = [...files].reverse();
  const moved = files.map((f) => ({ ...f, path: `clusters/prod/${f.path}` }));
  const queues = files.filter((f) => f.text.includes('kind: LocalQueue'));
  const merged =
    queues.length > 1 && new Set(queues.map((q) => q.path.slice(0, q.path.lastIndexOf('/') + 1))).size === 1
      ? [...files.filter((f) => !queues.includes(f)), { path: queues[0]?.path ?? 'q.yaml', text: queues.map((q) => q.text).join('---\n') }]
      : files;
  return [files, reversed, moved, merged];
}

const cases: { name: string; files: File[]; want: ReturnType<typeof lookup> }[] = [
  {
    name: 'a Job with no namespace, its LocalQueue in three namespaces, all to one ClusterQueue',
    files: [
      { path: 'jobs/train.yaml', text: job() },
      { path: 'queues/team-a.yaml', text: localQueue('team-a', 'shared') },
      { path: 'queues/team-b.yaml', text: localQueue('team-b', 'shared') },
      { path: 'queues/team-c.yaml', text: localQueue('team-c', 'shared') },
    ],
    want: { clusterQueue: 'shared', code: 'agree', namespace: null },
  },
  {
    name: 'the same, to three ClusterQueues: ambiguous, never "no LocalQueue"',
    files: [
      { path: 'jobs/train.yaml', text: job() },
      { path: 'queues/team-a.yaml', text: localQueue('team-a', 'cq-a') },
      { path: 'queues/team-b.yaml', text: localQueue('team-b', 'cq-b') },
      { path: 'queues/team-c.yaml', text: localQueue('team-c', 'cq-c') },
    ],
    want: { clusterQueue: null, code: 'ambiguous', namespace: null },
  },
  {
    name: 'a Job in team-b: the LocalQueue of team-b',
    files: [
      { path: 'jobs/train.yaml', text: job({ namespace: 'team-b' }) },
      { path: 'queues/team-a.yaml', text: localQueue('team-a', 'cq-a') },
      { path: 'queues/team-b.yaml', text: localQueue('team-b', 'cq-b') },
    ],
    want: { clusterQueue: 'cq-b', code: 'namespace', namespace: 'team-b' },
  },
  {
    name: 'the queue named by the annotation older Kueue releases read',
    files: [
      { path: 'jobs/train.yaml', text: job({ namespace: 'team-b', annotation: true }) },
      { path: 'queues/team-b.yaml', text: localQueue('team-b', 'cq-b') },
    ],
    want: { clusterQueue: 'cq-b', code: 'namespace', namespace: 'team-b' },
  },
  {
    name: 'a Job in a namespace where no LocalQueue of that name is: named, with where they are',
    files: [
      { path: 'jobs/train.yaml', text: job({ namespace: 'team-z' }) },
      { path: 'queues/team-a.yaml', text: localQueue('team-a', 'cq-a') },
    ],
    want: { clusterQueue: null, code: 'other-namespaces', namespace: 'team-z' },
  },
  {
    name: 'a Job with no namespace beside its LocalQueue, others elsewhere leading elsewhere',
    files: [
      { path: 'team-a/train.yaml', text: job() },
      { path: 'team-a/queue.yaml', text: localQueue(null, 'cq-a') },
      { path: 'team-b/queue.yaml', text: localQueue('team-b', 'cq-b') },
    ],
    want: { clusterQueue: 'cq-a', code: 'nearest', namespace: null },
  },
  {
    name: 'a Job with no namespace and the LocalQueues far from it: the one in default, where it lands',
    files: [
      { path: 'jobs/train.yaml', text: job() },
      { path: 'queues/default.yaml', text: localQueue('default', 'cq-default') },
      { path: 'queues/team-b.yaml', text: localQueue('team-b', 'cq-b') },
    ],
    want: { clusterQueue: 'cq-default', code: 'default-namespace', namespace: null },
  },
  {
    name: 'a kustomization sets the namespace: its LocalQueue there',
    files: [
      { path: 'team-b/kustomization.yaml', text: 'namespace: team-b\nresources:\n  - train.yaml\n' },
      { path: 'team-b/train.yaml', text: job({ namespace: 'ignored' }) },
      { path: 'queues/team-a.yaml', text: localQueue('team-a', 'cq-a') },
      { path: 'queues/team-b.yaml', text: localQueue('team-b', 'cq-b') },
    ],
    want: { clusterQueue: 'cq-b', code: 'namespace', namespace: 'team-b' },
  },
  {
    name: 'overlays apply one base in two namespaces whose LocalQueues agree',
    files: [
      { path: 'base/kustomization.yaml', text: 'resources: [train.yaml, queue.yaml]\n' },
      { path: 'base/train.yaml', text: job() },
      { path: 'base/queue.yaml', text: localQueue(null, 'shared') },
      { path: 'overlays/a/kustomization.yaml', text: 'namespace: team-a\nresources: [../../base]\n' },
      { path: 'overlays/b/kustomization.yaml', text: 'namespace: team-b\nresources: [../../base]\n' },
    ],
    want: { clusterQueue: 'shared', code: 'namespace', namespace: null },
  },
  {
    name: 'no LocalQueue of that name anywhere',
    files: [{ path: 'jobs/train.yaml', text: job({ namespace: 'team-a' }) }],
    want: { clusterQueue: null, code: 'none', namespace: 'team-a' },
  },
];

describe('the LocalQueue a queue-name label leads to', () => {
  it.each(cases)('$name', ({ files, want }) => {
    for (const variant of variants(files)) expect(lookup(variant)).toEqual(want);
  });

  it('a kustomization namespace is cited where the draft says where the namespace came from', () => {
    const [w] = declaredWorkloads(cases[7]?.files ?? []).workloads;
    expect(w?.namespaceFrom).toEqual({ file: 'team-b/kustomization.yaml', line: 1 });
  });

  it('of copies that agree (versioned folders), the one nearest the workload is cited', () => {
    const files = ['v1', 'v2', 'v3'].flatMap((v) => [
      { path: `site/${v}/job.yaml`, text: job({ namespace: 'default' }) },
      { path: `site/${v}/queue.yaml`, text: localQueue('default', 'cq') },
    ]);
    const cited = declaredWorkloads(files).workloads.map((w) => [w.source.file, w.clusterQueue?.source.file]);
    expect(cited).toEqual(['v1', 'v2', 'v3'].map((v) => [`site/${v}/job.yaml`, `site/${v}/queue.yaml`]));
  });
});
