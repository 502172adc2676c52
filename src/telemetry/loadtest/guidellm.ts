import { z } from 'zod';
import type { LoadTestRow } from '../../domain/index.js';

// Lenient: GuideLLM reports carry far more than this; only what the table needs is read.
const percentiles = z.object({ p50: z.number(), p95: z.number(), p99: z.number() });
const dist = z.object({ mean: z.number(), percentiles }).nullable().optional();
const byStatus = z.object({ successful: dist }).nullable().optional();

const benchmarkSchema = z.object({
  config: z.object({ strategy: z.object({ type_: z.string(), rate: z.number().nullable().optional() }).optional() }).optional(),
  args: z.object({ strategy: z.object({ type_: z.string(), rate: z.number().nullable().optional() }).optional() }).optional(),
  metrics: z.object({
    request_totals: z.object({ successful: z.number(), errored: z.number() }).optional(),
    requests_per_second: byStatus,
    /** Seconds. */
    request_latency: byStatus,
    time_to_first_token_ms: byStatus,
  }),
});

/** v0.7+ (`metadata.version` 2, `config`), v0.4–0.6 (`metadata` 1, `args`) and ≤ v0.3 (no `metadata`). */
export const guidellmReportSchema = z.object({
  metadata: z.object({ version: z.number().optional() }).optional(),
  benchmarks: z.array(benchmarkSchema).min(1),
});

export function isGuidellmReport(json: unknown): boolean {
  return typeof json === 'object' && json !== null && Array.isArray((json as { benchmarks?: unknown }).benchmarks);
}

export function guidellmRows(report: z.infer<typeof guidellmReportSchema>): LoadTestRow[] {
  const rows: LoadTestRow[] = [];
  for (const b of report.benchmarks) {
    const rate = b.metrics.requests_per_second?.successful?.mean;
    if (rate === undefined) continue;
    const e2e = b.metrics.request_latency?.successful?.percentiles;
    const ttft = b.metrics.time_to_first_token_ms?.successful?.percentiles;
    const totals = b.metrics.request_totals;
    const attempted = totals ? totals.successful + totals.errored : 0;
    const strategy = b.config?.strategy ?? b.args?.strategy;
    rows.push({
      rate,
      // GuideLLM reports request latency in seconds and TTFT in milliseconds.
      p50E2eMs: e2e ? e2e.p50 * 1000 : null,
      p95E2eMs: e2e ? e2e.p95 * 1000 : null,
      p99E2eMs: e2e ? e2e.p99 * 1000 : null,
      ttftP95Ms: ttft ? ttft.p95 : null,
      errorRate: totals && attempted > 0 ? totals.errored / attempted : null,
      label: strategy ? `${strategy.type_}${strategy.rate == null ? '' : ` at ${strategy.rate}/s`}` : 'benchmark',
    });
  }
  return rows;
}
