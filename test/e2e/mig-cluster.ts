/**
 * A MIG pool as dcgm-exporter and kube-state-metrics export it: the ground truth of the MIG
 * telemetry tests. Every number the series carry comes from here.
 *
 * Node gpu-m-0 (mixed strategy): GPU 0 sliced 3g.40gb + 2g.20gb + 1g.10gb + 1g.10gb, GPU 1 sliced
 * 7 × 1g.10gb, GPUs 2 and 3 whole. Node gpu-m-1 (single strategy): two GPUs of 7 × 1g.10gb each,
 * advertised as 14 nvidia.com/gpu. The exporter is an older release that still writes
 * DCGM_FI_DEV_GPU_UTIL = 0 for MIG instances (NVIDIA/dcgm-exporter#216): the tests check it is
 * never read as an instance's busy-ness.
 */
import type { Family, FamilyType, SeriesPoints } from '../helpers/prometheus/openmetrics.js';
import { hourOf, type SimWindow } from '../helpers/prometheus/index.js';

export const MIG_POOL = { name: 'mig-pool', label: 'karpenter.sh/nodepool', model: 'NVIDIA A100-SXM4-80GB' } as const;
const MIXED_NODE = 'gpu-m-0';
/** A ClusterQueue whose quota is in MIG devices. */
export const MIG_QUEUE = { name: 'mig-research', admitted3g: 1 } as const;
const SINGLE_NODE = 'gpu-m-1';

/** One MIG instance, or one whole GPU (`profile` null), and who holds it when. */
interface Device {
  node: string;
  gpu: number;
  profile: string | null;
  instance?: number;
  holder?: { namespace: string; pod: string; active: (t: number) => boolean; activity: number };
}

const always = () => true;
const nightly = (t: number) => hourOf(t) < 6;

/** Pods and what they hold; `activity` is GR-engine activity (0–1), or GPU_UTIL ÷ 100 on whole GPUs. */
export const PODS = {
  llm: { namespace: 'infer', pod: 'llm-0', active: always, activity: 0.6 },
  nbBob: { namespace: 'notebooks', pod: 'nb-bob', active: always, activity: 0.01 },
  etl: { namespace: 'batch', pod: 'etl-0', active: nightly, activity: 0.5 },
  train: { namespace: 'train', pod: 'train-w', active: always, activity: 0.7 },
  nbCarol: { namespace: 'notebooks', pod: 'nb-carol', active: always, activity: 0.02 },
  sweep: { namespace: 'single', pod: 'sweep-0', active: always, activity: 0.4 },
  nbDan: { namespace: 'notebooks', pod: 'nb-dan', active: always, activity: 0 },
} as const;

const DEVICES: Device[] = [
  { node: MIXED_NODE, gpu: 0, profile: '3g.40gb', instance: 1, holder: PODS.llm },
  { node: MIXED_NODE, gpu: 0, profile: '2g.20gb', instance: 3, holder: PODS.etl },
  { node: MIXED_NODE, gpu: 0, profile: '1g.10gb', instance: 9 },
  { node: MIXED_NODE, gpu: 0, profile: '1g.10gb', instance: 10 },
  ...Array.from({ length: 7 }, (_, i): Device => ({
    node: MIXED_NODE,
    gpu: 1,
    profile: '1g.10gb',
    instance: 7 + i,
    ...(i < 2 ? { holder: PODS.nbBob } : {}),
  })),
  { node: MIXED_NODE, gpu: 2, profile: null, holder: PODS.train },
  { node: MIXED_NODE, gpu: 3, profile: null, holder: PODS.nbCarol },
  ...Array.from({ length: 14 }, (_, i): Device => ({
    node: SINGLE_NODE,
    gpu: i < 7 ? 0 : 1,
    profile: '1g.10gb',
    instance: 7 + (i % 7),
    ...(i < 3 ? { holder: PODS.sweep } : i === 3 ? { holder: PODS.nbDan } : {}),
  })),
];

/** What kube-state-metrics shows each pod requesting: resource and count. */
const REQUESTS: { pod: keyof typeof PODS; node: string; resource: string; count: number }[] = [
  { pod: 'llm', node: MIXED_NODE, resource: 'nvidia_com_mig_3g_40gb', count: 1 },
  { pod: 'etl', node: MIXED_NODE, resource: 'nvidia_com_mig_2g_20gb', count: 1 },
  { pod: 'nbBob', node: MIXED_NODE, resource: 'nvidia_com_mig_1g_10gb', count: 2 },
  { pod: 'train', node: MIXED_NODE, resource: 'nvidia_com_gpu', count: 1 },
  { pod: 'nbCarol', node: MIXED_NODE, resource: 'nvidia_com_gpu', count: 1 },
  // Single strategy: the slices are requested as nvidia.com/gpu.
  { pod: 'sweep', node: SINGLE_NODE, resource: 'nvidia_com_gpu', count: 3 },
  { pod: 'nbDan', node: SINGLE_NODE, resource: 'nvidia_com_gpu', count: 1 },
];

