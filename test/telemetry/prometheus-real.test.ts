import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { eq, oneOf, selector } from '../../src/telemetry/promql.js';
import { FIELD_LABEL } from '../../src/domain/index.js';
import {
  fbUsed,
  gpuAllocatable,
  gpuRequests,
  gpuUtil,
  outcomeQueries,
  queueAdmissionWait,
  queueNominalQuota,
  queuePending,
  queueReservation,
  queueUsage,
  smActivity,
  vllmE2eLatency,
  vllmKvCache,
  vllmPreemptions,
  vllmRequestRate,
  vllmRequestSuccess,
  vllmRunning,
  vllmTtft,
  vllmWaiting,
} from '../../src/telemetry/queries/index.js';
import type { NamedQuery } from '../../src/telemetry/queries/index.js';
import type { QueryAnswer, QueryResult } from '../../src/telemetry/source.js';
import {
  CHAT,
  E2E_BUCKETS,
  EVAL,
  HOUR,
  INJECTION,
  KUEUE,
  NOTEBOOK,
  POOLS,
  POOL_LABEL,
  TRAIN,
  TTFT_BUCKETS,
  bucketQuantile,
  hourOf,
  startSimulatedPrometheus,
} from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';

let prom: SimulatedPrometheus;
let source: PrometheusSource;
let at: Date;
let windowMinutes: number;

beforeAll(async () => {
  prom = await startSimulatedPrometheus();
  source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }));
  at = new Date(prom.window.end * 1000);
  windowMinutes = (prom.window.end - prom.window.start) / 60;
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

const opts = () => ({ windowMinutes, rateWindowMinutes: 15 });
const chat = { kind: 'workload' as const, name: 'support-chat', selector: { namespace: CHAT.namespace } };
const evalJob = { kind: 'workload' as const, name: 'nightly-eval', selector: { namespace: EVAL.namespace } };
const train = { kind: 'workload' as const, name: 'train', selector: { namespace: TRAIN.namespace } };
const a100 = { kind: 'pool' as const, name: POOLS.a100.name, poolLabel: POOL_LABEL };
const l4 = { kind: 'pool' as const, name: POOLS.l4.name, poolLabel: POOL_LABEL };
const research = { kind: 'queue' as const, name: 'research' };

async function ok(q: NamedQuery): Promise<QueryAnswer> {
  const r: QueryResult = await source.query(q, at, windowMinutes);
  if (r.status !== 'ok') throw new Error(`${q.id}: ${r.reason}: ${r.message}`);
  return r;
}

/** The simulated sample a range point sees: the latest one at or before it (5-minute data). */
const sampled = (t: number) => Math.floor(t / 300) * 300;

/**
 * Every point of the single series equals the truth at its sample time. Where a series is
 * replaced by another (a job's pod labels come and go), Prometheus' 5-minute lookback still sees
 * the old one for a moment: with `switching`, points where the truth just changed are left out.
 * Points before `from` are left out too.
 */
async function expectTracks(q: NamedQuery, truth: (t: number) => number, { from = 0, switching = false } = {}): Promise<QueryAnswer> {
  const r = await ok(q);
  expect(r.series).toHaveLength(1);
  const settled = (t: number) => !switching || truth(sampled(t)) === truth(sampled(t) - 300);
  const samples = r.series[0]!.samples.filter((s) => s.t >= from && settled(s.t));
  expect(samples.length).toBeGreaterThan(1000);
  for (const s of samples) expect(s.v, `${q.id} at ${hourOf(s.t)}h`).toBeCloseTo(truth(sampled(s.t)), 6);
  return r;
}

async function single(q: NamedQuery): Promise<number> {
  const r = await ok(q);
  expect(r.series).toHaveLength(1);
  return r.series[0]!.samples[0]!.v;
}

