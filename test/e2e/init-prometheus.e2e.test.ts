import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/workloads/catalog.js';
import { runCli } from '../cli/run-cli.js';
import { DAY, HOUR } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import type { Family, SeriesPoints } from '../helpers/prometheus/openmetrics.js';
import { startTwoDaysOf } from './two-days.js';

/**
 * Two days of a cluster as kube-state-metrics reports it: etl's nightly CronJob (declared in the
 * repository, two pods of 4 GPUs, 01:00–03:00 then 01:00–02:30), etl's embed CronJob (declared
 * nowhere, one pod of 2 GPUs, from 03:00 for 1h and 1h10m), ml's finetune Job (declared, no
 * schedule, 05:00–06:30 once) and a cleanup Job that requests no GPU.
 */
function cluster(start: number, end: number, step: number): Family[] {
  const times: number[] = [];
  for (let t = start; t <= end; t += step) times.push(t);
  const s = (name: string, labels: Record<string, string>, v: (t: number) => number | null): SeriesPoints => ({
    name,
    labels,
    points: times.flatMap((t): [number, number][] => {
      const x = v(t);
      return x === null ? [] : [[t, x]];
    }),
  });
  const at = (day: number, hour: number) => start + day * DAY + hour * HOUR;
  const jobs = [
    { ns: 'etl', name: 'nightly-0', cron: 'nightly', start: at(0, 1), end: at(0, 3), pods: 2, gpus: 4 },
    { ns: 'etl', name: 'nightly-1', cron: 'nightly', start: at(1, 1), end: at(1, 2.5), pods: 2, gpus: 4 },
    { ns: 'etl', name: 'embed-0', cron: 'embed', start: at(0, 3), end: at(0, 4), pods: 1, gpus: 2 },
    { ns: 'etl', name: 'embed-1', cron: 'embed', start: at(1, 3), end: at(1, 3 + 70 / 60), pods: 1, gpus: 2 },
    { ns: 'ml', name: 'finetune', cron: null, start: at(1, 5), end: at(1, 6.5), pods: 1, gpus: 1 },
    { ns: 'etl', name: 'cleanup-0', cron: 'cleanup', start: at(0, 6), end: at(0, 6.5), pods: 1, gpus: 0 },
  ];
  const pods = jobs.flatMap((j) => Array.from({ length: j.pods }, (_, i) => ({ ...j, pod: `${j.name}-${i}` })));
  const job = (j: (typeof jobs)[number]) => ({ namespace: j.ns, job_name: j.name });
  const pod = (p: (typeof pods)[number]) => ({ namespace: p.ns, pod: p.pod, uid: p.pod });
  const from = (t0: number) => (t: number) => (t >= t0 ? 1 : null);
  const gauge = (name: string, series: SeriesPoints[]): Family => ({ name, type: 'gauge', series });
  return [
    gauge(
      'kube_job_owner',
      jobs.map((j) =>
        s(
          'kube_job_owner',
          { ...job(j), owner_kind: j.cron === null ? '<none>' : 'CronJob', owner_name: j.cron ?? '<none>', owner_is_controller: 'true' },
          from(j.start),
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
      pods.map((p) =>
        s('kube_pod_owner', { ...pod(p), owner_kind: 'Job', owner_name: p.name, owner_is_controller: 'true' }, from(p.start)),
      ),
    ),
    gauge(
      'kube_pod_container_resource_requests',
      pods
        .filter((p) => p.gpus > 0)
        .map((p) =>
          s(
            'kube_pod_container_resource_requests',
            { ...pod(p), container: 'main', node: 'gpu-node-1', resource: 'nvidia_com_gpu', unit: 'integer' },
            (t) => (t >= p.start && t <= p.end ? p.gpus : null),
          ),
        ),
    ),
  ];
}

const NIGHTLY = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: etl
spec:
  schedule: "0 1 * * *"
  jobTemplate:
    spec:
      parallelism: 2
      template:
        spec:
          nodeSelector:
            karpenter.sh/nodepool: a100-pool
          containers:
            - name: main
              resources:
                limits:
                  nvidia.com/gpu: 4
`;
const FINETUNE = `apiVersion: batch/v1
kind: Job
metadata:
  name: finetune
  namespace: ml
spec:
  template:
    spec:
      nodeSelector:
        karpenter.sh/nodepool: a100-pool
      containers:
        - name: main
          resources:
            limits:
              nvidia.com/gpu: 1
`;

let prom: RunningPrometheus;
let end: Date;
let dir: string;
beforeAll(async () => {
  ({ prom, at: end } = await startTwoDaysOf(cluster));
  dir = mkdtempSync(path.join(tmpdir(), 'gpu-justify-init-prom-'));
  mkdirSync(path.join(dir, 'jobs'));
  writeFileSync(path.join(dir, 'jobs/nightly.yaml'), NIGHTLY);
  writeFileSync(path.join(dir, 'jobs/finetune.yaml'), FINETUNE);
}, 60_000);
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const lineOf = (draft: string, start: string) => draft.split('\n').find((l) => l.trimStart().startsWith(start)) ?? '';

describe('gpu-justify init --prometheus, on a real Prometheus', () => {
  it('drafts what the runs show, each value citing the query and window, and the GPU jobs no manifest declares', async () => {
    const { code, stdout, stderr } = await runCli(
      'init',
      '--dir',
      dir,
      '--prometheus',
      prom.url,
      '--at',
      end.toISOString(),
      '--window',
      '2d',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const catalog = parseCatalog('gpu-workloads.yaml', stdout);
    expect(catalog.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Every job waits for its deadline, the one field only the team can state; with one written, each is complete.
    expect(catalog.rejected.map((r) => r.name)).toEqual(['finetune', 'nightly', 'embed']);
    const written = parseCatalog('gpu-workloads.yaml', stdout.replaceAll('deadline: unknown', 'deadline: "23:00"'));
    expect(written.rejected).toEqual([]);
    const partial = (name: string) => written.workloads.find((w) => w.name === name);
    // nightly: its schedule from the manifest, its runtime the longer of its two runs.
    expect(partial('nightly')).toMatchObject({ gpusPerJob: 8, runtime: 120, window: { earliestStart: 60 }, pool: 'a100-pool' });
    // finetune states no schedule: its one run tells when it starts.
    expect(partial('finetune')).toMatchObject({ gpusPerJob: 1, runtime: 90, jobsPerDay: 1, window: { earliestStart: 300 } });
    // embed is in no manifest: what its runs and pods show, marked to confirm; cleanup requests no GPU.
    expect(partial('embed')).toMatchObject({
      gpusPerJob: 2,
      runtime: 70,
      jobsPerDay: 1,
      window: { earliestStart: 180 },
      selector: { namespace: 'etl' },
    });
    expect(stdout).not.toContain('cleanup');
    expect(stdout).toContain('# CronJob etl/embed: seen running in');
    expect(lineOf(stdout, 'runtime: 2h')).toContain('observed, longest of 2 completed runs (median 1h30m, p90 2h) [runs]');
    expect(lineOf(stdout, 'earliestStart: "05:00"')).toContain('observed, the earliest start of a run (UTC) [runs]');
    expect(stdout).toContain('# observed: its pods requested 8 GPUs a run [gpus]');
    // The window and the queries, cited once at the top.
    expect(stdout).toContain(`over 2880m to ${end.toISOString()}, asked by:`);
    expect(lineOf(stdout, '#   [runs]')).toContain('kube_job_status_start_time');
    expect(lineOf(stdout, '#   [gpus]')).toContain('kube_pod_container_resource_requests');
  });

  it('writes nothing when the Prometheus cannot be reached, and names it', async () => {
    const out = path.join(dir, 'draft.yaml');
    const { code, stderr } = await runCli('init', '--dir', dir, '--out', out, '--prometheus', 'http://127.0.0.1:9', '--window', '2d');
    expect(code).toBe(2);
    expect(stderr).toContain('http://127.0.0.1:9');
    expect(stderr).toContain('no draft written');
    expect(() => rmSync(out)).toThrow();
  });
});
