/**
 * dcgm-exporter writes each profiling field under the name its counters CSV gives it: the legacy
 * `DCGM_FI_PROF_*_ACTIVE` of every released CSV, or the `*_UTIL_RATIO` names DCGM's field naming
 * standard gave the same field ids. Four node pools of identical GPUs, each with its own exporter
 * generation, all backfilled into one real Prometheus:
 *
 * - `legacy`: the profiling fields under the legacy names only;
 * - `renamed`: the same values under the renamed fields only;
 * - `both`: the same values under both names (a CSV listing both, or two exporters in migration);
 * - `neither`: GPU_UTIL and FB_USED only, no profiling field (a CSV without them).
 *
 * Each pool has one node with two whole GPUs and one GPU sliced into two 1g.10gb MIG instances,
 * all held by pod `server-0` in the namespace named like the pool. Worked by hand for `legacy` at
 * the window's end (hour 6, even: no burst): GR on device d is 0.1 + 0.05·d for d = 0…3 (whole
 * GPUs 0, 1; instances 2, 3) = 0.1, 0.15, 0.2, 0.25; tensor is half of GR, so the workload's mean
 * tensor activity is (0.05 + 0.075 + 0.1 + 0.125) / 4 = 0.0875. The MIG instances' summed GR is
 * 0.2 + 0.25 = 0.45, the whole GPUs' 0.1 + 0.15 = 0.25. The replica's peak SM activity (whole GPUs
 * only) is in an odd hour (burst 0.3) on d = 1: 0.8 × (0.15 + 0.3) = 0.36. `renamed` and `both` must answer exactly the same (in `both`
 * every number would double if a GPU were counted under each of its names); `neither` answers no
 * series, which the source reports as missing data with the step that enables the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIG_ACTIVITY, POD_MEASURE_LABEL, REPLICA_PEAKS } from '../../src/domain/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { dramActive, migActivity, migPods, smActivity, tensorActive } from '../../src/telemetry/queries/index.js';
import { replicaPeaks } from '../../src/telemetry/queries/dcgm-replicas.js';
import type { NamedQuery } from '../../src/telemetry/queries/index.js';
import type { QueryResult } from '../../src/telemetry/source.js';
import { startPrometheus } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import { toOpenMetrics } from '../helpers/prometheus/openmetrics.js';
import type { Family, SeriesPoints } from '../helpers/prometheus/openmetrics.js';

const STEP = 300;
const HOURS = 6;
// Whole hours, in the past, so every sample is backfilled before Prometheus starts.
const END = Math.floor(Date.now() / 3_600_000) * 3600 - 3600;
const START = END - HOURS * 3600;
const WINDOW_MINUTES = (HOURS * 3600) / 60;
const MODEL = 'NVIDIA A100-SXM4-40GB';
const POD = 'server-0';
const POOL_LABEL = 'gpu-justify/pool';
const GENERATIONS = ['legacy', 'renamed', 'both', 'neither'] as const;
type Generation = (typeof GENERATIONS)[number];

const NAMES = {
  gr: ['DCGM_FI_PROF_GR_ENGINE_ACTIVE', 'DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO'],
  sm: ['DCGM_FI_PROF_SM_ACTIVE', 'DCGM_FI_PROF_SM_UTIL_RATIO'],
  tensor: ['DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', 'DCGM_FI_PROF_TENSOR_UTIL_RATIO'],
  dram: ['DCGM_FI_PROF_DRAM_ACTIVE', 'DCGM_FI_PROF_DRAM_UTIL_RATIO'],
} as const;
type Field = keyof typeof NAMES;

/** Hours since the window opened; odd hours carry a burst. */
const burst = (t: number) => (Math.floor((t - START) / 3600) % 2 === 1 ? 0.3 : 0);
const gr = (t: number, d: number) => 0.1 + 0.05 * d + burst(t);
const VALUE: Record<Field, (t: number, d: number) => number> = {
  gr,
  sm: (t, d) => 0.8 * gr(t, d),
  tensor: (t, d) => 0.5 * gr(t, d),
  dram: (t, d) => 0.25 * gr(t, d),
};

