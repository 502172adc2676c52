/**
 * A cluster for the judgement scenarios, generated here: every series comes from the pods, queues
 * and pools below, as kube-state-metrics, dcgm-exporter and Kueue export them. `shift` moves every
 * scheduled hour later by that many hours, so a scenario can be replayed at other times of day.
 */
import type { Family, FamilyType, SeriesPoints } from '../helpers/prometheus/openmetrics.js';

const HOUR = 3600;
const DAY = 86_400;

/** Hour of the UTC day, fractional, with the scenario's hours moved `shift` hours later. */
const hourAt = (t: number, shift: number): number => ((((t % DAY) + DAY) % DAY) / HOUR - shift + 48) % 24;

type Phase = 'Pending' | 'Running' | 'Succeeded';
const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;

interface SimPod {
  namespace: string;
  pod: string;
  node: string;
  gpus: number;
  /** Its phase at `t` (shifted hours), or null when it does not exist. */
  phase: (h: number) => Phase | null;
  util?: number;
  sm?: number | null;
  gr?: number | null;
  dram?: number;
  /** Framebuffer used, MiB, at hour h. */
  fb?: (h: number) => number;
}

interface SimQueue {
  cohort: string;
  queue: string;
  nominal: number;
  usage: (h: number) => number;
  /** Kueue's lending-limit metric; undefined: not exported for it; Infinity: +Inf (unset, v0.19 on). */
  lendingMetric?: number;
}

interface SimNode {
  node: string;
  pool: string;
  model: string;
  gpus: number;
  /** Framebuffer of one GPU, MiB. */
  memoryMiB: number;
}

const A100_40 = 'NVIDIA A100-SXM4-40GB';
const L4 = 'NVIDIA L4';

const always = (p: Phase) => () => p;

/** A run of 1-GPU shards from `at` for `hours`; the last `waiting` shards wait Pending `wait` hours first; finished pods linger an hour. */
function shards(
  namespace: string,
  run: string,
  node: string,
  at: number,
  hours: number,
  count: number,
  waiting: number,
  wait: number,
): SimPod[] {
  return Array.from({ length: count }, (_, i) => {
    const start = at + (i >= count - waiting ? wait : 0);
    return {
      namespace,
      pod: `${run}-${i}`,
      node,
      gpus: 1,
      phase: (h: number) =>
        h >= at && h < start
          ? 'Pending'
          : h >= start && h < start + hours
            ? 'Running'
            : h >= start + hours && h < start + hours + 1
              ? 'Succeeded'
              : null,
      util: 70,
      sm: 0.5,
      gr: 0.6,
      fb: () => 20_000,
    };
  });
}

/** Every pod of every scenario. */
const PODS: SimPod[] = [
  // Item 3: two runs of 4 one-GPU shards, 2 h each; two shards of each wait an hour Pending.
  ...shards('shards', 'shard-a', 'node-s0', 0, 2, 4, 2, 1),
  ...shards('shards', 'shard-b', 'node-s0', 3, 2, 4, 2, 1),
  // Item 5: three 2-GPU eval runs, two at 00:00 and one at 02:00, and an idle training pod.
  ...[0, 1, 2].map((i): SimPod => ({
    namespace: 'eval5',
    pod: `eval-${i}`,
    node: 'node-b0',
    gpus: 2,
    phase: (h) => ((i < 2 ? h < 2 : h >= 2 && h < 4) ? 'Running' : null),
    util: 80,
    sm: 0.6,
    gr: 0.7,
    fb: () => 30_000,
  })),
  {
    namespace: 'idle5',
    pod: 'idle-train-0',
    node: 'node-b1',
    gpus: 2,
    phase: always('Running'),
    util: 1,
    sm: 0.01,
    gr: 0.01,
    fb: () => 9_000,
  },
  // Item 6: 8 replicas of a small embedding service on A100 40GB GPUs, and 8 on L4s.
  ...Array.from({ length: 8 }, (_, i): SimPod => ({
    namespace: 'embed',
    pod: `embed-${i}`,
    node: `node-m${Math.floor(i / 4)}`,
    gpus: 1,
    phase: always('Running'),
    util: 11,
    sm: 0.05,
    gr: 0.07,
    // Up to 4 GiB at the day's busiest hour (12:00).
    fb: (h) => 3_000 + (i === 0 && h >= 12 && h < 13 ? 1_096 : 0),
  })),
  ...Array.from({ length: 8 }, (_, i): SimPod => ({
    namespace: 'embed-l4',
    pod: `embed-l4-${i}`,
    node: `node-l${Math.floor(i / 4)}`,
    gpus: 1,
    phase: always('Running'),
    util: 11,
    sm: 0.05,
    gr: 0.07,
    fb: (h) => 3_000 + (i === 0 && h >= 12 && h < 13 ? 1_096 : 0),
  })),
  // Item 6: the same service where the exporter has no profiling fields at all.
  ...Array.from({ length: 4 }, (_, i): SimPod => ({
    namespace: 'embed-dark',
    pod: `embed-dark-${i}`,
    node: 'node-d0',
    gpus: 1,
    phase: always('Running'),
    util: 11,
    sm: null,
    gr: null,
    fb: () => 3_000,
  })),
  // Item 7: a memory-bound training job holding 4 GPUs all day.
  {
    namespace: 'mem',
    pod: 'mem-0',
    node: 'node-x0',
    gpus: 4,
    phase: always('Running'),
    util: 60,
    sm: 0.2,
    gr: 0.25,
    dram: 0.6,
    fb: () => 30_000,
  },
];

