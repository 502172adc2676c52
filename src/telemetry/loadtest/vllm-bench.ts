import { z } from 'zod';
import type { LoadTestRow } from '../../domain/index.js';

const num = z.number().nullable().optional();

/** One `vllm bench serve --save-result` (or benchmark_serving.py) result; unknown keys ignored. */
export const vllmBenchSchema = z.object({
  request_rate: z.union([z.number(), z.string()]).optional(),
  request_throughput: z.number(),
  completed: z.number(),
  failed: num,
  num_prompts: num,
  request_goodput: num,
  /** Older benchmark_serving.py wrote the key with a trailing colon. */
  'request_goodput:': num,
  median_e2el_ms: num,
  p50_e2el_ms: num,
  p95_e2el_ms: num,
  p99_e2el_ms: num,
  p95_ttft_ms: num,
});

export type VllmBenchResult = z.infer<typeof vllmBenchSchema>;

export function isVllmBenchResult(json: unknown): boolean {
  return typeof json === 'object' && json !== null && 'request_throughput' in json && 'completed' in json;
}

export function vllmBenchRow(r: VllmBenchResult): LoadTestRow & { goodput: number | null } {
  // Older results have no `failed`: what was sent but not completed failed.
  const failed = r.failed ?? (r.num_prompts != null ? r.num_prompts - r.completed : null);
  const attempted = failed === null ? 0 : r.completed + failed;
  return {
    rate: r.request_throughput,
    p50E2eMs: r.p50_e2el_ms ?? r.median_e2el_ms ?? null,
    p95E2eMs: r.p95_e2el_ms ?? null,
    p99E2eMs: r.p99_e2el_ms ?? null,
    ttftP95Ms: r.p95_ttft_ms ?? null,
    errorRate: failed !== null && attempted > 0 ? failed / attempted : null,
    label: `request_rate=${r.request_rate ?? '?'}`,
    goodput: r.request_goodput ?? r['request_goodput:'] ?? null,
  };
}
