import { describe, expect, it } from 'vitest';
import { demandTerms } from '../../src/analysis/levers.js';
import type { LeverResults } from '../../src/analysis/levers.js';
import { diagnoseLimit, meetsSlo, replicasFor, servingCapacity, sustainableRow } from '../../src/analysis/serving.js';
import type { LimitDiagnosis } from '../../src/analysis/serving.js';
import { servingAdvice } from '../../src/report/findings.js';
import { policy, service } from '../factories.js';
import { answer, hourly, measured, missing, repeat, row } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const slo = { p95LatencyMs: 2000, ttftP95Ms: 500, errorRate: 0.01 };
const line = (values: number[]) => new Map(values.map((v, i) => [i * 60, v]));

describe('sustainable rate per replica', () => {
  it('is the highest measured rate meeting every SLO the workload states', () => {
    const rows = [row(1, 1500), row(3, 1900), row(5, 1990, { errorRate: 0.02 }), row(6, 2500), row(4, 1950, { ttftP95Ms: 600 })];
    // 5 fails the error rate, 6 the latency, 4 the TTFT: 3 is the highest that meets all.
    expect(sustainableRow(rows, slo)?.rate).toBe(3);
    // Without TTFT and error-rate objectives, 5 meets.
    expect(sustainableRow(rows, { p95LatencyMs: 2000 })?.rate).toBe(5);
    expect(sustainableRow(rows, { p95LatencyMs: 100 })).toBeNull();
  });

  it('never counts a figure the report does not give as met', () => {
    expect(meetsSlo(row(2, null), { p95LatencyMs: 2000 })).toBe(false);
    expect(meetsSlo(row(2, 1000, { errorRate: null }), slo)).toBe(false);
    expect(meetsSlo(row(2, 1000, { errorRate: null }), { p95LatencyMs: 2000 })).toBe(true);
  });

  it('sizes replicas as ceil(peak × (1 + headroom) / rate)', () => {
    expect(replicasFor(4, 0.2, 4.44)).toBe(2); // 4.8 / 4.44 = 1.08
    expect(replicasFor(4, 0.25, 5)).toBe(1); // exactly 1, not 2 from rounding
    expect(replicasFor(0, 0.2, 5)).toBe(1);
    expect(replicasFor(4, 0, 0.61)).toBe(7);
  });
});

/** The advice report/ words for a diagnosis. */
const advice = (d: LimitDiagnosis) => servingAdvice({ limit: d.limit, ...(d.stats === null ? {} : { limitStats: d.stats }) });

describe('batching or memory limit', () => {
  it('is batching when requests wait with the KV cache low and running at its cap', () => {
    const d = diagnoseLimit(line([8, 16, 32, 32, 16]), line([0, 0, 3, 5, 0]), line([0.2, 0.4, 0.6, 0.7, 0.4]), 0);
    expect(d.limit).toBe('batching');
    expect(advice(d)).toContain('--max-num-seqs');
    expect(advice(d)).toContain('70%');
  });

  it('is memory when the KV cache is near full and requests are preempted', () => {
    const d = diagnoseLimit(line([8, 20, 24, 30]), line([0, 2, 4, 0]), line([0.5, 0.95, 0.97, 0.6]), 12);
    expect(d.limit).toBe('memory');
    expect(advice(d)).toContain('--gpu-memory-utilization');
  });

  it('holds on noisy scrapes: judged on the medians over the samples where requests waited', () => {
    // Running and waiting are scraped apart: a few queued samples read below the cap of 256, and
    // one reads the KV cache at 93%. The minimum and the maximum would each defeat the diagnosis.
    const running = line([40, 120, 256, 250, 180, 256, 256, 256, 241, 256, 90]);
    const waiting = line([0, 0, 14, 30, 22, 41, 37, 12, 9, 25, 0]);
    const kv = line([0.05, 0.12, 0.31, 0.33, 0.93, 0.34, 0.36, 0.3, 0.29, 0.32, 0.1]);
    const d = diagnoseLimit(running, waiting, kv, 0);
    expect(d.limit).toBe('batching');
    expect(d.stats).toEqual({ queuedSamples: 8, runningMedian: 256, runningCap: 256, kvMedian: 0.325, kvMax: 0.93, preemptions: 0 });
    expect(advice(d)).toContain('over the 8 samples where requests waited');
    expect(advice(d)).toContain('--max-num-seqs');
    // Without the cap (running well below its highest at most queued samples) it is no batching limit.
    const roomy = line([40, 120, 256, 150, 130, 140, 120, 160, 150, 140, 90]);
    expect(diagnoseLimit(roomy, waiting, kv, 0).limit).toBeNull();
  });

  it('needs more than one sample with requests waiting', () => {
    expect(diagnoseLimit(line([8, 32, 32]), line([0, 3, 0]), line([0.2, 0.3, 0.2]), 0)).toMatchObject({ limit: null, stats: null });
  });

  it('says nothing when nobody waits, or when the signals disagree', () => {
    expect(diagnoseLimit(line([8, 32]), line([0, 0]), line([0.2, 0.99]), 5).limit).toBeNull();
    // Full KV without preemptions, running below its maximum: neither story holds.
    expect(diagnoseLimit(line([8, 20, 32]), line([0, 2, 0]), line([0.5, 0.95, 0.6]), 0).limit).toBeNull();
  });
});

