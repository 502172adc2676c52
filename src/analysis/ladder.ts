import type {
  CapacityChange,
  Evidence,
  LadderFlag,
  MeasureKey,
  Policy,
  ScopeId,
  TakenMeasurement,
  UtilisationLadder,
  Workload,
} from '../domain/index.js';
import { FIELD_LABEL, measureKey, SM_FIELDS } from '../domain/index.js';
import type { Measured } from './measured.js';
import { migMeasures, queueMigAllocated } from './mig.js';
import { migRungs } from './mig-ladder.js';
import { hoursOf, product, scalarOf, stepOf, timeline, type Timeline } from './series.js';

/**
 * Memory-bound: the GPU is busy, but its memory bandwidth is more active than its SMs — faster
 * kernels or larger batches raise what each GPU does (more GPUs still scale data-parallel work).
 * Thresholds follow NVIDIA's profiling guidance loosely: DRAM activity above 40% is heavy, and
 * well above SM activity means the SMs wait on it.
 */
const MEMORY_BOUND = { busyAtLeast: 0.25, dramAtLeast: 0.4, dramOverSm: 1.5 } as const;

type ComputeField = UtilisationLadder['computeField'];

const scale = (line: Timeline, by: number): Timeline => new Map([...line].map(([t, v]) => [t, v * by]));

/** The DCGM field that answered `smActivity` most of the time. */
function computeFieldOf(answer: TakenMeasurement): ComputeField {
  const counts = new Map<string, number>();
  for (const s of answer.series) {
    const f = s.labels[FIELD_LABEL];
    if (f !== undefined) counts.set(f, (counts.get(f) ?? 0) + s.samples.length);
  }
  const [top] = [...counts].sort((a, b) => b[1] - a[1]);
  return top !== undefined && (SM_FIELDS as readonly string[]).includes(top[0]) ? (top[0] as ComputeField) : null;
}

interface Rungs {
  allocated: number | null;
  busy: number | null;
  computing: number | null;
  computeField: ComputeField;
  tensor: number | null;
  dram: number | null;
  evidence: Evidence[];
}

/**
 * GPU-hours per rung from per-GPU means (DCGM `avg`) weighted by the GPUs counted at each time:
 * `count` is what the scope holds (its requests) or has (a pool's allocatable GPUs).
 */
function rungs(m: Measured, scopeId: ScopeId, allocatedId: MeasureKey, countId: MeasureKey, withTensor: boolean): Rungs {
  // Instances and whole GPUs differ in size: a scope with MIG devices is measured per instance.
  const mig = migMeasures(m, scopeId);
  if (mig !== null) return migRungs(m, scopeId, allocatedId, mig, withTensor);
  const evidence: Evidence[] = [];
  const use = (id: MeasureKey, record = true): TakenMeasurement | undefined => {
    const a = record ? m.answer(id) : m.peek(id);
    if (a !== undefined) evidence.push(a.evidence);
    return a;
  };
  const allocatedAnswer = use(allocatedId);
  const countAnswer = countId === allocatedId ? allocatedAnswer : use(countId);
  const count = countAnswer ? timeline(countAnswer) : null;
  const step = countAnswer ? stepOf(countAnswer, count ?? undefined) : 0;
  const weighted = (id: MeasureKey, unit: number, record = true): { hours: number | null; answer?: TakenMeasurement } => {
    const a = use(id, record);
    if (a === undefined || count === null) return { hours: null };
    return { hours: hoursOf(product(scale(timeline(a), unit), count), step), answer: a };
  };
  const busy = weighted(measureKey('gpu-busy-percent', scopeId), 1 / 100);
  const sm = weighted(measureKey('sm-activity', scopeId), 1);
  const tensor = withTensor ? weighted(measureKey('tensor-activity', scopeId), 1) : { hours: null };
  const dram = withTensor ? weighted(measureKey('dram-activity', scopeId), 1, false) : { hours: null };
  const allocatedLine = allocatedAnswer ? timeline(allocatedAnswer) : null;
  return {
    allocated: allocatedAnswer && allocatedLine ? hoursOf(allocatedLine, stepOf(allocatedAnswer, allocatedLine)) : null,
    busy: busy.hours,
    computing: sm.hours,
    computeField: sm.answer ? computeFieldOf(sm.answer) : null,
    tensor: tensor.hours,
    dram: dram.hours,
    evidence,
  };
}

function flagsOf(name: string, r: Pick<Rungs, 'allocated' | 'busy' | 'computing' | 'dram'>, policy: Policy): LadderFlag[] {
  const flags: LadderFlag[] = [];
  if (r.allocated === null || r.allocated <= 0 || r.busy === null) return flags;
  const busy = r.busy / r.allocated;
  if (busy < policy.idleBelow) {
    flags.push({ kind: 'idle', name, busyFraction: busy, allocatedGpuHours: r.allocated, idleBelow: policy.idleBelow });
  }
  if (r.computing !== null && r.dram !== null) {
    const sm = r.computing / r.allocated;
    const dram = r.dram / r.allocated;
    if (busy >= MEMORY_BOUND.busyAtLeast && dram >= MEMORY_BOUND.dramAtLeast && dram > MEMORY_BOUND.dramOverSm * sm) {
      flags.push({ kind: 'memory-bound', name, busyFraction: busy, memoryFraction: dram, smFraction: sm });
    }
  }
  return flags;
}

