import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asksMig, migPresenceMissing, probeMigPresence, readMigPresence } from '../../src/telemetry/mig-presence.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { isMigQuery, MIG_FAMILIES, migPresence } from '../../src/telemetry/queries/mig-presence.js';
import { migActivity, migPods, migRequests } from '../../src/telemetry/queries/mig.js';
import { queueMigUsage, queueUsage } from '../../src/telemetry/queries/kueue.js';
import { gpuUtil } from '../../src/telemetry/queries/dcgm.js';
import type { QueryResult } from '../../src/telemetry/source.js';
import { DAY, startPrometheus } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import { toOpenMetrics, type Family } from '../helpers/prometheus/openmetrics.js';

/**
 * Five periods of four hours, each with one kind of MIG series or none, over whole GPUs that
 * report all along: DCGM instances, then kube-state-metrics requests, allocatable, Kueue usage,
 * then nothing. A probe over one period sees only what that period holds.
 */
const PERIOD = 4 * 3600;
const STEP = 300;
const END = Math.floor(Date.now() / 1000 / DAY) * DAY;
const START = END - 5 * PERIOD;
const periodEnd = (i: number) => START + (i + 1) * PERIOD;

function gauge(name: string, labels: Record<string, string>, from: number, to: number): Family {
  const points: [number, number][] = [];
  for (let t = from; t < to; t += STEP) points.push([t, 1]);
  return { name, type: 'gauge', series: [{ name, labels, points }] };
}

const inPeriod = (i: number, name: string, labels: Record<string, string>) => gauge(name, labels, START + i * PERIOD, periodEnd(i));
const always = (name: string, labels: Record<string, string>) => gauge(name, labels, START, END + STEP);

const FAMILIES: Family[] = [
  always('DCGM_FI_DEV_GPU_UTIL', { gpu: '0', Hostname: 'n0', modelName: 'NVIDIA L4' }),
  always('kube_node_status_allocatable', { node: 'n0', resource: 'nvidia_com_gpu', unit: 'integer' }),
  always('kueue_cluster_queue_resource_usage', { cluster_queue: 'q', resource: 'nvidia.com/gpu', flavor: 'l4' }),
  inPeriod(0, 'DCGM_FI_DEV_FB_USED', { gpu: '0', Hostname: 'n1', GPU_I_PROFILE: '1g.10gb', GPU_I_ID: '7' }),
  inPeriod(1, 'kube_pod_container_resource_requests', {
    namespace: 'a',
    pod: 'p',
    node: 'n1',
    resource: 'nvidia_com_mig_1g_10gb',
    unit: 'integer',
  }),
  inPeriod(2, 'kube_node_status_allocatable', { node: 'n1', resource: 'nvidia_com_mig_1g_10gb', unit: 'integer' }),
  inPeriod(3, 'kueue_cluster_queue_resource_usage', { cluster_queue: 'q', resource: 'nvidia.com/mig-3g.40gb', flavor: 'a100-mig' }),
];

let prom: RunningPrometheus;
let source: PrometheusSource;

beforeAll(async () => {
  prom = await startPrometheus(toOpenMetrics(FAMILIES));
  source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }));
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

describe('the MIG presence probe on a real Prometheus', () => {
  it('finds each kind of series the MIG queries read, and nothing among whole GPUs', async () => {
    const minutes = PERIOD / 60;
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push((await probeMigPresence(source, new Date(periodEnd(i) * 1000), minutes)).status);
    expect(seen).toEqual(['found', 'found', 'found', 'found', 'none']);
  });

  it('looks over the whole window: MIG series that stopped before its end still count', async () => {
    // At the end of the last period nothing MIG reports, but Kueue admitted MIG devices in the one before.
    const at = new Date(periodEnd(4) * 1000);
    expect((await probeMigPresence(source, at, (2 * PERIOD) / 60)).status).toBe('found');
    expect((await probeMigPresence(source, at, PERIOD / 60)).status).toBe('none');
  });

  it('answers "none" with a 0, not with an empty result', async () => {
    const p = await probeMigPresence(source, new Date(periodEnd(4) * 1000), PERIOD / 60);
    expect(p.result).toMatchObject({ status: 'ok', series: [{ samples: [{ v: 0 }] }] });
    expect(asksMig(p)).toBe(false);
    expect(migPresenceMissing(p)).toBeNull();
  });
});

describe('reading the probe', () => {
  const q = migPresence({ windowMinutes: 60 });
  const base = { query: q, source: 'prometheus at x', at: '2026-11-30T00:00:00.000Z', windowMinutes: 60 };
  const ok = (v: number): QueryResult => ({
    ...base,
    status: 'ok',
    resultType: 'vector',
    series: [{ labels: {}, samples: [{ t: 0, v }] }],
    skipped: { nan: 0, inf: 0, blank: 0 },
    warnings: [],
  });
  const missing = (reason: 'no-data' | 'not-in-snapshot' | 'bad-query' | 'unavailable' | 'not-finite'): QueryResult => ({
    ...base,
    status: 'missing',
    reason,
    message: `x: ${reason}`,
  });

  it('asks the MIG queries when MIG is found or cannot be told, and lists only a failure as missing', () => {
    const cases = [
      ok(3),
      ok(0),
      missing('no-data'),
      missing('not-in-snapshot'),
      missing('bad-query'),
      missing('unavailable'),
      missing('not-finite'),
    ].map(readMigPresence);
    expect(cases.map((p) => p.status)).toEqual(['found', 'none', 'none', 'not-recorded', 'failed', 'failed', 'failed']);
    expect(cases.map(asksMig)).toEqual([true, false, false, false, true, true, true]);
    expect(cases.map((p) => migPresenceMissing(p) !== null)).toEqual([false, false, false, false, true, true, true]);
  });

  it('tells the MIG family from the rest by query id', () => {
    const pool = { kind: 'pool' as const, name: 'p', poolLabel: 'karpenter.sh/nodepool' };
    const queue = { kind: 'queue' as const, name: 'q' };
    expect([migActivity(pool), migRequests(pool), migPods(pool), queueMigUsage(queue)].every(isMigQuery)).toBe(true);
    expect([gpuUtil(pool), queueUsage(queue), q].some(isMigQuery)).toBe(false);
    expect(MIG_FAMILIES.size).toBe(4);
  });
});
