import {
  CHAT,
  DAY,
  DCGM_INT64_BLANK,
  E2E_BUCKETS,
  EVAL,
  GPUS_PER_NODE,
  HOUR,
  INJECTION,
  KUEUE,
  NOTEBOOK,
  POOLS,
  TRAIN,
  TTFT_BUCKETS,
  UNMAPPED,
  hourOf,
} from './cluster.js';
import type { Family, FamilyType, SeriesPoints } from './openmetrics.js';

export interface SimWindow {
  /** Unix seconds, first sample. */
  start: number;
  /** Unix seconds, last sample. */
  end: number;
  step: number;
}

/** Two days at 5-minute resolution ending at the last UTC midnight: one simulated cluster. */
export function defaultWindow(now = Date.now()): SimWindow {
  const end = Math.floor(now / 1000 / DAY) * DAY;
  return { start: end - 2 * DAY, end, step: 300 };
}

type Labels = Record<string, string>;
type Value = (t: number, i: number) => number | null;

class Builder {
  readonly families = new Map<string, { type: FamilyType; series: SeriesPoints[] }>();
  constructor(readonly w: SimWindow) {}

  times(): number[] {
    const out: number[] = [];
    for (let t = this.w.start; t <= this.w.end; t += this.w.step) out.push(t);
    return out;
  }

  /** One series; `value` returning null leaves a gap (the series does not exist then). */
  add(family: string, type: FamilyType, name: string, labels: Labels, value: Value): void {
    const f = this.families.get(family) ?? { type, series: [] };
    this.families.set(family, f);
    const points: [number, number][] = [];
    this.times().forEach((t, i) => {
      const v = value(t, i);
      if (v !== null) points.push([t, v]);
    });
    if (points.length > 0) f.series.push({ name, labels, points });
  }

  gauge(name: string, labels: Labels, value: Value): void {
    this.add(name, 'gauge', name, labels, value);
  }

  /** A counter from a rate per second (integrated over the steps so far). */
  counter(family: string, labels: Labels, perSecond: (t: number) => number): void {
    let total = 0;
    let last: number | null = null;
    this.add(family, 'counter', `${family}_total`, labels, (t) => {
      if (last !== null) total += perSecond(t) * (t - last);
      last = t;
      return Math.round(total * 1e6) / 1e6;
    });
  }

  histogram(family: string, labels: Labels, buckets: number[], perSecond: number, shares: { le: number; share: number }[]): void {
    const below = (le: number) => shares.filter((s) => s.le <= le).reduce((a, s) => a + s.share, 0);
    const elapsed = (t: number) => t - this.w.start;
    for (const le of buckets) {
      this.add(family, 'histogram', `${family}_bucket`, { ...labels, le: String(le) }, (t) =>
        Math.round(perSecond * elapsed(t) * below(le)),
      );
    }
    this.add(family, 'histogram', `${family}_bucket`, { ...labels, le: '+Inf' }, (t) => Math.round(perSecond * elapsed(t)));
    const mean = shares.reduce((a, s) => a + s.le * s.share, 0);
    this.add(family, 'histogram', `${family}_count`, labels, (t) => Math.round(perSecond * elapsed(t)));
    this.add(family, 'histogram', `${family}_sum`, labels, (t) => perSecond * elapsed(t) * mean);
  }

  build(): Family[] {
    return [...this.families].map(([name, f]) => ({ name, type: f.type, series: f.series }));
  }
}

const gpuBase = (node: string, model: string, gpu: number, hostLabel: 'Hostname' | 'hostname') => ({
  gpu: String(gpu),
  UUID: `GPU-${node}-${gpu}`,
  device: `nvidia${gpu}`,
  modelName: model,
  [hostLabel]: node,
});

