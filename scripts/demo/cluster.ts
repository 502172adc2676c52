/**
 * The demo's cluster, as Prometheus would have scraped it over two days: one 8-GPU A100 node
 * behind the `research` (6 GPUs) and `serving` (2 GPUs) ClusterQueues of cohort `prod`.
 * Every night four 2-GPU evaluation runs are submitted at 00:00; with 6 GPUs Kueue admits three
 * and the fourth waits until 02:00 — the queue the pull request wants to answer with 12 GPUs.
 */
import type { Family, SeriesPoints } from '../../test/helpers/prometheus/openmetrics.js';

const HOUR = 3_600;
export const DAY = 86_400;
const STEP = 300;
const NODE = 'gpu-a-0';
const MODEL = 'NVIDIA A100-SXM4-80GB';
const hourOf = (t: number) => (((t % DAY) + DAY) % DAY) / HOUR;
const between = (t: number, from: number, to: number) => hourOf(t) >= from && hourOf(t) < to;

/** What runs on each GPU at time t: [namespace, pod, container] or null when idle. */
function holder(gpu: number, t: number): [string, string, string] | null {
  if (gpu >= 6) return ['chat', `support-chat-${gpu - 6}`, 'vllm'];
  if (between(t, 0, 2)) return ['eval', `nightly-eval-${gpu >> 1}`, 'eval'];
  if (between(t, 2, 4) && gpu < 2) return ['eval', 'nightly-eval-3', 'eval'];
  if (between(t, 18, 21) && gpu < 4) return ['finetune', 'adapter-finetune-0', 'trainer'];
  return null;
}

/** Per namespace: GPU_UTIL %, SM active, tensor pipe, DRAM active, framebuffer MiB. */
const PROFILE: Record<string, [number, number, number, number, number]> = {
  eval: [86, 0.58, 0.36, 0.41, 52_000],
  finetune: [93, 0.71, 0.62, 0.33, 71_000],
};
const chatLoad = (t: number) => (1 - Math.cos((2 * Math.PI * (hourOf(t) - 3)) / 24)) / 2;

class Series {
  readonly families = new Map<string, { type: Family['type']; series: SeriesPoints[] }>();
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
  add(family: string, type: Family['type'], name: string, labels: Record<string, string>, value: (t: number) => number | null): void {
    const f = this.families.get(family) ?? { type, series: [] };
    this.families.set(family, f);
    const points: [number, number][] = [];
    for (let t = this.start; t <= this.end; t += STEP) {
      const v = value(t);
      if (v !== null) points.push([t, Math.round(v * 1e6) / 1e6]);
    }
    if (points.length > 0) f.series.push({ name, labels, points });
  }
  gauge(name: string, labels: Record<string, string>, value: (t: number) => number | null): void {
    this.add(name, 'gauge', name, labels, value);
  }
  /** A counter that grows by `step(t)` at each sample. */
  counter(family: string, labels: Record<string, string>, step: (t: number) => number): void {
    let total = 0;
    this.add(family, 'counter', `${family}_total`, labels, (t) => (total += step(t)));
  }
  families_(): Family[] {
    return [...this.families].map(([name, f]) => ({ name, type: f.type, series: f.series }));
  }
}

