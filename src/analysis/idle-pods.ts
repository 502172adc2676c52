import type { CapacityChange, IdlePod, MeasureKey, Policy, TakenMeasurement, Workload } from '../domain/index.js';
import { measureKey, POD_MEASURE_LABEL, POD_MEASURES } from '../domain/index.js';
import type { Measured } from './measured.js';
import { migMeasures, missingInstanceActivity, plus, type MigMeasures } from './mig.js';
import { migPodMeasureKey, migPodsOf, type MigPods } from './mig-pods.js';
import { holding, maxOf, stepOf, timeline, type Timeline } from './series.js';

/**
 * A pod counts as reclaimable only when it held GPUs for more than this share of the window and
 * still held them at its end: a pod that ran for minutes, or one already gone, frees nothing, and
 * one that came late may be starting real work.
 */
export const HELD_MOST = 0.5;

export const podMeasureKey = (pool: string): MeasureKey => measureKey('pod-gpus', `pool:${pool}`);

/**
 * Whether a catalog workload's selector names this pod, on the labels DCGM carries: its namespace
 * when the selector has one (any pod there is the workload's), else its pod name. Such GPUs are
 * the workload's and counted through its own ladder, so never again here.
 */
export function coveredBy(w: Workload, namespace: string, pod: string): boolean {
  const sel = w.selector ?? {};
  if (sel['namespace'] !== undefined) return sel['namespace'] === namespace;
  return sel['pod'] !== undefined && sel['pod'] === pod;
}

/** Catalog workloads that no pod can be matched to: their pods may be listed as outside the catalog. */
export function unmatchable(catalog: readonly Workload[]): Workload[] {
  return catalog.filter((w) => w.selector?.['namespace'] === undefined && w.selector?.['pod'] === undefined);
}

interface PodLines {
  namespace: string;
  pod: string;
  gpus: Timeline;
  busy: Timeline;
}

function byPod(a: TakenMeasurement): PodLines[] {
  const out = new Map<string, PodLines>();
  for (const s of a.series) {
    const namespace = s.labels['namespace'] ?? '';
    const pod = s.labels['pod'] ?? '';
    const measure = s.labels[POD_MEASURE_LABEL];
    if (pod === '' || (measure !== POD_MEASURES.gpus && measure !== POD_MEASURES.busy)) continue;
    const key = `${namespace}\u0000${pod}`;
    const p = out.get(key) ?? { namespace, pod, gpus: new Map(), busy: new Map() };
    out.set(key, p);
    const line = measure === POD_MEASURES.gpus ? p.gpus : p.busy;
    for (const x of s.samples) line.set(x.t, (line.get(x.t) ?? 0) + x.v);
  }
  return [...out.values()];
}

/**
 * Measures every pod the query found: GPUs held at the end of the window, the share of the
 * window it held any, and busy GPU-hours over held GPU-hours. Pure; no rule applied.
 */
export function measurePods(a: TakenMeasurement): IdlePod[] {
  const pods = byPod(a);
  const line = timeline(a);
  if (line.size === 0) return [];
  const last = Math.max(...line.keys());
  const step = stepOf(a, line);
  const windowSeconds = a.windowMinutes * 60;
  const out: IdlePod[] = [];
  for (const p of pods) {
    const { points: heldPoints, gpus: gpuSum, busy: busySum } = holding(p.gpus, p.busy);
    if (gpuSum <= 0) continue;
    out.push({
      namespace: p.namespace,
      pod: p.pod,
      gpus: Math.round(p.gpus.get(last) ?? 0),
      busyFraction: busySum / gpuSum,
      heldFraction: windowSeconds > 0 ? Math.min(1, (heldPoints * step) / windowSeconds) : 0,
      // The pod is named by its own fields; the evidence is the query that measured them all.
      evidence: [a.evidence],
    });
  }
  return out;
}

/** A pod's key across the whole-GPU and MIG answers. */
const podKey = (p: { namespace: string; pod: string }) => `${p.namespace}\u0000${p.pod}`;

