import type { Evidence, MeasureKey, MigProfile, MigScope, MissingItem, ScopeId, TakenMeasurement } from '../domain/index.js';
import {
  measureKey,
  MIG_ACTIVITY,
  MIG_PROFILE_LABEL,
  MIG_REQUESTS,
  parseMigProfile,
  POD_MEASURE_LABEL,
  profileOfKueueResource,
  profileOfResource,
} from '../domain/index.js';
import type { Measured } from './measured.js';
import { hoursOf, stepOf, timeline, type Timeline } from './series.js';

type Labels = Readonly<Record<string, string>>;

/** A DCGM instance series' profile, read with the model it names. */
export function dcgmProfile(labels: Labels): MigProfile | null {
  const name = labels[MIG_PROFILE_LABEL];
  return name === undefined || name === '' ? null : parseMigProfile(name, labels['modelName']);
}

/** A kube-state-metrics MIG resource's profile; no model is known there. */
function ksmProfile(labels: Labels): MigProfile | null {
  const name = profileOfResource(labels['resource'] ?? '');
  return name === null ? null : parseMigProfile(name);
}

/** Profiles met while weighing, for the evidence line, and names that could not be read. */
export class ProfileLedger {
  readonly seen = new Map<string, MigProfile>();
  readonly unreadable = new Set<string>();

  weigh(p: MigProfile | null, raw: string): number | null {
    if (p === null) {
      this.unreadable.add(raw);
      return null;
    }
    this.seen.set(`${p.profile}/${p.slicesPerGpu}/${p.fromModel}`, p);
    return p.fraction;
  }

  /** How slices became GPUs, for the evidence of every number that rests on it. */
  evidence(window: string): Evidence | null {
    if (this.seen.size === 0) return null;
    const profiles = [...this.seen.values()].sort((a, b) => a.profile.localeCompare(b.profile));
    const names = [...new Set(profiles.map((p) => `${p.profile} = ${p.slices}/${p.slicesPerGpu} GPU`))];
    const assumed = profiles.some((p) => !p.fromModel);
    return {
      source: 'prometheus',
      // The conversion, stated in the reference itself (docs/json.md).
      ref:
        `MIG instances counted as whole-GPU equivalents: ${names.join(', ')} (` +
        (assumed
          ? 'compute slices of the profile over the slices of its GPU; where no model is named, 7 (A100, H100, H200, B200) is assumed, 4 for A30 profiles'
          : 'compute slices of the profile over the slices of the GPU model DCGM names') +
        ')',
      window,
    };
  }
}

/** The series of one `measure`, each weighed; series whose weight is unknown are left out. */
function weighed(a: TakenMeasurement | undefined, measure: string, weight: (l: Labels) => number | null): Timeline {
  const out: Timeline = new Map();
  if (a === undefined) return out;
  for (const s of a.series) {
    if (s.labels[POD_MEASURE_LABEL] !== measure) continue;
    const w = weight(s.labels);
    if (w === null) continue;
    for (const p of s.samples) out.set(p.t, (out.get(p.t) ?? 0) + p.v * w);
  }
  return out;
}

/** `a + b` at every time either has (absent counts as 0). */
export function plus(a: Timeline, b: Timeline, sign = 1): Timeline {
  const out: Timeline = new Map(a);
  for (const [t, v] of b) out.set(t, (out.get(t) ?? 0) + sign * v);
  return new Map([...out].sort((x, y) => x[0] - y[0]));
}

const anyAbove = (line: Timeline): boolean => [...line.values()].some((v) => v > 0);
const has = (a: TakenMeasurement | undefined, measure: string): boolean =>
  a !== undefined && a.series.some((s) => s.labels[POD_MEASURE_LABEL] === measure && s.samples.length > 0);

/**
 * One measure per instance profile, falling back to another where the first has no point
 * (SM activity, else GR-engine activity), weighed; `fellBack` tells whether the fallback was used.
 */
