import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReview, ChangeSet, ReviewResult, TreeReader } from '../../src/domain/index.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { dirsIn, filesIn } from '../../src/cli/tree-readers/dir-reader.js';
import { renderComment } from '../../src/report/comment.js';
import { reviewJson } from '../../src/report/json.js';
import { runReview } from '../../src/review.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { parseSnapshot, SnapshotSource } from '../../src/telemetry/snapshot.js';
import { runCli } from '../cli/run-cli.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { DAY, HOUR } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import type { Family, SeriesPoints } from '../helpers/prometheus/openmetrics.js';
import { clusterQueue, karpenterPool } from './capacity-files.js';
import { startTwoDaysOf, TWO_DAYS_MINUTES } from './two-days.js';
import { reviewReason } from '../../src/report/reasons.js';
import { missingWords } from '../../src/report/missing-words.js';

/**
 * A cluster whose repository has no workload catalog. The A100 pool holds an abandoned notebook
 * (4 GPUs at 1%, all window) and a busy service (2 GPUs); team-a uses all its 8 GPUs of quota while
 * team-b, in the same cohort, uses 2 of its 16; batch-q runs two CronJobs from 01:00 UTC (nightly,
 * 8 GPUs for 2 h; embed, 4 GPUs for 1 h, pending until nightly is done) on a quota of 8.
 */
const NODE = 'gpu-node-1';
const POOL = 'a100-pool';
const at = (start: number, hour: number, day: number) => start + day * DAY + hour * HOUR;

function cluster(start: number, end: number, step: number): Family[] {
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
const MANIFESTS = {
  'ml/queue.yaml':
    'apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: batch-lq\n  namespace: ml\nspec:\n  clusterQueue: ml-q\n',
  'ml/train.yaml': cronJob('train', 4).replace('namespace: etl', 'namespace: ml').replace('"0 1 * * *"', '"0 2 * * *"'),
  'jobs/queue.yaml':
    'apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: batch-lq\n  namespace: etl\nspec:\n  clusterQueue: batch-q\n',
  'jobs/nightly.yaml': cronJob('nightly', 8),
  'jobs/embed.yaml': cronJob('embed', 4),
};

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
function changeSet(base: Tree, head: Tree): ChangeSet {
  const changed = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]);
  return { base: tree('base', base), head: tree('head', head), changedPaths: () => Promise.resolve(changed) };
}

let prom: RunningPrometheus;
let end: Date;
beforeAll(async () => {
  ({ prom, at: end } = await startTwoDaysOf(cluster));
}, 60_000);
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

async function review(path: string, before: string, after: string, source?: TelemetrySource): Promise<ReviewResult> {
  return runReview({
    changes: changeSet({ ...MANIFESTS, [path]: before }, { ...MANIFESTS, [path]: after }),
    policy: { policy: { ...DEFAULT_POLICY, window: TWO_DAYS_MINUTES }, diagnostics: [], file: null },
    telemetry: { source: source ?? new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 })), at: end },
  });
}
const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};