/**
 * Every pod the whole-GPU query measured, or none; records what is missing when pods request
 * GPUs there but no DCGM series names them. `wholeRequested` is the most whole GPUs requested
 * there at once (single-strategy slices taken out); null when unknown.
 */
function wholeGpuPods(change: CapacityChange, m: Measured, wholeRequested: () => number | null): IdlePod[] | null {
  const id = podMeasureKey(change.name);
  const result = m.result(id);
  if (result === undefined) return null;
  if (result.status === 'missing') {
    const requested = wholeRequested();
    if (result.reason === 'nothing-there' && requested !== null) {
      // No pod requested GPUs there: nothing can be idle, and nothing is missing.
      if (requested > 0) {
        // Without any DCGM series on the pool's nodes, pod mapping is not what is missing.
        const poolSeen = m.peek(measureKey('gpu-busy-percent', `pool:${change.name}`)) !== undefined;
        m.lack({ code: 'idle-pods-unnamed', pool: change.name, dcgmOnNodes: poolSeen });
      }
      return [];
    }
    m.answer(id);
    return [];
  }
  return measurePods(result);
}

/**
 * Pods of the pool holding MIG instances, measured; records what is missing when MIG devices
 * are requested there but no instance series names a pod.
 */
function migPods(change: CapacityChange, m: Measured, mig: MigMeasures | null): MigPods {
  const found = migPodsOf(change.name, m);
  // Pods on instances without activity cannot be judged idle or busy: say what would tell.
  if (found.unmeasured.length > 0) m.lack(missingInstanceActivity({ kind: 'pool', name: change.name }));
  if (found.pods.length > 0 || found.unmeasured.length > 0 || mig === null || ![...mig.requested.values()].some((v) => v > 0)) return found;
  const id = migPodMeasureKey(change.name);
  const r = m.result(id);
  if (r?.status === 'missing' && r.reason !== 'nothing-there') m.answer(id);
  else {
    m.lack({ code: 'idle-mig-pods-unnamed', pool: change.name });
  }
  return found;
}

/**
 * Pods of the changed pool that no catalog workload names and that held GPUs idle over the window
 * (HELD_MOST above). Only pools: DCGM series carry a node, not a ClusterQueue, and nothing Kueue
 * exports maps a pod to its ClusterQueue. When DCGM names no pod while pods request GPUs there,
 * that is recorded as missing evidence rather than taken as "nothing idle". A pod holding MIG
 * instances is measured per instance, in GPU equivalents: its series in the whole-GPU answer
 * (an instance counted as a GPU, busy from a GPU_UTIL DCGM does not measure there) are dropped.
 */
export function idlePods(change: CapacityChange, catalog: readonly Workload[], m: Measured, policy: Policy): IdlePod[] {
  const mig = migMeasures(m, `pool:${change.name}`);
  const wholeRequested = (): number | null => {
    const requestsId = measureKey('gpu-requests', `pool:${change.name}`);
    const requests = m.peek(requestsId);
    // With MIG there, no nvidia.com/gpu request means no whole GPU requested, not an unknown.
    const none = m.missingBecause(requestsId) === 'nothing-there';
    if (requests === undefined) return mig !== null && none ? 0 : null;
    return maxOf(mig === null ? timeline(requests) : plus(timeline(requests), mig.singleSlices, -1));
  };
  const whole = wholeGpuPods(change, m, wholeRequested);
  if (whole === null) return [];
  const sliced = migPods(change, m, mig);
  const onSlices = new Set([...sliced.pods, ...sliced.unmeasured].map(podKey));
  return [...whole.filter((p) => !onSlices.has(podKey(p))), ...sliced.pods]
    .filter((p) => p.gpus > 0 && p.heldFraction > HELD_MOST && p.busyFraction < policy.idleBelow)
    .filter((p) => !catalog.some((w) => coveredBy(w, p.namespace, p.pod)))
    .sort(
      (a, b) => b.gpus - a.gpus || a.busyFraction - b.busyFraction || `${a.namespace}/${a.pod}`.localeCompare(`${b.namespace}/${b.pod}`),
    );
}