const NODES: SimNode[] = [
  { node: 'node-s0', pool: 'shard-pool', model: A100_40, gpus: 4, memoryMiB: 40_536 },
  { node: 'node-b0', pool: 'batch-pool', model: A100_40, gpus: 4, memoryMiB: 40_536 },
  { node: 'node-b1', pool: 'batch-pool', model: A100_40, gpus: 4, memoryMiB: 40_536 },
  { node: 'node-m0', pool: 'a100-40', model: A100_40, gpus: 4, memoryMiB: 40_536 },
  { node: 'node-m1', pool: 'a100-40', model: A100_40, gpus: 4, memoryMiB: 40_536 },
  { node: 'node-l0', pool: 'l4-ts', model: L4, gpus: 4, memoryMiB: 23_034 },
  { node: 'node-l1', pool: 'l4-ts', model: L4, gpus: 4, memoryMiB: 23_034 },
  { node: 'node-d0', pool: 'dark-pool', model: A100_40, gpus: 4, memoryMiB: 40_536 },
  { node: 'node-x0', pool: 'mem-pool', model: A100_40, gpus: 4, memoryMiB: 40_536 },
];

/** Item 1: research borrows in cohort `lend`, where `archive` declares lendingLimit: 0 (in the file), and in `lend-m`, where Kueue's metric says 0. */
const evalHours = (h: number) => h < 6;
/** Item 2: both teams run 00:00–06:00; the pool queue uses 2 then and 8 otherwise. */
const QUEUES: SimQueue[] = [
  { cohort: 'lend', queue: 'research', nominal: 4, usage: (h) => (evalHours(h) ? 4 : 0) },
  { cohort: 'lend', queue: 'archive', nominal: 8, usage: () => 2 },
  { cohort: 'lend-m', queue: 'research-m', nominal: 4, usage: (h) => (evalHours(h) ? 4 : 0), lendingMetric: Infinity },
  { cohort: 'lend-m', queue: 'archive-m', nominal: 8, usage: () => 2, lendingMetric: 0 },
  { cohort: 'shared', queue: 'team-a', nominal: 4, usage: (h) => (evalHours(h) ? 4 : 0), lendingMetric: Infinity },
  { cohort: 'shared', queue: 'team-b', nominal: 4, usage: (h) => (evalHours(h) ? 4 : 0), lendingMetric: Infinity },
  { cohort: 'shared', queue: 'pool-q', nominal: 8, usage: (h) => (evalHours(h) ? 2 : 8), lendingMetric: Infinity },
];

class Families {
  private readonly map = new Map<string, { type: FamilyType; series: SeriesPoints[] }>();
  constructor(
    private readonly start: number,
    private readonly end: number,
    private readonly step: number,
  ) {}

  gauge(name: string, labels: Record<string, string>, value: (t: number) => number | null): void {
    const f = this.map.get(name) ?? { type: 'gauge' as const, series: [] };
    this.map.set(name, f);
    const points: [number, number][] = [];
    for (let t = this.start; t <= this.end; t += this.step) {
      const v = value(t);
      if (v !== null) points.push([t, v]);
    }
    if (points.length > 0) f.series.push({ name, labels, points });
  }

