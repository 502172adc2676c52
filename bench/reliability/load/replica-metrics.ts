import type { ServerProcess } from './server-process.js';

/** The queue's counters on each replica's /metrics, summed by series; the event loop's delay, the worst replica's. */
export async function queueCounters(servers: ServerProcess[]): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const s of servers) {
    const text = await fetch(`${s.url}/metrics`).then(
      (r) => r.text(),
      () => '',
    );
    for (const m of text.matchAll(
      /^(gpu_justify_(?:queue_[a-z_]+|reruns_coalesced_total|coordination_fallbacks_total|nodejs_eventloop_lag_(?:p99|max)_seconds)(?:\{[^}]*\})?) ([0-9.e+-]+)$/gm,
    )) {
      const name = m[1] as string;
      if (name.includes('_bucket') || name.startsWith('gpu_justify_queue_jobs{')) continue;
      // Delay is per process: the worst one tells what a webhook waited behind.
      totals[name] = name.includes('eventloop') ? Math.max(totals[name] ?? 0, Number(m[2])) : (totals[name] ?? 0) + Number(m[2]);
    }
  }
  return totals;
}

/** Jobs a replica runs now, from its /metrics (0 when it does not answer). */
export async function runningJobs(server: ServerProcess): Promise<number> {
  const text = await fetch(`${server.url}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  return Number(/^gpu_justify_worker_jobs_running ([0-9.]+)$/m.exec(text)?.[1] ?? 0);
}

/** True when no replica runs a job and their queues hold none waiting, running or delayed (a replica that does not answer holds work). */
export async function idleReplicas(servers: ServerProcess[]): Promise<boolean> {
  for (const s of servers) {
    const text = await fetch(`${s.url}/metrics`).then(
      (r) => r.text(),
      () => null,
    );
    if (text === null) return false;
    const held = [...text.matchAll(/^gpu_justify_(?:queue_jobs\{state="[a-z]+"\}|worker_jobs_running) ([0-9.e+-]+)$/gm)];
    if (held.some((m) => Number(m[1]) > 0)) return false;
  }
  return true;
}

/** One stage of the webhook's answer, over every replica: count, mean and quantiles from the histogram's buckets, ms. */
export interface StageFigures {
  count: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/**
 * `gpu_justify_webhook_stage_seconds` from each replica's /metrics, buckets summed by stage. The
 * quantiles are interpolated within a bucket, as Prometheus's histogram_quantile does: as fine as
 * the buckets (0.5, 1, 2.5, 5, 10, 25, 50, 100, 200, 500 ms …).
 */
export async function webhookStages(servers: ServerProcess[]): Promise<Record<string, StageFigures>> {
  const buckets = new Map<string, Map<number, number>>();
  const sums = new Map<string, number>();
  for (const s of servers) {
    const text = await fetch(`${s.url}/metrics`).then(
      (r) => r.text(),
      () => '',
    );
    for (const m of text.matchAll(/^gpu_justify_webhook_stage_seconds_bucket\{([^}]*)\} ([0-9.e+-]+)$/gm)) {
      const labels = m[1] as string;
      const bound = /le="([^"]+)"/.exec(labels)?.[1];
      const name = /stage="([^"]+)"/.exec(labels)?.[1];
      if (bound === undefined || name === undefined) continue;
      const [le, value] = [bound === '+Inf' ? Infinity : Number(bound), Number(m[2])];
      const byLe = buckets.get(name) ?? new Map<number, number>();
      byLe.set(le, (byLe.get(le) ?? 0) + value);
      buckets.set(name, byLe);
    }
    for (const m of text.matchAll(/^gpu_justify_webhook_stage_seconds_sum\{stage="([^"]+)"\} ([0-9.e+-]+)$/gm))
      sums.set(m[1] as string, (sums.get(m[1] as string) ?? 0) + Number(m[2]));
  }
  const figures: Record<string, StageFigures> = {};
  for (const [name, byLe] of buckets) {
    const cumulative = [...byLe.entries()].sort((a, b) => a[0] - b[0]);
    const count = cumulative.at(-1)?.[1] ?? 0;
    if (count === 0) continue;
    const at = (q: number): number => {
      const rank = q * count;
      let lower = 0;
      let below = 0;
      for (const [le, n] of cumulative) {
        if (n >= rank) {
          if (le === Infinity) return lower * 1000;
          return (lower + ((le - lower) * (rank - below)) / Math.max(1, n - below)) * 1000;
        }
        [lower, below] = [le, n];
      }
      return lower * 1000;
    };
    const round = (ms: number) => Math.round(ms * 10) / 10;
    figures[name] = {
      count,
      meanMs: round(((sums.get(name) ?? 0) / count) * 1000),
      p50Ms: round(at(0.5)),
      p95Ms: round(at(0.95)),
      p99Ms: round(at(0.99)),
    };
  }
  return figures;
}
