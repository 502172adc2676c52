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