function dcgm(s: Series): void {
  for (let gpu = 0; gpu < 8; gpu++) {
    const base = { gpu: String(gpu), UUID: `GPU-${NODE}-${gpu}`, device: `nvidia${gpu}`, modelName: MODEL, Hostname: NODE };
    // dcgm-exporter labels a GPU with the pod using it, and with empty pod labels when idle.
    const pods = new Map<string, [string, string, string] | null>();
    for (let t = s.start; t <= s.end; t += STEP) {
      const h = holder(gpu, t);
      pods.set(h ? h.join('/') : '', h);
    }
    for (const [key, h] of pods) {
      const labels = { ...base, namespace: h?.[0] ?? '', pod: h?.[1] ?? '', container: h?.[2] ?? '' };
      const mine = (t: number) => (holder(gpu, t)?.join('/') ?? '') === key;
      const metric = (i: number, chat: (t: number) => number) => (t: number) => {
        if (!mine(t)) return null;
        if (!h) return 0;
        return h[0] === 'chat' ? chat(t) : (PROFILE[h[0]]?.[i] ?? 0);
      };
      s.gauge(
        'DCGM_FI_DEV_GPU_UTIL',
        labels,
        metric(0, (t) => 18 + 55 * chatLoad(t)),
      );
      s.gauge(
        'DCGM_FI_PROF_SM_ACTIVE',
        labels,
        metric(1, (t) => 0.1 + 0.35 * chatLoad(t)),
      );
      s.gauge(
        'DCGM_FI_PROF_GR_ENGINE_ACTIVE',
        labels,
        metric(1, (t) => 0.12 + 0.4 * chatLoad(t)),
      );
      s.gauge(
        'DCGM_FI_PROF_PIPE_TENSOR_ACTIVE',
        labels,
        metric(2, (t) => 0.05 + 0.2 * chatLoad(t)),
      );
      s.gauge(
        'DCGM_FI_PROF_DRAM_ACTIVE',
        labels,
        metric(3, (t) => 0.2 + 0.3 * chatLoad(t)),
      );
      s.gauge(
        'DCGM_FI_DEV_FB_USED',
        labels,
        metric(4, () => 64_000),
      );
    }
  }
}

