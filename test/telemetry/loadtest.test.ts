import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importLoadTest, readLoadTest } from '../../src/telemetry/loadtest/index.js';

const FIXTURES = new URL('../../fixtures/loadtests/', import.meta.url).pathname;
const text = (f: string) => readFileSync(`${FIXTURES}${f}`, 'utf8');

type Dist = { percentiles: Record<string, number>; mean: number };
type Bench = {
  metrics: {
    request_totals: { successful: number; errored: number };
    requests_per_second: { successful: Dist };
    request_latency: { successful: Dist };
    time_to_first_token_ms: { successful: Dist };
  };
};

describe('load-test importers', () => {
  it.each(['guidellm-chat-l4.json', 'guidellm-chat-3b-l4-v0.3.json'])(
    'reads the GuideLLM report %s into ms, sorted by achieved rate',
    async (file) => {
      const report = JSON.parse(text(file)) as { benchmarks: Bench[] };
      const r = await readLoadTest(`${FIXTURES}${file}`, file);
      expect(r.ok && r.value.format).toBe('guidellm');
      if (!r.ok) return;
      expect(r.value.rows).toHaveLength(report.benchmarks.length);
      expect(r.value.rows.map((x) => x.rate)).toEqual([...r.value.rows.map((x) => x.rate)].sort((a, b) => a - b));
      for (const b of report.benchmarks) {
        const m = b.metrics;
        const row = r.value.rows.find((x) => x.rate === m.requests_per_second.successful.mean)!;
        expect(row.p95E2eMs).toBeCloseTo(m.request_latency.successful.percentiles['p95']! * 1000, 6);
        expect(row.p50E2eMs).toBeCloseTo(m.request_latency.successful.percentiles['p50']! * 1000, 6);
        expect(row.ttftP95Ms).toBe(m.time_to_first_token_ms.successful.percentiles['p95']);
        expect(row.errorRate).toBeCloseTo(m.request_totals.errored / (m.request_totals.successful + m.request_totals.errored), 9);
      }
      // Latency grows with load in these sweeps: a sanity check on units (seconds → ms).
      expect(r.value.rows[0]!.p95E2eMs).toBeGreaterThan(1000);
    },
  );

  it('reads one vllm bench serve result', () => {
    const raw = JSON.parse(text('vllm-bench-chat-l4.json')) as Record<string, number>;
    const r = importLoadTest(text('vllm-bench-chat-l4.json'), 'x.json');
    expect(r.ok && r.value.rows).toEqual([
      expect.objectContaining({
        rate: raw['request_throughput'],
        p50E2eMs: raw['median_e2el_ms'],
        p95E2eMs: raw['p95_e2el_ms'],
        p99E2eMs: raw['p99_e2el_ms'],
        ttftP95Ms: raw['p95_ttft_ms'],
        errorRate: raw['failed']! / (raw['completed']! + raw['failed']!),
        label: 'request_rate=4',
      }),
    ]);
  });

  it('reads appended JSON lines, with the old `request_goodput:` key and no `failed`', () => {
    const lines = text('vllm-bench-chat-l4-sweep.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, number | string>);
    const r = importLoadTest(text('vllm-bench-chat-l4-sweep.jsonl'), 'sweep.jsonl');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rows.map((x) => x.label)).toEqual(['request_rate=2', 'request_rate=4', 'request_rate=inf']);
    const first = r.value.rows[0] as (typeof r.value.rows)[number] & { goodput: number | null };
    expect(first.goodput).toBe(lines[0]!['request_goodput:']);
    expect(first.errorRate).toBe(0);
    expect(r.value.rows[2]!.errorRate).toBeCloseTo(22 / 1022, 9);
  });

  it.each([
    ['not json {', /neither JSON nor JSON lines/],
    ['{"foo": 1}', /not a GuideLLM report \("benchmarks"\) nor vllm bench results/],
    ['{"benchmarks": []}', /not a GuideLLM report \(benchmarks: /],
    ['{"request_throughput": "fast", "completed": 3}', /result 1 is not a vllm bench result \(request_throughput: /],
  ])('explains why %j cannot be read', (input, message) => {
    const r = importLoadTest(input, 'lt.json');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(message);
  });

  it('says when the file cannot be read', async () => {
    expect(await readLoadTest(`${FIXTURES}missing.json`, 'loadtests/missing.json')).toEqual({
      ok: false,
      error: 'loadtests/missing.json: cannot be read',
    });
  });
});