  build(): Family[] {
    return [...this.map].map(([name, f]) => ({ name, type: f.type, series: f.series }));
  }
}

/** Every family over [start, end] at `step` seconds, the scenario hours moved `shift` hours later. */
export function judgementCluster(start: number, end: number, step: number, shift = 0): Family[] {
  const f = new Families(start, end, step);
  const h = (t: number) => hourAt(t, shift);
  for (const n of NODES) {
    f.gauge('kube_node_labels', { node: n.node, label_karpenter_sh_nodepool: n.pool }, () => 1);
    f.gauge('kube_node_status_allocatable', { node: n.node, resource: 'nvidia_com_gpu', unit: 'integer' }, () => n.gpus);
  }
  // Each node's GPUs are handed out to its pods in order.
  const nextGpu = new Map<string, number>();
  for (const p of PODS) {
    const node = NODES.find((n) => n.node === p.node) as SimNode;
    const first = nextGpu.get(p.node) ?? 0;
    nextGpu.set(p.node, first + p.gpus);
    const uid = `uid-${p.pod}`;
    const phaseAt = (t: number) => p.phase(h(t));
    for (const ph of PHASES)
      f.gauge('kube_pod_status_phase', { namespace: p.namespace, pod: p.pod, uid, phase: ph }, (t) =>
        phaseAt(t) === null ? null : phaseAt(t) === ph ? 1 : 0,
      );
    // kube-state-metrics reports a pod's requests in every phase, with no node while it is unscheduled.
    const scheduled = (t: number) => phaseAt(t) !== null && !(phaseAt(t) === 'Pending');
    f.gauge(
      'kube_pod_container_resource_requests',
      { namespace: p.namespace, pod: p.pod, uid, container: 'main', node: p.node, resource: 'nvidia_com_gpu', unit: 'integer' },
      (t) => (scheduled(t) ? p.gpus : null),
    );
    f.gauge(
      'kube_pod_container_resource_requests',
      { namespace: p.namespace, pod: p.pod, uid, container: 'main', node: '', resource: 'nvidia_com_gpu', unit: 'integer' },
      (t) => (phaseAt(t) === 'Pending' ? p.gpus : null),
    );
    for (let g = 0; g < p.gpus; g++) {
      const labels = {
        gpu: String(first + g),
        UUID: `GPU-${p.node}-${first + g}`,
        device: `nvidia${first + g}`,
        modelName: node.model,
        Hostname: p.node,
        namespace: p.namespace,
        pod: p.pod,
        container: 'main',
      };
      const on = (v: number | null | undefined) => (t: number) => (phaseAt(t) === 'Running' && v !== undefined && v !== null ? v : null);
      f.gauge('DCGM_FI_DEV_GPU_UTIL', labels, on(p.util));
      f.gauge('DCGM_FI_PROF_SM_ACTIVE', labels, on(p.sm));
      f.gauge('DCGM_FI_PROF_GR_ENGINE_ACTIVE', labels, on(p.gr));
      f.gauge('DCGM_FI_PROF_DRAM_ACTIVE', labels, on(p.dram ?? 0.1));
      f.gauge('DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', labels, on(0.1));
      f.gauge('DCGM_FI_DEV_FB_USED', labels, (t) => (phaseAt(t) === 'Running' && p.fb ? p.fb(h(t)) : null));
      f.gauge('DCGM_FI_DEV_FB_FREE', labels, (t) => (phaseAt(t) === 'Running' && p.fb ? node.memoryMiB - p.fb(h(t)) : null));
    }
  }
  for (const q of QUEUES) {
    for (const replica_role of ['leader', 'follower']) {
      const res = { cohort: q.cohort, cluster_queue: q.queue, flavor: 'a100', resource: 'nvidia.com/gpu', replica_role };
      f.gauge('kueue_cluster_queue_nominal_quota', res, () => q.nominal);
      f.gauge('kueue_cluster_queue_resource_usage', res, (t) => q.usage(h(t)));
      if (q.lendingMetric !== undefined) f.gauge('kueue_cluster_queue_lending_limit', res, () => q.lendingMetric as number);
    }
  }
  return f.build();
}