describe('servingCapacity', () => {
  const chat = service({ name: 'chat', pool: 'l4', replicas: 4, selector: { namespace: 'chat' }, slo, loadTest: 'lt.json' });
  const id = 'workload:chat';

  it('takes the peak request rate and the load test to size the service', () => {
    const m = measured([answer(`request-rate:${id}`, [hourly([1, 2, 4, 3])])], {
      'lt.json': { ok: true, value: { format: 'guidellm', rows: [row(2.5, 1600), row(4.44, 1940), row(6.2, 2880)] } },
    });
    const s = servingCapacity(chat, m, policy({ headroom: 0.2 }));
    expect(s).toMatchObject({
      peakRate: 4,
      sustainableRatePerReplica: 4.44,
      replicasNeeded: 2,
      gpusNeeded: 2,
      declaredGpus: 4,
      limit: null,
    });
    expect(s.evidence.map((e) => e.source)).toEqual(['load-test', 'prometheus']);
  });

  it('lists the SLO, load test and rate it lacks, and sizes nothing', () => {
    const m = measured([missing(`request-rate:${id}`)]);
    const bare = servingCapacity(service({ name: 'chat', selector: { namespace: 'chat' } }), m, policy());
    expect(bare.gpusNeeded).toBeNull();
    expect(m.missing().map((x) => missingWords(x).what)).toEqual(['the SLO of chat', `what vllm.request-rate:${id}: nothing`]);
    const m2 = measured([]);
    servingCapacity({ ...chat, loadTest: undefined }, m2, policy());
    expect(m2.missing().map((x) => missingWords(x).what)).toEqual(['a load test of chat']);
  });

  it('says what the slowest step measured when no load-test step meets the SLO, and sizes nothing', () => {
    const m = measured([answer(`request-rate:${id}`, [hourly([1, 2, 10])])], {
      'lt.json': {
        ok: true,
        value: {
          format: 'vllm-bench',
          rows: [row(2, 4000, { label: 'request_rate=2' }), row(1, 2500, { label: 'request_rate=1', ttftP95Ms: 300 })],
        },
      },
    });
    const s = servingCapacity(chat, m, policy());
    expect(s).toMatchObject({ sustainableRatePerReplica: null, gpusNeeded: null, peakRate: 10 });
    const lack = m.missing().find((x) => missingWords(x).what.startsWith('a load-test step of chat'));
    expect(missingWords(lack!).what).toBe(
      `a load-test step of chat that meets its SLO (p95 ≤ ${slo.p95LatencyMs} ms, TTFT p95 ≤ ${slo.ttftP95Ms} ms, errors ≤ ${slo.errorRate * 100}%)`,
    );
    expect(missingWords(lack!).how).toMatch(
      /^no step of lt\.json meets it: its lowest rate, 1 req\/s \(request_rate=1\), measured p95 2500 ms, TTFT p95 300 ms, errors 0%\./,
    );
    expect(missingWords(lack!).how).toContain('counted at its declared replicas');
  });

  it('uses the workload headroom over the policy', () => {
    const m = measured([answer(`request-rate:${id}`, [hourly(repeat(3, 4))])], {
      'lt.json': { ok: true, value: { format: 'guidellm', rows: [row(0.61, 1470)] } },
    });
    expect(servingCapacity({ ...chat, headroom: 0 }, m, policy({ headroom: 0.5 })).replicasNeeded).toBe(7);
  });
});

describe('the batching lever', () => {
  const chat = service({ name: 'chat', pool: 'l4', replicas: 4, gpusPerReplica: 1 });
  const serving = (gpusNeeded: number, limit: 'batching' | 'memory' | null) => ({
    workload: 'chat',
    sustainableRatePerReplica: 1,
    loadTestStep: 'x',
    peakRate: 3,
    headroom: 0.2,
    replicasNeeded: gpusNeeded,
    gpusPerReplica: 1,
    gpusNeeded,
    declaredGpus: 4,
    limit,
    evidence: [],
  });
  const results = (s: ReturnType<typeof serving>) =>
    ({
      plan: { naivePeakGpus: 0, peakGpus: 0, schedule: [], cycle: 1440 },
      planWithoutIdle: null,
      serving: [s],
      cheaper: new Map(),
      idle: [],
      slices: new Map(),
    }) as unknown as LeverResults;
  const option = (s: ReturnType<typeof serving>) => demandTerms([chat], results(s), { headroom: 0.2 })[1]?.options[0];

  it('is what lets the declared GPUs serve the peak when requests queue behind a limit', () => {
    // Sized at exactly what is declared while requests queue at a fixed cap: the fix is the lever.
    expect(option(serving(4, 'batching'))).toEqual({ lever: 'batching', gpus: 4, headroom: 0, sized: true });
    expect(option(serving(4, 'memory'))).toEqual({ lever: 'batching', gpus: 4, headroom: 0, sized: true });
  });

  it('is no lever when the service fits without a limit seen, or needs more than declared', () => {
    expect(option(serving(4, null))).toEqual({ lever: null, gpus: 4, headroom: 0, sized: true });
    expect(option(serving(6, 'batching'))).toEqual({ lever: null, gpus: 6, headroom: 0, sized: true });
    expect(option(serving(3, null))).toEqual({ lever: 'batching', gpus: 3, headroom: 0, sized: true });
  });
});