interface Device {
  d: number;
  gpu: number;
  instance?: number;
}
const DEVICES: Device[] = [
  { d: 0, gpu: 0 },
  { d: 1, gpu: 1 },
  { d: 2, gpu: 2, instance: 1 },
  { d: 3, gpu: 2, instance: 2 },
];

const times = Array.from({ length: (END - START) / STEP + 1 }, (_, i) => START + i * STEP);

function deviceLabels(g: Generation, dev: Device): Record<string, string> {
  return {
    gpu: String(dev.gpu),
    UUID: `GPU-${g}-${dev.gpu}`,
    modelName: MODEL,
    ...(dev.instance === undefined ? {} : { GPU_I_PROFILE: '1g.10gb', GPU_I_ID: String(dev.instance) }),
    Hostname: `node-${g}`,
    namespace: g,
    pod: POD,
    container: 'server',
  };
}

function dcgm(name: string, g: Generation, value: (t: number, d: number) => number): SeriesPoints[] {
  return DEVICES.map((dev) => ({ name, labels: deviceLabels(g, dev), points: times.map((t) => [t, value(t, dev.d)]) }));
}

function families(): Family[] {
  const byName = new Map<string, SeriesPoints[]>();
  const add = (name: string, series: SeriesPoints[]) => byName.set(name, [...(byName.get(name) ?? []), ...series]);
  for (const g of GENERATIONS) {
    add(
      'DCGM_FI_DEV_GPU_UTIL',
      dcgm('DCGM_FI_DEV_GPU_UTIL', g, (t, d) => Math.round(100 * gr(t, d))),
    );
    add(
      'DCGM_FI_DEV_FB_USED',
      dcgm('DCGM_FI_DEV_FB_USED', g, (_t, d) => 2000 + 500 * d),
    );
    add(
      'DCGM_FI_DEV_FB_FREE',
      dcgm('DCGM_FI_DEV_FB_FREE', g, (_t, d) => 40000 - 2000 - 500 * d),
    );
    for (const field of Object.keys(NAMES) as Field[]) {
      const [legacy, renamed] = NAMES[field];
      if (g === 'legacy' || g === 'both') add(legacy, dcgm(legacy, g, VALUE[field]));
      if (g === 'renamed' || g === 'both') add(renamed, dcgm(renamed, g, VALUE[field]));
    }
    const at = (v: number) => times.map((t): [number, number] => [t, v]);
    add('kube_node_labels', [{ name: 'kube_node_labels', labels: { node: `node-${g}`, label_gpu_justify_pool: g }, points: at(1) }]);
    add('kube_pod_container_resource_requests', [
      {
        name: 'kube_pod_container_resource_requests',
        labels: { namespace: g, pod: POD, container: 'server', node: `node-${g}`, resource: 'nvidia_com_gpu', unit: 'integer' },
        points: at(2),
      },
      {
        name: 'kube_pod_container_resource_requests',
        labels: { namespace: g, pod: POD, container: 'server', node: `node-${g}`, resource: 'nvidia_com_mig_1g_10gb', unit: 'integer' },
        points: at(2),
      },
    ]);
  }
  return [...byName].map(([name, series]) => ({ name, type: 'gauge', series }));
}

let prom: RunningPrometheus;
let source: PrometheusSource;

beforeAll(async () => {
  prom = await startPrometheus(toOpenMetrics(families()));
  source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }));
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

const workload = (g: Generation) => ({ kind: 'workload' as const, name: g, selector: { namespace: g } });
const pool = (g: Generation) => ({ kind: 'pool' as const, name: g, poolLabel: POOL_LABEL });
const run = (q: NamedQuery): Promise<QueryResult> => source.query(q, new Date(END * 1000), WINDOW_MINUTES);