describe('a review with no workload catalog, on a real Prometheus', () => {
  it('shows the request not needed when reclaiming the idle notebook covers it', async () => {
    const result = await review('pools/a100.yaml', karpenterPool(POOL, 'p4de.24xlarge', 8), karpenterPool(POOL, 'p4de.24xlarge', 12));
    const r = only(result);
    // Observed peak 6 (+20% → 8) fills the 8 there; without the notebook's 4 it is 2 (→ 3), leaving 5 for the 4 asked.
    expect(r).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 3, needWithoutLevers: 8, confidence: 'inferred' });
    expect(r.demand).toMatchObject({ scope: 'pool', peakHeld: 6, peakDemand: 6, peakPending: null });
    expect(r.demand!.gpuHoursPerDay).toBeCloseTo(6 * 24, 0);
    expect(r.idlePods?.map((p) => `${p.namespace}/${p.pod}`)).toEqual(['research/notebook-0']);
    expect(r.findings.find((f) => f.lever === 'reclaim-idle')).toMatchObject({ gpusFreed: 4, meetsNeed: true });
    expect(result.verdict).toBe('not-justified');
    expect(reviewReason(r)).toBe(
      'the 8 GPUs already there hold the observed peak (6 GPUs, 2 without the idle pods; 3 with headroom) and the 4 asked with reclaim-idle',
    );
    // Still listed: the catalog that would make the review precise.
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toContain('a workload catalog (gpu-workloads.yaml)');
    const comment = renderComment(result);
    expect(comment).toContain('Observed GPU demand on a100-pool');
    expect(comment).toContain('`gpu-justify init`');
  });

  it('shows the request not needed when quota the cohort leaves unused covers it', async () => {
    const r = only(await review('queues/team-a.yaml', clusterQueue('team-a', 8, 'research'), clusterQueue('team-a', 12, 'research')));
    // Observed peak 8 (+20% → 10) over the 8 there: -2, plus team-b's 14 unused covers the 4 asked.
    expect(r).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 10, confidence: 'inferred' });
    expect(r.demand).toMatchObject({ scope: 'queue', peakHeld: 8, peakDemand: 8 });
    expect(r.findings.find((f) => f.lever === 'borrow-quota')).toMatchObject({ gpusFreed: 14, meetsNeed: true });
    expect(reviewReason(r)).toContain('14 borrowable');
    expect(reviewReason(r)).toContain('observed peak (8 GPUs; 10 with headroom)');
  });

  it('counts a CronJob seen in the repository and in kube-state-metrics once, each field with its origin', async () => {
    const result = await review('queues/batch.yaml', clusterQueue('batch-q', 8, null), clusterQueue('batch-q', 16, null));
    const r = only(result);
    expect(r.inferred?.map((w) => [w.name, w.runsObserved])).toEqual([
      ['embed', 2],
      ['nightly', 2],
    ]);
    const nightly = r.inferred!.find((w) => w.name === 'nightly')!;
    // The pod template of its GPUs, and the CronJob's schedule line.
    expect(nightly.gpus).toEqual({ value: 8, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:13' } });
    expect(nightly.earliestStartUtc).toEqual({ value: 60, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:7' } });
    expect(nightly.runtimeMinutes.value).toBe(120);
    expect(nightly.runtimeMinutes.origin).toMatchObject({ source: 'telemetry', window: `${TWO_DAYS_MINUTES}m to ${end.toISOString()}` });
    expect(nightly.runtimeMinutes.origin!.ref).toContain('kube_job_status_completion_time');
    expect(nightly.deadlineUtc).toEqual({ value: null, origin: null });
    const json = reviewJson(result).reviews[0]!;
    expect(json.inferredWorkloads?.map((w) => w.name)).toEqual(['embed', 'nightly']);
  });

  it('gives a batch queue with no deadline anywhere no verdict, and what each deadline would need', async () => {
    const result = await review('queues/batch.yaml', clusterQueue('batch-q', 8, null), clusterQueue('batch-q', 16, null));
    const r = only(result);
    // 8 admitted and 4 pending at 01:00–03:00: a peak demand of 12, more than the 8 there.
    expect(r.demand).toMatchObject({ peakHeld: 8, peakPending: 4, peakDemand: 12 });
    expect(r).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    // Both from 01:00: done by 03:00 needs them side by side (12); by 04:00 one after the other (8).
    expect(r.deadlines).toEqual({
      workloads: ['embed', 'nightly'],
      rungs: [
        { deadlineUtc: 180, gpus: 12 },
        { deadlineUtc: 240, gpus: 8 },
      ],
      capacity: 8,
      capacityDoneBy: 240,
    });
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toEqual(
      expect.arrayContaining(['a deadline for nightly', 'a deadline for embed']),
    );
    const comment = renderComment(result);
    expect(comment).toContain('done by 03:00: 12 GPUs; by 04:00: 8 GPUs; the 8 there today finish by 04:00');
  });

  it('reads a run from its pods when kube-state-metrics exports no Job series', async () => {
    const r = only(await review('queues/ml.yaml', clusterQueue('ml-q', 4, null), clusterQueue('ml-q', 8, null)));
    const train = r.inferred?.find((w) => w.name === 'train');
    // First pod at 02:00, both done at 02:45; the pods' Job name carries the CronJob's.
    expect(train).toMatchObject({ runsObserved: 2, runtimeMinutes: { value: 45 }, earliestStartUtc: { value: 120 } });
    expect(train!.runtimeMinutes.origin!.ref).toContain('kube_pod_completion_time');
  });
});

/** A catalog that leaves nightly's runtime and start to the review: only its deadline is the team's. */
const CATALOG = [
  'workloads:',
  '  - name: nightly',
  '    type: batch',
  '    queue: batch-q',
  '    gpusPerJob: 8',
  '    runtime: unknown',
  '    window:',
  '      earliestStart: unknown',
  '      deadline: "06:00"',
  '    selector: {namespace: etl}',
  '  - name: embed',
  '    type: batch',
  '    queue: batch-q',
  '    gpusPerJob: 4',
  '    runtime: 1h',
  '    window:',
  '      earliestStart: "01:00"',
  '      deadline: "06:00"',
  '    selector: {namespace: etl}',
  '',
].join('\n');

describe('a catalog entry that leaves its runtime unknown, on a real Prometheus', () => {
  async function withCatalog(telemetry: boolean): Promise<ReviewResult> {
    const files = { ...MANIFESTS, 'gpu-workloads.yaml': CATALOG };
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }));
    return runReview({
      changes: changeSet(
        { ...files, 'queues/batch.yaml': clusterQueue('batch-q', 8, null) },
        { ...files, 'queues/batch.yaml': clusterQueue('batch-q', 16, null) },
      ),
      policy: { policy: { ...DEFAULT_POLICY, window: TWO_DAYS_MINUTES }, diagnostics: [], file: null },
      ...(telemetry ? { telemetry: { source, at: end } } : {}),
    });
  }

  it('takes it from the observed Job runs, and the verdict rests on the plan instead of a missing entry', async () => {
    // From the files alone no run is seen: nightly stays out of the need and nothing can be judged.
    const files = only(await withCatalog(false));
    expect(files).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    expect(reviewReason(files)).toContain('nightly cannot be planned from the catalog');

    const result = await withCatalog(true);
    const r = only(result);
    // nightly: 8 GPUs for 2 h from 01:00 (its CronJob's schedule), embed after it: a peak of 8, 10 with headroom.
    expect(r).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 2, need: 10, confidence: 'inferred' });
    expect(r.workloads).toEqual(['embed', 'nightly']);
    const nightly = r.inferred!.find((w) => w.name === 'nightly')!;
    expect(nightly.runtimeMinutes.value).toBe(120);
    expect(nightly.runtimeMinutes.origin).toMatchObject({ source: 'telemetry', window: `${TWO_DAYS_MINUTES}m to ${end.toISOString()}` });
    expect(nightly.runtimeMinutes.origin!.ref).toContain('kube_job_status_completion_time');
    expect(nightly.earliestStartUtc).toEqual({ value: 60, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:7' } });
    expect(nightly.deadlineUtc).toEqual({ value: 360, origin: { source: 'catalog', ref: 'gpu-workloads.yaml:2' } });
    // The warning that kept it out becomes a note of what was taken.
    expect(result.diagnostics.filter((d) => d.file === 'gpu-workloads.yaml').map((d) => [d.severity, d.message])).toEqual([
      ['info', expect.stringMatching(/^workloads\[0\]\.runtime: "unknown": taken as 2h from the runs telemetry observed over/)],
      ['info', 'workloads[0].window.earliestStart: "unknown": taken as "01:00" from jobs/nightly.yaml:7; write it to confirm it'],
    ]);
    const comment = renderComment(result);
    expect(comment).toContain('To confirm in a catalog for batch-q (1)');
    expect(comment).toContain('inferred:** what the catalog leaves `unknown` is taken from');
  });
});

