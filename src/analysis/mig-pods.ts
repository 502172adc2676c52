import type { IdlePod, MeasureKey, TakenMeasurement } from '../domain/index.js';
import { measureKey, MIG_POD_MEASURES, MIG_PROFILE_LABEL, POD_MEASURE_LABEL } from '../domain/index.js';
import type { Measured } from './measured.js';
import { ProfileLedger, dcgmProfile } from './mig.js';
import { holding, stepOf, timeline, type Timeline } from './series.js';

export const migPodMeasureKey = (pool: string): MeasureKey => measureKey('mig-pods', `pool:${pool}`);

interface MigPodLines {
  namespace: string;
  pod: string;
  /** Whole-GPU equivalents held, and busy (GR-engine activity × share), over time. */
  held: Timeline;
  busy: Timeline;
  /** Instances held per profile, over time. */
  slices: Map<string, Timeline>;
  /** DCGM reported GR-engine activity for its instances. */
  measured: boolean;
}

/** Pods holding MIG instances: measured, and those whose instances report no activity to judge them by. */
export interface MigPods {
  pods: IdlePod[];
  unmeasured: { namespace: string; pod: string }[];
}

const add = (line: Timeline, t: number, v: number) => line.set(t, (line.get(t) ?? 0) + v);

/**
 * Measures every pod holding MIG instances, as `measurePods` does for whole GPUs: what it held
 * at the end of the window in GPU equivalents (never rounded to a whole GPU), the share of the
 * window it held any, and busy over held, each instance weighed by its share of a GPU.
 */
export function measureMigPods(a: TakenMeasurement, window: string): MigPods {
  const ledger = new ProfileLedger();
  const pods = new Map<string, MigPodLines>();
  for (const s of a.series) {
    const measure = s.labels[POD_MEASURE_LABEL];
    const pod = s.labels['pod'] ?? '';
    if (pod === '' || (measure !== MIG_POD_MEASURES.slices && measure !== MIG_POD_MEASURES.busy)) continue;
    const profile = s.labels[MIG_PROFILE_LABEL] ?? '';
    const w = ledger.weigh(dcgmProfile(s.labels), profile);
    if (w === null) continue;
    const namespace = s.labels['namespace'] ?? '';
    const key = `${namespace}\u0000${pod}`;
    const p: MigPodLines = pods.get(key) ?? { namespace, pod, held: new Map(), busy: new Map(), slices: new Map(), measured: false };
    if (measure === MIG_POD_MEASURES.busy) p.measured = true;
    pods.set(key, p);
    const count = p.slices.get(profile) ?? new Map<number, number>();
    if (measure === MIG_POD_MEASURES.slices) p.slices.set(profile, count);
    for (const x of s.samples) {
      if (measure === MIG_POD_MEASURES.busy) add(p.busy, x.t, x.v * w);
      else {
        add(p.held, x.t, x.v * w);
        add(count, x.t, x.v);
      }
    }
  }
  const line = timeline(a);
  if (line.size === 0) return { pods: [], unmeasured: [] };
  const last = Math.max(...line.keys());
  const step = stepOf(a, line);
  const windowSeconds = a.windowMinutes * 60;
  const conversion = ledger.evidence(window);
  const out: IdlePod[] = [];
  const unmeasured: MigPods['unmeasured'] = [];
  for (const p of pods.values()) {
    if (!p.measured) {
      unmeasured.push({ namespace: p.namespace, pod: p.pod });
      continue;
    }
    const { points: heldPoints, gpus: heldSum, busy: busySum } = holding(p.held, p.busy);
    if (heldSum <= 0) continue;
    const slices = [...p.slices]
      .map(([profile, counts]) => ({ profile, count: Math.round(counts.get(last) ?? 0) }))
      .filter((x) => x.count > 0)
      .sort((x, y) => x.profile.localeCompare(y.profile));
    out.push({
      namespace: p.namespace,
      pod: p.pod,
      gpus: p.held.get(last) ?? 0,
      busyFraction: busySum / heldSum,
      heldFraction: windowSeconds > 0 ? Math.min(1, (heldPoints * step) / windowSeconds) : 0,
      slices,
      evidence: [a.evidence, ...(conversion ? [conversion] : [])],
    });
  }
  return { pods: out, unmeasured };
}

/** The pool's pods holding MIG instances, measured; empty when the query found none or did not answer. */
export function migPodsOf(pool: string, m: Measured): MigPods {
  const id = migPodMeasureKey(pool);
  const r = m.result(id);
  if (r === undefined || r.status !== 'measured') return { pods: [], unmeasured: [] };
  const a = m.peek(id);
  return a === undefined ? { pods: [], unmeasured: [] } : measureMigPods(a, m.window);
}