function ladder(
  scope: UtilisationLadder['scope'],
  name: string,
  r: Rungs,
  outcomes: { value: number | null; evidence: Evidence[] },
  policy: Policy,
): UtilisationLadder {
  const busyFraction = r.allocated !== null && r.allocated > 0 && r.busy !== null ? r.busy / r.allocated : null;
  return {
    scope,
    name,
    allocatedGpuHours: r.allocated,
    busyGpuHours: r.busy,
    computingGpuHours: r.computing,
    computeField: r.computeField,
    tensorGpuHours: r.tensor,
    busyFraction,
    verifiedOutcomes: outcomes.value,
    outcomesPerGpuHour: outcomes.value !== null && r.allocated !== null && r.allocated > 0 ? outcomes.value / r.allocated : null,
    flags: flagsOf(`${scope} ${name}`, r, policy),
    evidence: [...r.evidence, ...outcomes.evidence],
  };
}

const PROM_DURATION = /\[((?:\d+[smhdwy])+)(?::[^\]]*)?\]/g;
const UNIT_MINUTES: Record<string, number> = { s: 1 / 60, m: 1, h: 60, d: 1_440, w: 10_080, y: 525_600 };

/** The widest range selector of a PromQL expression (`[1d]` → 1440), in minutes; null without one. */
function queryRangeMinutes(promql: string): number | null {
  let widest: number | null = null;
  for (const [, text] of promql.matchAll(PROM_DURATION)) {
    const minutes = [...(text ?? '').matchAll(/(\d+)([smhdwy])/g)].reduce(
      (sum, [, n, u]) => sum + Number(n) * (UNIT_MINUTES[u ?? 'm'] ?? 0),
      0,
    );
    widest = widest === null ? minutes : Math.max(widest, minutes);
  }
  return widest;
}

/**
 * Verified outcomes of one workload over the review's window; null when it has none documented
 * or answered. The catalog's query counts over its own range (`increase(…[1d])`): its answer is
 * scaled to the window, so outcomes and GPU-hours cover the same time.
 */
export function verifiedOutcomes(w: Workload, m: Measured): { value: number | null; evidence: Evidence[] } {
  if (w.outcomes === undefined) return { value: null, evidence: [] };
  const a = m.answer(measureKey('verified-outcomes', `workload:${w.name}`));
  if (a === undefined) return { value: null, evidence: [] };
  const value = scalarOf(a);
  const range = queryRangeMinutes(w.outcomes.verified);
  const window = m.telemetry.windowMinutes;
  if (value === null || range === null || range <= 0 || range === window) return { value, evidence: [a.evidence] };
  const scaled = (value * window) / range;
  return { value: scaled, evidence: [{ ...a.evidence, ref: `${a.evidence.ref} (over ${range}m, scaled to the ${window}m window)` }] };
}

/** The ladder of one workload with a selector; null without one (nothing to measure it by). */
export function workloadLadder(w: Workload, m: Measured, policy: Policy): UtilisationLadder | null {
  if (w.selector === undefined || Object.keys(w.selector).length === 0) return null;
  const id: ScopeId = `workload:${w.name}`;
  return ladder(
    'workload',
    w.name,
    rungs(m, id, measureKey('gpu-requests', id), measureKey('gpu-requests', id), true),
    verifiedOutcomes(w, m),
    policy,
  );
}

function sumOutcomes(ladders: readonly UtilisationLadder[]): { value: number | null; evidence: Evidence[] } {
  const known = ladders.filter((l) => l.verifiedOutcomes !== null);
  return { value: known.length === 0 ? null : known.reduce((s, l) => s + (l.verifiedOutcomes ?? 0), 0), evidence: [] };
}

/**
 * The changed pool or queue. A pool is measured on its nodes (DCGM means over every GPU there,
 * weighted by the allocatable count); a queue has no DCGM labels, so its busy and computing
 * rungs add up its linked workloads' — known only when every linked workload was measured.
 */
export function capacityLadder(
  change: CapacityChange,
  m: Measured,
  linked: readonly UtilisationLadder[],
  linkedCount: number,
  policy: Policy,
): UtilisationLadder | null {
  if (change.kind === 'kueue-cluster-queue') {
    const id: ScopeId = `queue:${change.name}`;
    // MIG devices admitted count as their share of a GPU; a queue of MIG devices alone has no GPU usage.
    const mig = queueMigAllocated(m, change.name);
    const usage = mig === null ? m.answer(measureKey('queue-usage', id)) : m.peek(measureKey('queue-usage', id));
    const line = usage ? timeline(usage) : null;
    const gpuHours = usage && line ? hoursOf(line, stepOf(usage, line)) : null;
    const all = linked.length === linkedCount && linked.length > 0;
    const add = (pick: (l: UtilisationLadder) => number | null): number | null => {
      if (!all) return null;
      const xs = linked.map(pick);
      return xs.some((x) => x === null) ? null : xs.reduce<number>((s, x) => s + (x ?? 0), 0);
    };
    const fields = new Set(linked.map((l) => l.computeField));
    const r: Rungs = {
      allocated: mig === null ? gpuHours : (gpuHours ?? 0) + mig.hours,
      busy: add((l) => l.busyGpuHours),
      computing: add((l) => l.computingGpuHours),
      computeField: fields.size === 1 ? ([...fields][0] ?? null) : null,
      tensor: add((l) => l.tensorGpuHours),
      dram: null,
      evidence: [...(usage ? [usage.evidence] : []), ...(mig?.evidence ?? [])],
    };
    return ladder('queue', change.name, r, sumOutcomes(linked), policy);
  }
  if (change.kind === 'gpu-sharing') return null;
  const id: ScopeId = `pool:${change.name}`;
  if (m.result(measureKey('gpu-allocatable', id)) === undefined) return null;
  const r = rungs(m, id, measureKey('gpu-requests', id), measureKey('gpu-allocatable', id), false);
  return ladder('pool', change.name, r, sumOutcomes(linked), policy);
}