function dcgm(b: Builder): void {
  const a100 = POOLS.a100.model;
  for (let gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
    // Eval GPUs: labelled with the job's pod while it runs, empty pod labels otherwise.
    const base = gpuBase(EVAL.node, a100, gpu, 'Hostname');
    const busy = { ...base, namespace: EVAL.namespace, pod: `eval-job-${gpu >> 1}`, container: 'eval' };
    const free = { ...base, namespace: '', pod: '', container: '' };
    const on = (v: number) => (t: number) => (EVAL.active(t) ? v : null);
    const off = (t: number) => (EVAL.active(t) ? null : 0);
    for (const [m, v] of [
      ['DCGM_FI_DEV_GPU_UTIL', EVAL.util],
      ['DCGM_FI_PROF_SM_ACTIVE', EVAL.smActive],
      ['DCGM_FI_PROF_GR_ENGINE_ACTIVE', EVAL.smActive],
      ['DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', EVAL.tensor],
      ['DCGM_FI_PROF_DRAM_ACTIVE', EVAL.dram],
      ['DCGM_FI_DEV_FB_USED', EVAL.fbUsed],
    ] as const) {
      b.gauge(m, busy, on(v));
      b.gauge(m, free, off);
    }
  }
  for (let gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
    const base = gpuBase(TRAIN.node, a100, gpu, 'Hostname');
    const used = gpu < TRAIN.gpus;
    const notebook = (NOTEBOOK.gpuIndexes as readonly number[]).includes(gpu);
    const labels = used
      ? { ...base, namespace: TRAIN.namespace, pod: 'train-0', container: 'trainer' }
      : notebook
        ? { ...base, namespace: NOTEBOOK.namespace, pod: NOTEBOOK.pod, container: 'notebook' }
        : base;
    const val = (v: number) => () => (used ? v : 0);
    b.gauge('DCGM_FI_DEV_GPU_UTIL', labels, () => (used ? TRAIN.util : notebook ? NOTEBOOK.util : 0));
    b.gauge('DCGM_FI_PROF_SM_ACTIVE', labels, val(TRAIN.smActive));
    b.gauge('DCGM_FI_PROF_GR_ENGINE_ACTIVE', labels, val(TRAIN.smActive));
    b.gauge('DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', labels, val(TRAIN.tensor));
    b.gauge('DCGM_FI_PROF_DRAM_ACTIVE', labels, val(TRAIN.dram));
    b.gauge('DCGM_FI_DEV_FB_USED', labels, (_t, i) =>
      notebook ? NOTEBOOK.fbUsed : !used ? 0 : gpu === 1 && i % TRAIN.blankEvery === 0 ? DCGM_INT64_BLANK : TRAIN.fbUsed,
    );
  }
  for (let gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
    const labels = gpuBase(UNMAPPED.node, POOLS.h100.model, gpu, 'Hostname');
    b.gauge('DCGM_FI_DEV_GPU_UTIL', labels, () => (gpu < UNMAPPED.gpus ? UNMAPPED.util : 0));
  }
  // The L4 pool runs dcgm-exporter from main (`hostname`) behind a ServiceMonitor without
  // honorLabels, so the workload's labels arrive as exported_*; SM_ACTIVE is not enabled there.
  CHAT.pods.forEach((pod, gpu) => {
    const labels = {
      ...gpuBase(CHAT.node, POOLS.l4.model, gpu, 'hostname'),
      exported_namespace: CHAT.namespace,
      exported_pod: pod,
      exported_container: 'vllm',
      namespace: 'gpu-operator',
      pod: 'nvidia-dcgm-exporter-x7k2p',
    };
    b.gauge('DCGM_FI_DEV_GPU_UTIL', labels, CHAT.util);
    b.gauge('DCGM_FI_PROF_GR_ENGINE_ACTIVE', labels, CHAT.grEngine);
    b.gauge('DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', labels, () => CHAT.tensor);
    b.gauge('DCGM_FI_PROF_DRAM_ACTIVE', labels, () => CHAT.dram);
    b.gauge('DCGM_FI_DEV_FB_USED', labels, () => CHAT.fbUsed);
  });
}

function kubeStateMetrics(b: Builder): void {
  for (const pool of Object.values(POOLS)) {
    for (const node of pool.nodes) {
      b.gauge('kube_node_status_allocatable', { node, resource: 'nvidia_com_gpu', unit: 'integer' }, () => GPUS_PER_NODE);
      b.gauge('kube_node_status_allocatable', { node, resource: 'cpu', unit: 'core' }, () => 96);
      b.gauge('kube_node_labels', { node, label_karpenter_sh_nodepool: pool.name }, () => 1);
    }
  }
  const req = (namespace: string, pod: string, node: string, gpus: number, when: (t: number) => boolean) => {
    const labels = { namespace, pod, uid: `uid-${pod}`, container: 'main', node };
    b.gauge('kube_pod_container_resource_requests', { ...labels, resource: 'nvidia_com_gpu', unit: 'integer' }, (t) =>
      when(t) ? gpus : null,
    );
    b.gauge('kube_pod_container_resource_requests', { ...labels, resource: 'cpu', unit: 'core' }, (t) => (when(t) ? 8 : null));
  };
  req(EVAL.namespace, 'eval-job-0', EVAL.node, 2, EVAL.active);
  req(EVAL.namespace, 'eval-job-1', EVAL.node, 2, EVAL.active);
  req(TRAIN.namespace, 'train-0', TRAIN.node, TRAIN.gpus, () => true);
  req(NOTEBOOK.namespace, NOTEBOOK.pod, NOTEBOOK.node, NOTEBOOK.gpus, () => true);
  req(UNMAPPED.namespace, UNMAPPED.pod, UNMAPPED.node, UNMAPPED.gpus, () => true);
  for (const pod of CHAT.pods) req(CHAT.namespace, pod, CHAT.node, 1, () => true);
}