function kubeStateMetrics(s: Series): void {
  s.gauge('kube_node_status_allocatable', { node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' }, () => 8);
  const pods = new Map<string, [string, string, string]>();
  for (let t = s.start; t <= s.end; t += STEP)
    for (let g = 0; g < 8; g++) {
      const h = holder(g, t);
      if (h) pods.set(h[1], h);
    }
  for (const [pod, [namespace, , container]] of pods) {
    const gpus = (t: number) => [...Array(8).keys()].filter((g) => holder(g, t)?.[1] === pod).length;
    s.gauge(
      'kube_pod_container_resource_requests',
      { namespace, pod, uid: `uid-${pod}`, container, node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' },
      (t) => gpus(t) || null,
    );
  }
}

function kueue(s: Series): void {
  const research = (t: number) => [...Array(6).keys()].filter((g) => holder(g, t) !== null).length;
  const queues: Record<string, { nominal: number; usage: (t: number) => number; pending: (t: number) => number }> = {
    research: { nominal: 6, usage: research, pending: (t) => (between(t, 0, 2) ? 1 : 0) },
    serving: { nominal: 2, usage: () => 2, pending: () => 0 },
  };
  for (const [cluster_queue, q] of Object.entries(queues)) {
    const res = { cohort: 'prod', cluster_queue, flavor: 'a100-80gb', resource: 'nvidia.com/gpu', replica_role: 'leader' };
    s.gauge('kueue_cluster_queue_nominal_quota', res, () => q.nominal);
    s.gauge('kueue_cluster_queue_resource_usage', res, q.usage);
    s.gauge('kueue_cluster_queue_resource_reservation', res, q.usage);
    s.gauge('kueue_pending_workloads', { cluster_queue, status: 'active', replica_role: 'leader' }, q.pending);
    s.gauge('kueue_pending_workloads', { cluster_queue, status: 'inadmissible', replica_role: 'leader' }, () => 0);
  }
  // Admission waits: three eval runs and the finetune are admitted at once, one eval run waits 2h.
  const buckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192];
  const admitted = (t: number): number[] =>
    between(t, 0, 0.01) ? [1, 1, 1] : between(t, 2, 2.01) ? [7_200] : between(t, 18, 18.01) ? [1] : [];
  const labels = { cluster_queue: 'research', priority_class: '', replica_role: 'leader' };
  const family = 'kueue_admission_wait_time_seconds';
  for (const le of [...buckets.map(String), '+Inf']) {
    const within = (t: number) => admitted(t).filter((w) => le === '+Inf' || w <= Number(le)).length;
    s.add(family, 'histogram', `${family}_bucket`, { ...labels, le }, cumulative(within, s));
  }
  s.add(
    family,
    'histogram',
    `${family}_count`,
    labels,
    cumulative((t) => admitted(t).length, s),
  );
  s.add(
    family,
    'histogram',
    `${family}_sum`,
    labels,
    cumulative((t) => admitted(t).reduce((a, w) => a + w, 0), s),
  );
}

function cumulative(step: (t: number) => number, s: Series): (t: number) => number {
  let total = 0;
  let last = s.start - STEP;
  return (t) => {
    for (let u = last + STEP; u <= t; u += STEP) total += step(u);
    last = t;
    return total;
  };
}

function vllm(s: Series): void {
  for (const pod of ['support-chat-0', 'support-chat-1']) {
    const labels = { namespace: 'chat', pod, engine: '0', model_name: 'llama-3.1-8b-instruct' };
    s.gauge('vllm:num_requests_running', labels, (t) => Math.round(3 + 9 * chatLoad(t)));
    s.gauge('vllm:num_requests_waiting', labels, () => 0);
    s.gauge('vllm:kv_cache_usage_perc', labels, (t) => 0.15 + 0.35 * chatLoad(t));
    // Requests per second per replica: 0.8 at night, 3.2 at the 15:00 peak; 0.5% stopped short.
    const perStep = (t: number) => (0.8 + 2.4 * chatLoad(t)) * STEP;
    s.counter('vllm:request_success', { ...labels, finished_reason: 'stop' }, (t) => Math.round(perStep(t) * 0.995));
    s.counter('vllm:request_success', { ...labels, finished_reason: 'abort' }, (t) => Math.round(perStep(t) * 0.005));
    s.counter('vllm:num_preemptions', labels, () => 0);
    latency(s, 'vllm:e2e_request_latency_seconds', labels, perStep, [
      [1, 0.8],
      [2.5, 0.15],
      [5, 0.05],
    ]);
    latency(s, 'vllm:time_to_first_token_seconds', labels, perStep, [
      [0.1, 0.9],
      [0.25, 0.1],
    ]);
  }
}

/** A latency histogram where `shares` of the requests fall just under each bucket bound. */
function latency(
  s: Series,
  family: string,
  labels: Record<string, string>,
  perStep: (t: number) => number,
  shares: [number, number][],
): void {
  const bounds = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
  for (const le of [...bounds.map(String), '+Inf']) {
    const share = shares.filter(([b]) => le === '+Inf' || b <= Number(le)).reduce((a, [, x]) => a + x, 0);
    s.add(
      family,
      'histogram',
      `${family}_bucket`,
      { ...labels, le },
      cumulative((t) => Math.round(perStep(t) * share), s),
    );
  }
  s.add(
    family,
    'histogram',
    `${family}_count`,
    labels,
    cumulative((t) => Math.round(perStep(t)), s),
  );
  const mean = shares.reduce((a, [b, x]) => a + b * x, 0);
  s.add(
    family,
    'histogram',
    `${family}_sum`,
    labels,
    cumulative((t) => perStep(t) * mean, s),
  );
}

function outcomes(s: Series): void {
  // Each run reports when it finishes: three at 02:00, the one that waited at 04:00; one in
  // sixteen fails its quality gate.
  const finishing = (t: number) => (between(t, 2, 2.01) ? 3 : between(t, 4, 4.01) ? 1 : 0);
  let n = 0;
  s.counter('eval_runs', { namespace: 'eval', result: 'pass' }, (t) => {
    const f = finishing(t);
    let pass = 0;
    for (let i = 0; i < f; i++) if (++n % 16 !== 0) pass++;
    return pass;
  });
  let m = 0;
  s.counter('eval_runs', { namespace: 'eval', result: 'fail' }, (t) => {
    const f = finishing(t);
    let fail = 0;
    for (let i = 0; i < f; i++) if (++m % 16 === 0) fail++;
    return fail;
  });
}

/** Every family of the demo cluster from `start` to `end` (unix seconds). */
export function demoCluster(start: number, end: number): Family[] {
  const s = new Series(start, end);
  dcgm(s);
  kubeStateMetrics(s);
  kueue(s);
  vllm(s);
  outcomes(s);
  return s.families_();
}