const ALLOCATABLE: { node: string; resource: string; count: number }[] = [
  { node: MIXED_NODE, resource: 'nvidia_com_gpu', count: 2 },
  { node: MIXED_NODE, resource: 'nvidia_com_mig_3g_40gb', count: 1 },
  { node: MIXED_NODE, resource: 'nvidia_com_mig_2g_20gb', count: 1 },
  { node: MIXED_NODE, resource: 'nvidia_com_mig_1g_10gb', count: 9 },
  { node: SINGLE_NODE, resource: 'nvidia_com_gpu', count: 14 },
];

class Families {
  private readonly map = new Map<string, { type: FamilyType; series: SeriesPoints[] }>();
  constructor(private readonly w: SimWindow) {}

  gauge(name: string, labels: Record<string, string>, value: (t: number) => number | null): void {
    const f = this.map.get(name) ?? { type: 'gauge' as const, series: [] };
    this.map.set(name, f);
    const points: [number, number][] = [];
    for (let t = this.w.start; t <= this.w.end; t += this.w.step) {
      const v = value(t);
      if (v !== null) points.push([t, v]);
    }
    if (points.length > 0) f.series.push({ name, labels, points });
  }

  build(): Family[] {
    return [...this.map].map(([name, f]) => ({ name, type: f.type, series: f.series }));
  }
}

/** The exporter's labels for one device, in its order: GPU, UUID, model, MIG profile and id, host, pod. */
function dcgmLabels(d: Device, held: boolean): Record<string, string> {
  return {
    gpu: String(d.gpu),
    UUID: `GPU-${d.node}-${d.gpu}`,
    device: `nvidia${d.gpu}`,
    modelName: MIG_POOL.model,
    ...(d.profile === null ? {} : { GPU_I_PROFILE: d.profile, GPU_I_ID: String(d.instance) }),
    Hostname: d.node,
    ...(held && d.holder
      ? { namespace: d.holder.namespace, pod: d.holder.pod, container: 'main' }
      : { namespace: '', pod: '', container: '' }),
  };
}

/**
 * Every family of the MIG pool over `w`. `profiling: false` is an exporter without the DCP
 * fields: instances then report only the GPU_UTIL of 0 that says nothing.
 */
export function simulateMigPool(w: SimWindow, opts: { profiling?: boolean } = {}): Family[] {
  const profiling = opts.profiling ?? true;
  const f = new Families(w);
  for (const d of DEVICES) {
    const holder = d.holder;
    const on = (t: number) => holder !== undefined && holder.active(t);
    // While held the series carry the pod; otherwise the empty pod labels of a free device.
    for (const held of [true, false]) {
      const when = (v: (t: number) => number) => (t: number) => (on(t) === held ? v(t) : null);
      const labels = dcgmLabels(d, held);
      const activity = (t: number) => (on(t) && holder ? holder.activity : 0);
      if (d.profile === null)
        f.gauge(
          'DCGM_FI_DEV_GPU_UTIL',
          labels,
          when((t) => activity(t) * 100),
        );
      else
        f.gauge(
          'DCGM_FI_DEV_GPU_UTIL',
          labels,
          when(() => 0),
        );
      if (!profiling) continue;
      f.gauge('DCGM_FI_PROF_GR_ENGINE_ACTIVE', labels, when(activity));
      f.gauge(
        'DCGM_FI_PROF_PIPE_TENSOR_ACTIVE',
        labels,
        when((t) => activity(t) / 2),
      );
      f.gauge(
        'DCGM_FI_PROF_DRAM_ACTIVE',
        labels,
        when((t) => activity(t) / 4),
      );
    }
  }
  for (const node of [MIXED_NODE, SINGLE_NODE]) {
    f.gauge('kube_node_labels', { node, label_karpenter_sh_nodepool: MIG_POOL.name }, () => 1);
  }
  for (const a of ALLOCATABLE)
    f.gauge('kube_node_status_allocatable', { node: a.node, resource: a.resource, unit: 'integer' }, () => a.count);
  for (const r of REQUESTS) {
    const p = PODS[r.pod];
    const labels = {
      namespace: p.namespace,
      pod: p.pod,
      uid: `uid-${p.pod}`,
      container: 'main',
      node: r.node,
      resource: r.resource,
      unit: 'integer',
    };
    f.gauge('kube_pod_container_resource_requests', labels, (t) => (p.active(t) ? r.count : null));
  }
  // Kueue v0.16+: leader and follower both export; the queue admitted llm's 3g.40gb all window.
  for (const replica_role of ['leader', 'follower']) {
    const labels = { cluster_queue: MIG_QUEUE.name, cohort: 'ml', flavor: 'a100-mig', resource: 'nvidia.com/mig-3g.40gb', replica_role };
    f.gauge('kueue_cluster_queue_resource_usage', labels, () => MIG_QUEUE.admitted3g);
  }
  return f.build();
}