function preferred(
  a: TakenMeasurement | undefined,
  first: string,
  fallback: string,
  weight: (l: Labels) => number | null,
): { line: Timeline; fellBack: boolean; used: boolean } {
  const key = (l: Labels) => `${l[MIG_PROFILE_LABEL] ?? ''}\u0000${l['modelName'] ?? ''}`;
  const byKey = new Map<string, { first?: Timeline; fallback?: Timeline; w: number | null }>();
  for (const s of a?.series ?? []) {
    const m = s.labels[POD_MEASURE_LABEL];
    if (m !== first && m !== fallback) continue;
    const entry = byKey.get(key(s.labels)) ?? { w: weight(s.labels) };
    byKey.set(key(s.labels), entry);
    entry[m === first ? 'first' : 'fallback'] = new Map(s.samples.map((p) => [p.t, p.v]));
  }
  const line: Timeline = new Map();
  let fellBack = false;
  let used = false;
  for (const e of byKey.values()) {
    if (e.w === null) continue;
    const times = new Set([...(e.first?.keys() ?? []), ...(e.fallback?.keys() ?? [])]);
    for (const t of times) {
      const v = e.first?.get(t) ?? e.fallback?.get(t);
      if (v === undefined) continue;
      if (e.first?.get(t) === undefined) fellBack = true;
      used = true;
      line.set(t, (line.get(t) ?? 0) + v * e.w);
    }
  }
  return { line: new Map([...line].sort((x, y) => x[0] - y[0])), fellBack, used };
}

/** What the MIG queries of one scope say, in whole-GPU equivalents; see `migMeasures`. */
export interface MigMeasures {
  /** GPU equivalents requested through MIG devices: mixed-strategy resources and single-strategy slices. */
  requested: Timeline;
  /** Mixed-strategy MIG devices requested, each counted as one device whatever its size. */
  mixedDevices: Timeline;
  /** `nvidia.com/gpu` requested on single-strategy nodes: slices the whole-GPU request count took for GPUs. */
  singleSlices: Timeline;
  /** Pools: GPU equivalents allocatable as MIG devices, and the single-strategy slices among nvidia.com/gpu. */
  allocatable: Timeline;
  singleAllocatableSlices: Timeline;
  /** DCGM reports MIG instances in the scope. */
  instances: boolean;
  /** Instances: GR-engine activity × their share of a GPU, summed; null when DCGM exports none. */
  instanceBusy: Timeline | null;
  /** Instances: SM activity where exported, else GR-engine activity, weighed. */
  instanceCompute: { line: Timeline; fellBack: boolean; used: boolean };
  /** Null when DCGM exports the field for no instance. */
  instanceTensor: Timeline | null;
  instanceDram: Timeline | null;
  /** Whole GPUs (no instance), summed: GPU_UTIL ÷ 100, compute (SM else GR), tensor, dram. */
  wholeBusy: Timeline | null;
  wholeCompute: { line: Timeline; fellBack: boolean; used: boolean };
  wholeTensor: Timeline | null;
  wholeDram: Timeline | null;
  step: number;
  ledger: ProfileLedger;
  answers: TakenMeasurement[];
}

/** The answer of a MIG query; failures other than "nothing there" are kept for when MIG turns out present. */
function migAnswer(m: Measured, id: MeasureKey, failed: MeasureKey[]): TakenMeasurement | undefined {
  const r = m.result(id);
  if (r === undefined) return undefined;
  // Read without noting anything: whether MIG is there decides if the answer is used at all.
  if (r.status === 'measured') return r;
  if (r.reason === 'failed') failed.push(id);
  return undefined;
}

/**
 * When the MIG presence probe failed, the MIG queries were asked to find out instead; those of
 * them that failed too leave it unknown whether the scope has MIG devices, and the reader is told.
 */
function noteUnknownMig(m: Measured, failed: readonly MeasureKey[]): void {
  if (m.telemetry.migPresence !== 'failed') return;
  for (const id of failed) m.answer(id);
}

/**
 * The MIG side of a scope (`pool:<name>`, `workload:<name>`); null when neither DCGM nor
 * kube-state-metrics shows a MIG device there, so scopes without MIG keep the whole-GPU path.
 */