/** Writes a tree of files under a new temporary directory. */
async function writeTree(files: Tree): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gj-snapshot-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('a snapshot with no workload catalog, recorded from a real Prometheus', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  /** Records with the CLI, then replays a review of the change offline; the live review asks at the step the CLI records at. */
  async function replayed(args: string[], path: string, before: string, after: string): Promise<[ReviewResult, ReviewResult]> {
    const out = await writeTree({});
    dirs.push(out);
    const file = join(out, 'snap.json');
    const rec = await runCli('snapshot', ...args, '--prometheus', prom.url, '--at', end.toISOString(), '--window', '2d', '--out', file);
    expect(rec.stderr).toMatch(/^Recorded \d+ answers/m);
    expect(rec.code).toBe(0);
    const snapshot = parseSnapshot(await readFile(file, 'utf8'), file);
    const live = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), { minStepSeconds: 300 });
    return Promise.all([review(path, before, after, live), review(path, before, after, new SnapshotSource(snapshot, file))]);
  }
  const reviewsOf = (r: ReviewResult) => reviewJson(r).reviews;

  it('holds what a review of every queue the manifests name needs, read from a checkout (--dir)', async () => {
    const dir = await writeTree(MANIFESTS);
    dirs.push(dir);
    for (const queue of ['batch-q', 'ml-q']) {
      const path = `queues/${queue}.yaml`;
      const [live, replay] = await replayed(['--dir', dir], path, clusterQueue(queue, 4, null), clusterQueue(queue, 16, null));
      expect(replay.missingEvidence.filter((m) => missingWords(m).what.includes('holds no answer'))).toEqual([]);
      expect(reviewsOf(replay)).toEqual(reviewsOf(live));
      expect(only(replay).inferred?.some((w) => w.runsObserved > 0)).toBe(true);
    }
  });

  it('holds what the review of the change between --base and --head needs', async () => {
    const path = 'pools/a100.yaml';
    const [before, after] = [karpenterPool(POOL, 'p4de.24xlarge', 8), karpenterPool(POOL, 'p4de.24xlarge', 12)];
    const base = await writeTree({ ...MANIFESTS, [path]: before });
    const head = await writeTree({ ...MANIFESTS, [path]: after });
    dirs.push(base, head);
    const [live, replay] = await replayed(['--base', base, '--head', head], path, before, after);
    expect(replay.missingEvidence.filter((m) => missingWords(m).what.includes('holds no answer'))).toEqual([]);
    expect(reviewsOf(replay)).toEqual(reviewsOf(live));
    expect(only(replay).idlePods?.map((p) => p.pod)).toEqual(['notebook-0']);
  });
});