describe('against a real Prometheus holding a simulated cluster', () => {
  it('keeps a hostile label value inside its matcher', async () => {
    const probe = (m: ReturnType<typeof eq>): NamedQuery => ({
      id: 'probe',
      kind: 'instant',
      promql: selector('inject_probe', [m]),
      what: 'probe',
      how: 'n/a',
    });
    for (const [value, expected] of [
      [INJECTION.hostile, INJECTION.hostileValue],
      [INJECTION.escapes, INJECTION.escapesValue],
      [INJECTION.plain, INJECTION.plainValue],
    ] as const) {
      for (const m of [eq('target', value), oneOf('target', [value])]) {
        const r = await ok(probe(m));
        expect(r.series.map((s) => [s.labels['target'], s.samples[0]!.v])).toEqual([[value, expected]]);
      }
    }
  });

  it('reads GPU utilisation per workload with either DCGM label layout', async () => {
    // Eval's GPUs carry its namespace only while its jobs run (00:00–06:00, lookback 5 minutes).
    const evalUtil = await ok(gpuUtil(evalJob));
    for (const s of evalUtil.series[0]!.samples) {
      expect(hourOf(s.t)).toBeLessThanOrEqual(6 + 5 / 60);
      expect(s.v).toBe(EVAL.util);
    }
    // Chat is behind a ServiceMonitor without honorLabels (exported_namespace) and `hostname`.
    await expectTracks(gpuUtil(chat), CHAT.util);
  });

  it('uses SM_ACTIVE when exported, GR_ENGINE_ACTIVE otherwise, and says which', async () => {
    const sm = await ok(smActivity(train));
    expect(sm.series.map((s) => s.labels[FIELD_LABEL])).toEqual(['DCGM_FI_PROF_SM_ACTIVE']);
    expect(new Set(sm.series[0]!.samples.map((s) => s.v))).toEqual(new Set([TRAIN.smActive]));
    const gr = await expectTracks(smActivity(chat), CHAT.grEngine);
    expect(gr.series[0]!.labels[FIELD_LABEL]).toBe('DCGM_FI_PROF_GR_ENGINE_ACTIVE');
  });

  it('averages a pool over all its GPUs, idle ones included, joining Hostname to the node pool', async () => {
    const gpus = POOLS.a100.nodes.length * 4;
    await expectTracks(
      gpuUtil(a100),
      (t) => ((EVAL.active(t) ? EVAL.gpus * EVAL.util : 0) + TRAIN.gpus * TRAIN.util + NOTEBOOK.gpus * NOTEBOOK.util) / gpus,
      { switching: true },
    );
    await expectTracks(gpuUtil(l4), CHAT.util);
  });

  it('filters DCGM blank values instead of averaging them in', async () => {
    const r = await ok(fbUsed(train));
    expect(Math.max(...r.series[0]!.samples.map((s) => s.v))).toBe(TRAIN.fbUsed);
    // Train's GPU 1 reports blank every tenth sample; GPU 0 still answers then.
    expect(r.series[0]!.samples.every((s) => s.v === TRAIN.fbUsed)).toBe(true);
  });

  it('counts requested and allocatable GPUs from kube-state-metrics', async () => {
    await expectTracks(gpuRequests(chat), () => CHAT.pods.length);
    await expectTracks(gpuRequests(a100), (t) => (EVAL.active(t) ? EVAL.gpus : 0) + TRAIN.gpus + NOTEBOOK.gpus, { switching: true });
    await expectTracks(gpuAllocatable(a100), () => 8);
    await expectTracks(gpuAllocatable(l4), () => 4);
  });

  it('reads Kueue quota, usage, reservation and pending once, not once per replica', async () => {
    const q = KUEUE.queues.research;
    const nominal = await expectTracks(queueNominalQuota(research), () => q.nominal);
    expect(nominal.series[0]!.labels).toEqual({ flavor: KUEUE.flavor });
    await expectTracks(queueUsage(research), q.usage);
    await expectTracks(queueReservation(research), q.reservation);
    const pending = await ok(queuePending(research));
    const byStatus = Object.fromEntries(pending.series.map((s) => [s.labels['status'] ?? '', s] as const));
    for (const s of byStatus['active']!.samples) expect(s.v).toBe(q.pendingActive(sampled(s.t)));
    expect(new Set(byStatus['inadmissible']!.samples.map((s) => s.v))).toEqual(new Set([q.pendingInadmissible]));
  });

  it('computes the admission-wait p95 from the histogram', async () => {
    const shares = KUEUE.admissionWaits.map((w) => ({
      le: KUEUE.buckets.find((b) => b >= w.seconds)!,
      share: w.perHour / KUEUE.admissionWaits.reduce((a, x) => a + x.perHour, 0),
    }));
    const expected = bucketQuantile(0.95, shares, KUEUE.buckets);
    expect(await single(queueAdmissionWait(research, opts()))).toBeCloseTo(expected, 0);
  });

  it('reads vLLM load, KV cache under both names, latency quantiles, outcomes and preemptions', async () => {
    await expectTracks(vllmRunning(chat), (t) => CHAT.pods.length * CHAT.running(t));
    await expectTracks(vllmWaiting(chat), (t) => CHAT.pods.length * CHAT.waiting(t));
    // chat-0 exports both names: the new one wins, so the old 0.99 never enters the mean.
    await expectTracks(vllmKvCache(chat), CHAT.kvCache);
    expect(await single(vllmE2eLatency(chat, opts()))).toBeCloseTo(bucketQuantile(0.95, CHAT.e2e, E2E_BUCKETS), 1);
    expect(await single(vllmTtft(chat, opts()))).toBeCloseTo(bucketQuantile(0.95, CHAT.ttft, TTFT_BUCKETS), 2);

    const seconds = windowMinutes * 60;
    const success = await ok(vllmRequestSuccess(chat, opts()));
    for (const s of success.series) {
      const rate = CHAT.finished[s.labels['finished_reason'] as keyof typeof CHAT.finished];
      expect(s.samples[0]!.v / (rate * CHAT.pods.length * seconds)).toBeCloseTo(1, 1);
    }
    const perSecond = Object.values(CHAT.finished).reduce((a, r) => a + r, 0) * CHAT.pods.length;
    // rate() needs a full window of data behind it: skip the first 15 minutes.
    await expectTracks(vllmRequestRate(chat, opts()), () => perSecond, { from: prom.window.start + 15 * 60 });
    const preempted = await single(vllmPreemptions(chat, opts()));
    expect(preempted / ((CHAT.pods.length * seconds) / HOUR)).toBeCloseTo(1, 1);
  });

  it("evaluates the catalog's outcome queries as written", async () => {
    const [verified, total] = outcomeQueries('nightly-eval', {
      verified: 'sum(increase(eval_runs_total{namespace="eval",result="pass"}[1d]))',
      total: 'sum(increase(eval_runs_total{namespace="eval"}[1d]))',
    });
    expect((await single(verified!)) / EVAL.passPerDay).toBeCloseTo(1, 1);
    expect((await single(total!)) / (EVAL.passPerDay + EVAL.failPerDay)).toBeCloseTo(1, 1);
  });

  it('turns an empty result and a query Prometheus refuses into missing evidence naming both', async () => {
    const none = await source.query(gpuUtil({ kind: 'workload', name: 'ghost', selector: { namespace: 'ghost' } }), at, windowMinutes);
    expect(none).toMatchObject({ status: 'missing', reason: 'no-data', source: `prometheus at ${prom.url}` });
    expect(none.status === 'missing' && none.message).toMatch(/no series matched for dcgm\.gpu-util:workload:ghost/);
    const bad = await source.query(
      { id: 'outcomes.verified:workload:x', kind: 'instant', promql: 'sum(', what: 'w', how: 'h' },
      at,
      windowMinutes,
    );
    expect(bad).toMatchObject({ status: 'missing', reason: 'bad-query' });
    expect(bad.status === 'missing' && bad.message).toMatch(/rejected outcomes\.verified:workload:x \(HTTP 400\)/);
  });
});