export function migMeasures(m: Measured, scopeId: ScopeId): MigMeasures | null {
  const failed: MeasureKey[] = [];
  const act = migAnswer(m, measureKey('mig-activity', scopeId), failed);
  const req = migAnswer(m, measureKey('mig-requests', scopeId), failed);
  const ledger = new ProfileLedger();
  const byDcgm = (l: Labels) => ledger.weigh(dcgmProfile(l), l[MIG_PROFILE_LABEL] ?? '');
  const byKsm = (l: Labels) => ledger.weigh(ksmProfile(l), l['resource'] ?? '');
  const one = () => 1;

  const slicesSeen = weighed(act, MIG_ACTIVITY.slices, one);
  const singleSlices = weighed(req, MIG_REQUESTS.singleRequested, one);
  const singleAllocatableSlices = weighed(req, MIG_REQUESTS.singleAllocatable, one);
  const mixedRequested = weighed(req, MIG_REQUESTS.requested, one);
  const mixedAllocatable = weighed(req, MIG_REQUESTS.allocatable, one);
  const present = [slicesSeen, singleSlices, singleAllocatableSlices, mixedRequested, mixedAllocatable].some(anyAbove);
  if (!present) {
    noteUnknownMig(m, failed);
    return null;
  }
  for (const id of failed) m.answer(id);
  for (const a of [act, req]) if (a !== undefined) m.peek(a.key);

  const wholeOf = (measure: string) => (has(act, measure) ? weighed(act, measure, one) : null);
  const answers = [act, req].filter((a): a is TakenMeasurement => a !== undefined);
  return {
    requested: plus(weighed(req, MIG_REQUESTS.requested, byKsm), weighed(req, MIG_REQUESTS.singleRequested, byDcgm)),
    mixedDevices: mixedRequested,
    singleSlices,
    allocatable: plus(weighed(req, MIG_REQUESTS.allocatable, byKsm), weighed(req, MIG_REQUESTS.singleAllocatable, byDcgm)),
    singleAllocatableSlices,
    instances: anyAbove(slicesSeen),
    instanceBusy: has(act, MIG_ACTIVITY.gr) ? weighed(act, MIG_ACTIVITY.gr, byDcgm) : null,
    instanceCompute: preferred(act, MIG_ACTIVITY.sm, MIG_ACTIVITY.gr, byDcgm),
    instanceTensor: has(act, MIG_ACTIVITY.tensor) ? weighed(act, MIG_ACTIVITY.tensor, byDcgm) : null,
    instanceDram: has(act, MIG_ACTIVITY.dram) ? weighed(act, MIG_ACTIVITY.dram, byDcgm) : null,
    wholeBusy: wholeOf(MIG_ACTIVITY.wholeBusy),
    wholeCompute: preferred(act, MIG_ACTIVITY.wholeSm, MIG_ACTIVITY.wholeGr, one),
    wholeTensor: wholeOf(MIG_ACTIVITY.wholeTensor),
    wholeDram: wholeOf(MIG_ACTIVITY.wholeDram),
    step: answers.map((a) => stepOf(a)).find((s) => s > 0) ?? 0,
    ledger,
    answers,
  };
}

/** What the review lacks when MIG devices are requested but DCGM shows no instance activity. */
export function missingInstanceActivity(scope: MigScope): MissingItem {
  return { code: 'mig-instance-activity', scope };
}

/** Evidence of a MIG-aware number: the MIG answers and how slices became GPUs. */
export function migEvidence(mig: MigMeasures, window: string): Evidence[] {
  const conversion = mig.ledger.evidence(window);
  return [...mig.answers.map((a) => a.evidence), ...(conversion ? [conversion] : [])];
}

/**
 * GPU equivalents a workload requested over time when it uses MIG devices: its whole GPUs
 * (single-strategy slices taken out) plus its instances' shares; null when it uses none, so
 * callers keep the nvidia.com/gpu count as it is.
 */
export function migRequestedLine(
  m: Measured,
  workload: string,
  requests: TakenMeasurement | undefined,
): { line: Timeline; step: number; evidence: Evidence[] } | null {
  const mig = migMeasures(m, `workload:${workload}`);
  if (mig === null) return null;
  const whole = requests === undefined ? new Map<number, number>() : timeline(requests);
  const step = requests === undefined ? mig.step : stepOf(requests, whole);
  return { line: plus(plus(whole, mig.singleSlices, -1), mig.requested), step, evidence: migEvidence(mig, m.window) };
}

/**
 * GPU-hours of MIG devices a ClusterQueue admitted over the window, each as its share of a GPU;
 * null when it admitted none, so a queue of whole GPUs keeps its ladder as it is.
 */
export function queueMigAllocated(m: Measured, queue: string): { hours: number; evidence: Evidence[] } | null {
  const id = measureKey('queue-mig-usage', `queue:${queue}`);
  const failed: MeasureKey[] = [];
  const a = migAnswer(m, id, failed);
  if (a === undefined) {
    noteUnknownMig(m, failed);
    return null;
  }
  const ledger = new ProfileLedger();
  const line: Timeline = new Map();
  let any = false;
  for (const s of a.series) {
    const raw = s.labels['resource'] ?? '';
    const name = profileOfKueueResource(raw);
    const w = ledger.weigh(name === null ? null : parseMigProfile(name), raw);
    if (w === null) continue;
    for (const p of s.samples) {
      if (p.v > 0) any = true;
      line.set(p.t, (line.get(p.t) ?? 0) + p.v * w);
    }
  }
  if (!any) return null;
  m.peek(id);
  const conversion = ledger.evidence(m.window);
  return { hours: hoursOf(line, stepOf(a)), evidence: [a.evidence, ...(conversion ? [conversion] : [])] };
}
