/**
 * A cluster whose repository has no workload catalog. The A100 pool holds an abandoned notebook
 * (4 GPUs at 1%, all window) and a busy service (2 GPUs); team-a uses all its 8 GPUs of quota while
 * team-b, in the same cohort, uses 2 of its 16; batch-q runs two CronJobs from 01:00 UTC (nightly,
 * 8 GPUs for 2 h; embed, 4 GPUs for 1 h, pending until nightly is done) on a quota of 8.
 * Its review: a change to one file on top of the repository's manifests (no catalog).
 */
import type { ChangeReview, ChangeSet, ReviewResult, TreeReader } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { dirsIn, filesIn } from '../../src/cli/tree-readers/dir-reader.js';
import { runReview } from '../../src/review/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { expect } from 'vitest';
import { DAY, HOUR } from '../helpers/prometheus/index.js';
import type { Family, SeriesPoints } from '../helpers/prometheus/openmetrics.js';
import { type TwoDaysOf, TWO_DAYS_MINUTES } from './two-days.js';

const NODE = 'gpu-node-1';
export const POOL = 'a100-pool';
const at = (start: number, hour: number, day: number) => start + day * DAY + hour * HOUR;

export function noCatalogCluster(start: number, end: number, step: number): Family[] {
  const times: number[] = [];
  for (let t = start; t <= end; t += step) times.push(t);
  const clock = (t: number) => (t % DAY) / HOUR;
  const s = (name: string, labels: Record<string, string>, v: (t: number) => number | null): SeriesPoints => ({
    name,
    labels,
    points: times.flatMap((t): [number, number][] => {
      const x = v(t);
      return x === null ? [] : [[t, x]];
    }),
  });
  const gauge = (name: string, series: SeriesPoints[]): Family => ({ name, type: 'gauge', series });
  const pods = [
    { namespace: 'research', pod: 'notebook-0', gpus: 4, util: 1 },
    { namespace: 'prod', pod: 'serve-0', gpus: 2, util: 70 },
  ];
  const q = (cluster_queue: string, cohort: string, resource = 'nvidia.com/gpu') => ({
    cluster_queue,
    cohort,
    flavor: 'a100',
    resource,
    replica_role: 'standalone',
  });
  const nightly = (t: number) => clock(t) >= 1 && clock(t) < 3;
  const embed = (t: number) => clock(t) >= 3 && clock(t) < 4;
  // Each Job as kube-state-metrics reports it while it exists: its start, then its completion.
  const jobs = [0, 1].flatMap((day) => [
    { name: `nightly-${day}`, owner: 'nightly', start: at(start, 1, day), end: at(start, 3, day) },
    { name: `embed-${day}`, owner: 'embed', start: at(start, 3, day), end: at(start, 4, day) },
  ]);
  const job = (j: (typeof jobs)[number]) => ({ namespace: 'etl', job_name: j.name });
  // ml exports no Job series (kube-state-metrics' jobs collector off): only its pods, two per run, 02:00–02:45.
  const mlPods = [0, 1].flatMap((day) => {
    const begin = at(start, 2, day);
    const owner = `train-${Math.floor(begin / 60)}`;
    return [0, 1].map((i) => ({ pod: `${owner}-${i}`, owner, start: begin + i * 60, end: begin + 45 * 60 }));
  });
  const pod = (p: (typeof mlPods)[number]) => ({ namespace: 'ml', pod: p.pod, uid: p.pod });
  return [
    gauge('kube_node_labels', [s('kube_node_labels', { node: NODE, label_karpenter_sh_nodepool: POOL }, () => 1)]),
    gauge('kube_node_status_allocatable', [
      s('kube_node_status_allocatable', { node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' }, () => 8),
    ]),
    gauge(
      'kube_pod_container_resource_requests',
      pods.map((p) =>
        s(
          'kube_pod_container_resource_requests',
          { namespace: p.namespace, pod: p.pod, uid: p.pod, container: 'main', node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' },
          () => p.gpus,
        ),
      ),
    ),
    gauge(
      'DCGM_FI_DEV_GPU_UTIL',
      pods.flatMap((p, i) =>
        Array.from({ length: p.gpus }, (_, g) =>
          s(
            'DCGM_FI_DEV_GPU_UTIL',
            { gpu: String(i * 4 + g), modelName: 'NVIDIA A100-SXM4-80GB', Hostname: NODE, namespace: p.namespace, pod: p.pod },
            () => p.util,
          ),
        ),
      ),
    ),
    gauge('kueue_cluster_queue_nominal_quota', [
      s('kueue_cluster_queue_nominal_quota', q('team-a', 'research'), () => 8),
      s('kueue_cluster_queue_nominal_quota', q('team-b', 'research'), () => 16),
      s('kueue_cluster_queue_nominal_quota', q('batch-q', ''), () => 8),
      s('kueue_cluster_queue_nominal_quota', q('ml-q', ''), () => 4),
    ]),
    // Kueue v0.19 on: an unset lendingLimit is +Inf, so team-b lends all it leaves unused.
    gauge('kueue_cluster_queue_lending_limit', [
      s('kueue_cluster_queue_lending_limit', q('team-a', 'research'), () => Number.POSITIVE_INFINITY),
      s('kueue_cluster_queue_lending_limit', q('team-b', 'research'), () => Number.POSITIVE_INFINITY),
    ]),
    gauge('kueue_cluster_queue_resource_usage', [
      s('kueue_cluster_queue_resource_usage', q('team-a', 'research'), () => 8),
      s('kueue_cluster_queue_resource_usage', q('team-b', 'research'), () => 2),
      s('kueue_cluster_queue_resource_usage', q('batch-q', ''), (t) => (nightly(t) ? 8 : embed(t) ? 4 : 0)),
    ]),
    gauge('kueue_cluster_queue_resource_pending', [
      s(
        'kueue_cluster_queue_resource_pending',
        { cluster_queue: 'batch-q', resource: 'nvidia.com/gpu', replica_role: 'standalone' },
        (t) => (nightly(t) ? 4 : 0),
      ),
    ]),
    gauge(
      'kube_job_owner',
      jobs.map((j) =>
        s('kube_job_owner', { ...job(j), owner_kind: 'CronJob', owner_name: j.owner, owner_is_controller: 'true' }, (t) =>
          t >= j.start ? 1 : null,
        ),
      ),
    ),
    gauge(
      'kube_job_status_start_time',
      jobs.map((j) => s('kube_job_status_start_time', job(j), (t) => (t >= j.start ? j.start : null))),
    ),
    gauge(
      'kube_job_status_completion_time',
      jobs.map((j) => s('kube_job_status_completion_time', job(j), (t) => (t >= j.end ? j.end : null))),
    ),
    gauge(
      'kube_pod_owner',
      mlPods.map((p) =>
        s('kube_pod_owner', { ...pod(p), owner_kind: 'Job', owner_name: p.owner, owner_is_controller: 'true' }, (t) =>
          t >= p.start ? 1 : null,
        ),
      ),
    ),
    gauge(
      'kube_pod_start_time',
      mlPods.map((p) => s('kube_pod_start_time', pod(p), (t) => (t >= p.start ? p.start : null))),
    ),
    gauge(
      'kube_pod_completion_time',
      mlPods.map((p) => s('kube_pod_completion_time', pod(p), (t) => (t >= p.end ? p.end : null))),
    ),
  ];
}

/** The repository's own manifests: a LocalQueue and the two CronJobs that use it. */
const cronJob = (name: string, gpus: number) =>
  [
    'apiVersion: batch/v1',
    'kind: CronJob',
    'metadata:',
    `  name: ${name}`,
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
    '          restartPolicy: Never',
    '          containers:',
    '            - name: main',
    '              image: registry.example/etl:1',
    '              resources:',
    '                limits:',
    `                  nvidia.com/gpu: ${gpus}`,
    '',
  ].join('\n');
export const MANIFESTS = {
  'ml/queue.yaml':
    'apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: batch-lq\n  namespace: ml\nspec:\n  clusterQueue: ml-q\n',
  'ml/train.yaml': cronJob('train', 4).replace('namespace: etl', 'namespace: ml').replace('"0 1 * * *"', '"0 2 * * *"'),
  'jobs/queue.yaml':
    'apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: batch-lq\n  namespace: etl\nspec:\n  clusterQueue: batch-q\n',
  'jobs/nightly.yaml': cronJob('nightly', 8),
  'jobs/embed.yaml': cronJob('embed', 4),
};

export type Tree = Record<string, string>;
function tree(label: string, files: Tree): TreeReader {
  const paths = Object.keys(files);
  return {
    label,
    read: (p) => Promise.resolve(Object.hasOwn(files, p) ? (files[p] ?? null) : null),
    list: (dir) => Promise.resolve(filesIn(paths, dir)),
    dirs: (dir) => Promise.resolve(dirsIn(paths, dir)),
  };
}
export function changeSet(base: Tree, head: Tree): ChangeSet {
  const changed = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]);
  return { base: tree('base', base), head: tree('head', head), changedPaths: () => Promise.resolve(changed) };
}

/** The review of a change to `path` on top of the manifests, from the Prometheus given (or the source given). */
export async function reviewOn(
  live: TwoDaysOf,
  path: string,
  before: string,
  after: string,
  source?: TelemetrySource,
): Promise<ReviewResult> {
  return runReview({
    changes: changeSet({ ...MANIFESTS, [path]: before }, { ...MANIFESTS, [path]: after }),
    policy: { policy: { ...DEFAULT_POLICY, window: TWO_DAYS_MINUTES }, diagnostics: [], file: null },
    telemetry: { source: source ?? new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: live.prom.url }, { retries: 0 })), at: live.at },
  });
}
export const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};