function kueue(b: Builder): void {
  for (const replica_role of KUEUE.roles) {
    for (const [name, q] of Object.entries(KUEUE.queues)) {
      const res = { cohort: KUEUE.cohort, cluster_queue: name, flavor: KUEUE.flavor, resource: 'nvidia.com/gpu', replica_role };
      b.gauge('kueue_cluster_queue_nominal_quota', res, () => q.nominal);
      b.gauge('kueue_cluster_queue_nominal_quota', { ...res, resource: 'cpu' }, () => 64);
      b.gauge('kueue_cluster_queue_resource_usage', res, q.usage);
      b.gauge('kueue_cluster_queue_resource_reservation', res, q.reservation);
      b.gauge('kueue_pending_workloads', { cluster_queue: name, status: 'active', replica_role }, q.pendingActive);
      b.gauge('kueue_pending_workloads', { cluster_queue: name, status: 'inadmissible', replica_role }, () => q.pendingInadmissible);
    }
    const perSecond = KUEUE.admissionWaits.reduce((a, w) => a + w.perHour, 0) / HOUR;
    const shares = KUEUE.admissionWaits.map((w) => ({
      le: KUEUE.buckets.find((x) => x >= w.seconds) ?? Number.POSITIVE_INFINITY,
      share: w.perHour / (perSecond * HOUR),
    }));
    b.histogram(
      'kueue_admission_wait_time_seconds',
      { cluster_queue: 'research', priority_class: '', replica_role },
      KUEUE.buckets,
      perSecond,
      shares,
    );
  }
}

function vllm(b: Builder): void {
  for (const pod of CHAT.pods) {
    const labels = { namespace: CHAT.namespace, pod, engine: '0', model_name: CHAT.model };
    b.gauge('vllm:num_requests_running', labels, CHAT.running);
    b.gauge('vllm:num_requests_waiting', labels, CHAT.waiting);
    if (!CHAT.oldKvName.includes(pod)) b.gauge('vllm:kv_cache_usage_perc', labels, CHAT.kvCache);
    if (CHAT.oldKvName.includes(pod)) b.gauge('vllm:gpu_cache_usage_perc', labels, CHAT.kvCache);
    if (pod === CHAT.bothKvNames) b.gauge('vllm:gpu_cache_usage_perc', labels, () => CHAT.oldKvValueOnBoth);
    for (const [reason, rate] of Object.entries(CHAT.finished)) {
      b.counter('vllm:request_success', { ...labels, finished_reason: reason }, () => rate);
    }
    b.counter('vllm:num_preemptions', labels, () => CHAT.preemptionsPerHour / HOUR);
    const total = Object.values(CHAT.finished).reduce((a, r) => a + r, 0);
    b.histogram('vllm:e2e_request_latency_seconds', labels, E2E_BUCKETS, total, CHAT.e2e);
    b.histogram('vllm:time_to_first_token_seconds', labels, TTFT_BUCKETS, total, CHAT.ttft);
  }
}

function outcomes(b: Builder): void {
  // The nightly evals report when they finish at 06:00 UTC.
  const finishedRuns = (t: number, perDay: number) => {
    const days = Math.floor((t - b.w.start) / DAY);
    const today = hourOf(t) >= 6 ? 1 : 0;
    return (days + today) * perDay;
  };
  for (const [result, perDay] of [
    ['pass', EVAL.passPerDay],
    ['fail', EVAL.failPerDay],
  ] as const) {
    b.add('eval_runs', 'counter', 'eval_runs_total', { namespace: EVAL.namespace, result }, (t) => finishedRuns(t, perDay));
  }
}

function injectionProbe(b: Builder): void {
  b.gauge('inject_probe', { target: INJECTION.hostile }, () => INJECTION.hostileValue);
  b.gauge('inject_probe', { target: INJECTION.plain }, () => INJECTION.plainValue);
  b.gauge('inject_probe', { target: INJECTION.escapes }, () => INJECTION.escapesValue);
}

/** Every family of the simulated cluster over `w`. */
export function simulateCluster(w: SimWindow): Family[] {
  const b = new Builder(w);
  dcgm(b);
  kubeStateMetrics(b);
  kueue(b);
  vllm(b);
  outcomes(b);
  injectionProbe(b);
  return b.build();
}