/** An answer with what names the generation (namespace, node, pool) taken out, sorted: comparable across pools. */
async function answer(q: NamedQuery): Promise<{ labels: Record<string, string>; samples: [number, number][] }[]> {
  const r = await run(q);
  if (r.status !== 'ok') throw new Error(`${q.id}: ${r.reason}: ${r.message}`);
  return r.series
    .map((s) => {
      const { namespace: _n, node: _o, ...labels } = s.labels;
      return { labels, samples: s.samples.map((p): [number, number] => [p.t, Number(p.v.toFixed(9))]) };
    })
    .sort((a, b) => JSON.stringify(a.labels).localeCompare(JSON.stringify(b.labels)));
}

const QUERIES: [string, (g: Generation) => NamedQuery][] = [
  ['tensorActive of the workload', (g) => tensorActive(workload(g))],
  ['tensorActive of the pool', (g) => tensorActive(pool(g))],
  ['dramActive of the workload', (g) => dramActive(workload(g))],
  ['dramActive of the pool', (g) => dramActive(pool(g))],
  ['smActivity of the workload', (g) => smActivity(workload(g))],
  ['smActivity of the pool', (g) => smActivity(pool(g))],
  ['migActivity of the workload', (g) => migActivity(workload(g))],
  ['migActivity of the pool', (g) => migActivity(pool(g))],
  ['migPods of the pool', (g) => migPods(pool(g))],
  ['replicaPeaks of the workload', (g) => replicaPeaks(workload(g), { windowMinutes: WINDOW_MINUTES })],
];

const at = (series: { samples: [number, number][] }[], t: number) => series[0]?.samples.find(([s]) => s === t)?.[1];
const part = (series: { labels: Record<string, string>; samples: [number, number][] }[], measure: string, profile?: string) =>
  series.filter((s) => s.labels[POD_MEASURE_LABEL] === measure && (profile === undefined || s.labels.GPU_I_PROFILE === profile));

describe('DCGM metric generations on a real Prometheus', () => {
  it('the legacy names give the hand-worked numbers', async () => {
    expect(at(await answer(tensorActive(workload('legacy'))), END)).toBeCloseTo(0.0875, 9);
    const mig = await answer(migActivity(workload('legacy')));
    expect(at(part(mig, MIG_ACTIVITY.gr, '1g.10gb'), END)).toBeCloseTo(0.45, 9);
    expect(at(part(mig, MIG_ACTIVITY.slices, '1g.10gb'), END)).toBe(2);
    expect(at(part(mig, MIG_ACTIVITY.wholeGr), END)).toBeCloseTo(0.25, 9);
    const sm = await answer(smActivity(pool('legacy')));
    expect(sm.map((s) => s.labels.dcgm_field)).toEqual(['DCGM_FI_PROF_SM_ACTIVE']);
    const peaks = await answer(replicaPeaks(workload('legacy'), { windowMinutes: WINDOW_MINUTES }));
    expect(part(peaks, REPLICA_PEAKS.sm)[0]?.samples[0]?.[1]).toBeCloseTo(0.36, 9);
  });

  for (const [name, query] of QUERIES) {
    it(`${name}: the renamed fields, and both names at once, answer as the legacy names do`, async () => {
      const legacy = await answer(query('legacy'));
      expect(legacy.length).toBeGreaterThan(0);
      expect(await answer(query('renamed'))).toEqual(legacy);
      expect(await answer(query('both'))).toEqual(legacy);
    });
  }

  it('with neither name exported, a profiling query is missing data naming the CSV that enables it, never a zero', async () => {
    for (const q of [tensorActive(workload('neither')), dramActive(pool('neither'))]) {
      const r = await run(q);
      expect(r.status).toBe('missing');
      if (r.status !== 'missing') continue;
      expect(r.reason).toBe('no-data');
      expect(r.query.how).toContain('dcp-metrics-included.csv');
    }
    // SM activity falls back to neither field either: missing, not 0.
    expect((await run(smActivity(workload('neither')))).status).toBe('missing');
  });
});
