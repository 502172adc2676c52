import type { Evidence, FindingDetail, InferenceWorkload, Policy } from '../domain/index.js';
import { measureKey, migGpuFor, POD_MEASURE_LABEL, REPLICA_PEAKS } from '../domain/index.js';
import type { Measured } from './measured.js';
import { itemAt } from '../util/indexed.js';

type SlicesDetail = Extract<FindingDetail, { code: 'mig' | 'time-slicing' }>;

/** A service's replicas put several to a GPU, and what that needs. */
export interface Slices {
  detail: SlicesDetail;
  evidence: Evidence[];
  confidence: 'high' | 'medium' | 'low';
}

const MIB_PER_GB = 1e9 / 2 ** 20;

interface Replica {
  fb: number | null;
  sm: number | null;
  gr: number | null;
  util: number | null;
  total: number | null;
  model: string;
}

function replicas(series: readonly { labels: Readonly<Record<string, string>>; samples: readonly { v: number }[] }[]): Replica[] {
  const byPod = new Map<string, Replica>();
  for (const s of series) {
    const pod = s.labels['pod'] ?? '';
    const v = s.samples.at(-1)?.v;
    if (pod === '' || v === undefined || !Number.isFinite(v)) continue;
    const key = `${s.labels['namespace'] ?? ''}\u0000${pod}`;
    const r = byPod.get(key) ?? { fb: null, sm: null, gr: null, util: null, total: null, model: s.labels['modelName'] ?? '' };
    byPod.set(key, r);
    const part = s.labels[POD_MEASURE_LABEL];
    const put = (k: 'fb' | 'sm' | 'gr' | 'util' | 'total') => (r[k] = Math.max(r[k] ?? v, v));
    if (part === REPLICA_PEAKS.fb) put('fb');
    else if (part === REPLICA_PEAKS.sm) put('sm');
    else if (part === REPLICA_PEAKS.gr) put('gr');
    else if (part === REPLICA_PEAKS.util) put('util');
    else if (part === REPLICA_PEAKS.total) put('total');
    if (r.model === '' && s.labels['modelName']) r.model = s.labels['modelName'];
  }
  return [...byPod.values()];
}

const most = (xs: readonly (number | null)[]): number | null =>
  xs.some((x) => x === null) || xs.length === 0 ? null : Math.max(...(xs as number[]));

/**
 * Whether a service's replicas each use so little of their GPU that several could share one: on a
 * MIG-capable GPU, the smallest MIG profile NVIDIA documents for it whose memory holds the
 * busiest replica's peak framebuffer and whose compute share holds its peak SM activity (else
 * graphics-engine activity, saying so); on any other GPU, time-slicing as many to a GPU as those
 * peaks add up within one. The replicas declared, with the service's headroom, then need
 * ⌈⌈replicas × (1 + headroom)⌉ ÷ per GPU⌉ GPUs. Null when the replicas take more than one GPU
 * each, are not measured per pod, or no slice smaller than a GPU holds them; a missing compute
 * field is recorded as missing evidence, never read as zero.
 */
export function sliceReplicas(s: InferenceWorkload, m: Measured, policy: Pick<Policy, 'headroom'>): Slices | null {
  if (s.gpusPerReplica !== 1 || s.selector === undefined || Object.keys(s.selector).length === 0) return null;
  const a = m.peek(measureKey('replica-peaks', `workload:${s.name}`));
  if (a === undefined) return null;
  const pods = replicas(a.series).filter((r) => r.fb !== null);
  if (pods.length === 0) return null;
  const smAll = most(pods.map((r) => r.sm));
  const grAll = most(pods.map((r) => r.gr));
  const compute = smAll ?? grAll;
  if (compute === null) {
    m.lack({ code: 'replica-compute', workload: s.name });
    return null;
  }
  const computeField = smAll !== null ? 'DCGM_FI_PROF_SM_ACTIVE' : 'DCGM_FI_PROF_GR_ENGINE_ACTIVE';
  const memoryMiB = Math.max(...pods.map((r) => r.fb ?? 0));
  const totals = pods.map((r) => r.total).filter((t): t is number => t !== null);
  const total = totals.length > 0 ? Math.min(...totals) : null;
  const models = [...new Set(pods.map((r) => r.model).filter((x) => x !== ''))];
  // Replicas on different GPU models could not be given one profile.
  if (models.length !== 1) return null;
  const model = itemAt(models, 0, 'one-model-checked-above');
  const util = most(pods.map((r) => r.util));
  const headroom = s.headroom ?? policy.headroom;
  const wanted = Math.ceil(s.replicas * (1 + headroom) - 1e-9);
  const gpusNow = s.replicas * s.gpusPerReplica;
  const peak = { memoryMiB, compute, computeField, busyPercent: util };
  const gpu = migGpuFor(model, total);
  let detail: SlicesDetail;
  if (gpu !== null) {
    const fits = gpu.profiles.find(
      (p) => p.slices < gpu.slices && p.memoryGB * MIB_PER_GB >= memoryMiB && p.slices / gpu.slices >= compute,
    );
    if (fits === undefined) return null;
    const gpusSliced = Math.ceil(wanted / fits.perGpu);
    detail = {
      code: 'mig',
      workload: s.name,
      gpuModel: model,
      replicas: s.replicas,
      profile: fits.profile,
      perGpu: fits.perGpu,
      gpusNow,
      gpusSliced,
      gpusFreed: Math.max(0, gpusNow - gpusSliced),
      peak,
      slice: { memoryGB: fits.memoryGB, computeShare: fits.slices / gpu.slices },
    };
  } else {
    if (total === null || memoryMiB <= 0 || compute <= 0) return null;
    const perGpu = Math.floor(Math.min(total / memoryMiB, 1 / compute) + 1e-9);
    if (perGpu < 2) return null;
    const gpusSliced = Math.ceil(wanted / perGpu);
    detail = {
      code: 'time-slicing',
      workload: s.name,
      gpuModel: model,
      replicas: s.replicas,
      profile: null,
      perGpu,
      gpusNow,
      gpusSliced,
      gpusFreed: Math.max(0, gpusNow - gpusSliced),
      peak,
      slice: { memoryGB: total / perGpu / MIB_PER_GB, computeShare: 1 / perGpu },
    };
  }
  if (detail.gpusFreed <= 0) return null;
  // MIG isolates memory and compute; time-slicing shares both, and a fallback field measures less.
  const confidence = detail.code === 'mig' ? (smAll !== null ? 'high' : 'medium') : smAll !== null ? 'medium' : 'low';
  return { detail, evidence: [a.evidence], confidence };
}
