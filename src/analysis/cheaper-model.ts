import type {
  Alternative,
  CapacityChange,
  CostNote,
  Evidence,
  FindingDetail,
  InferenceWorkload,
  OutcomeCost,
  Policy,
  Shortfall,
  TakenMeasurement,
} from '../domain/index.js';
import { measureKey, pricePerGpuHour } from '../domain/index.js';
import { verifiedOutcomes } from './ladder.js';
import type { Measured } from './measured.js';
import { migRequestedLine } from './mig.js';
import { hoursOf, scalarOf, stepOf, timeline } from './series.js';
import { loadTestRate, replicasFor } from './serving.js';

export interface CheaperOption {
  cost: OutcomeCost;
  /** GPUs of the change's type it frees against the service's current GPUs. */
  gpusFreed: number;
  /** Runs on the change's GPU type: only then does it lower this pool's need. */
  sameType: boolean;
}

interface Money {
  usd: number | null;
  evidence: Evidence[];
  note: CostNote;
}

/**
 * What the service cost over the window as it ran, idle time and retries included: OpenCost's
 * GPU cost for its namespace when OpenCost answered, else the GPU-hours its pods requested times
 * the price per GPU-hour (policy `prices`, then the list price of the change's GPU model).
 */
function currentCost(w: InferenceWorkload, change: CapacityChange, m: Measured, policy: Policy): Money & { gpus: number | null } {
  const ns = w.selector?.['namespace'];
  const alloc = m.telemetry.cost;
  const requestsId = measureKey('gpu-requests', `workload:${w.name}`);
  // A service on MIG devices holds their share of a GPU, and costs that share of its price.
  let migMemo: ReturnType<typeof migRequestedLine> | undefined;
  const migLine = () => (migMemo === undefined ? (migMemo = migRequestedLine(m, w.name, m.peek(requestsId))) : migMemo);
  const gpusNow = (): number | null => {
    const a = m.peek(requestsId);
    const mig = migLine();
    if (mig === null && a === undefined) return null;
    const line = mig?.line ?? timeline(a as TakenMeasurement);
    return line.size === 0 ? null : Math.max(...line.values());
  };
  if (alloc?.status === 'measured' && ns !== undefined) {
    const row = alloc.namespaces.find((a) => a.namespace === ns);
    if (row && row.gpuCost !== null) {
      return {
        usd: row.gpuCost,
        gpus: gpusNow(),
        note: { code: 'opencost' },
        evidence: [{ source: 'opencost', ref: `allocation aggregate=namespace ${ns}: gpuCost`, window: m.window }],
      };
    }
  }
  // OpenCost was configured but gave no cost: the catalog price stands in, and the review says so
  // (the change's own missing evidence, as the report lists only what each change's levers lacked).
  if (alloc?.status === 'missing') {
    m.lack({ code: 'opencost-unanswered', message: alloc.message });
  } else if (alloc?.status === 'measured' && ns !== undefined) {
    m.lack({ code: 'opencost-no-cost', namespace: ns, target: change.name });
  }
  const price = pricePerGpuHour(change.gpuModel, policy.prices);
  if (price === null) {
    m.lack({ code: 'gpu-price', gpuModel: change.gpuModel, target: change.name });
    return { usd: null, gpus: gpusNow(), note: { code: 'no-price' }, evidence: [] };
  }
  const mig = migLine();
  if (mig !== null) {
    const gpuHours = hoursOf(mig.line, mig.step);
    const a = m.peek(requestsId);
    return {
      usd: gpuHours * price,
      gpus: gpusNow(),
      note: { code: 'requested-gpu-hours', gpuHours, usdPerGpuHour: price, mig: true },
      evidence: [...(a ? [a.evidence] : []), ...mig.evidence, { source: 'policy', ref: `price of ${change.gpuModel}: $${price}/GPU-hour` }],
    };
  }
  const a = m.answer(requestsId);
  if (a === undefined) return { usd: null, gpus: null, note: { code: 'no-gpu-hours' }, evidence: [] };
  const line = timeline(a);
  const gpuHours = hoursOf(line, stepOf(a, line));
  return {
    usd: gpuHours * price,
    gpus: gpusNow(),
    note: { code: 'requested-gpu-hours', gpuHours, usdPerGpuHour: price, mig: false },
    evidence: [a.evidence, { source: 'policy', ref: `price of ${change.gpuModel}: $${price}/GPU-hour` }],
  };
}

const perOutcome = (usd: number | null, outcomes: number | null): number | null =>
  usd === null || outcomes === null || outcomes <= 0 ? null : usd / outcomes;

/**
 * Outcomes the alternative would have verified over the same traffic: all outcomes (or the
 * current verified ones over the current quality) times its quality, the pass rate its
 * evaluation measured.
 */
function alternativeOutcomes(w: InferenceWorkload, alt: Alternative, verified: number | null, m: Measured): number | null {
  if (alt.quality === undefined) return null;
  const total = w.outcomes?.total !== undefined ? m.answer(measureKey('total-outcomes', `workload:${w.name}`)) : undefined;
  const all = total ? scalarOf(total) : verified !== null && w.quality !== undefined && w.quality > 0 ? verified / w.quality : null;
  return all === null ? null : all * alt.quality;
}

function alternative(
  w: InferenceWorkload,
  alt: Alternative,
  change: CapacityChange,
  peak: number | null,
  currentGpus: number,
  verified: number | null,
  m: Measured,
  policy: Policy,
): CheaperOption {
  const threshold = w.qualityThreshold ?? w.outcomes?.qualityThreshold;
  const gpuType = alt.gpuType ?? change.gpuModel;
  const lt = loadTestRate({ workload: w.name, alternative: alt.name }, alt.loadTest, w.slo, m);
  const replicas = lt.row !== null && peak !== null ? replicasFor(peak, w.headroom ?? policy.headroom, lt.row.rate) : null;
  const gpus = replicas === null ? null : replicas * (alt.gpusPerReplica ?? w.gpusPerReplica);
  const price = pricePerGpuHour(gpuType, policy.prices);
  const hours = m.telemetry.windowMinutes / 60;
  const usd = gpus === null || price === null ? null : gpus * hours * price;
  const outcomes = alternativeOutcomes(w, alt, verified, m);
  const why: Shortfall[] = [];
  if (threshold === undefined) {
    why.push({ code: 'no-quality-threshold' });
    m.lack({ code: 'quality-threshold', workload: w.name });
  } else if (alt.quality === undefined) {
    why.push({ code: 'no-quality' });
    m.lack({ code: 'alternative-quality', workload: w.name, alternative: alt.name });
  } else if (alt.quality < threshold) {
    why.push({ code: 'quality-under-threshold', quality: alt.quality, threshold });
  }
  if (lt.row === null) why.push({ code: 'load-test-misses-slo' });
  if (peak === null) why.push({ code: 'no-peak' });
  if (price === null) why.push({ code: 'no-price', gpuType });
  const sameType = alt.gpuType === undefined || alt.gpuType === change.gpuModel;
  const qualifies = why.length === 0;
  const cost: OutcomeCost = {
    workload: w.name,
    option: alt.name,
    gpuType,
    gpus,
    usdOverWindow: usd,
    verifiedOutcomes: outcomes,
    usdPerVerifiedOutcome: perOutcome(usd, outcomes),
    qualifies,
    note: qualifies ? { code: 'alternative-sized', replicas, sameType, gpuType } : { code: 'alternative-short', shortfalls: why },
    evidence: [...lt.evidence, ...(price === null ? [] : [{ source: 'policy' as const, ref: `price of ${gpuType}: $${price}/GPU-hour` }])],
  };
  return { cost, gpusFreed: gpus === null ? 0 : Math.max(0, sameType ? currentGpus - gpus : currentGpus), sameType };
}

/**
 * Cost per verified outcome of the service as it runs and of each alternative. An alternative
 * counts only if it meets the quality threshold and its load test sizes it for the observed peak
 * within the SLO, and is cheaper per verified outcome than the current one.
 */
export function cheaperModels(
  w: InferenceWorkload,
  change: CapacityChange,
  peak: number | null,
  m: Measured,
  policy: Policy,
): { costs: OutcomeCost[]; best: CheaperOption | null } {
  if (w.alternatives.length === 0) return { costs: [], best: null };
  const verified = verifiedOutcomes(w, m);
  if (w.outcomes === undefined) {
    m.lack({ code: 'verified-outcomes', workload: w.name });
  }
  const money = currentCost(w, change, m, policy);
  const currentGpus = money.gpus ?? w.replicas * w.gpusPerReplica;
  const current: OutcomeCost = {
    workload: w.name,
    option: 'current',
    gpuType: change.gpuModel,
    gpus: currentGpus,
    usdOverWindow: money.usd,
    verifiedOutcomes: verified.value,
    usdPerVerifiedOutcome: perOutcome(money.usd, verified.value),
    qualifies: true,
    note: money.note,
    evidence: [...money.evidence, ...verified.evidence],
  };
  const options = w.alternatives.map((a) => alternative(w, a, change, peak, currentGpus, verified.value, m, policy));
  const now = current.usdPerVerifiedOutcome;
  let best: CheaperOption | null = null;
  for (const o of options) {
    const c = o.cost.usdPerVerifiedOutcome;
    if (!o.cost.qualifies || c === null || now === null || c >= now) continue;
    if (best === null || c < (best.cost.usdPerVerifiedOutcome ?? Number.POSITIVE_INFINITY)) best = o;
  }
  return { costs: [current, ...options.map((o) => o.cost)], best };
}

export function cheaperDetail(w: string, current: OutcomeCost | undefined, best: CheaperOption): FindingDetail {
  const c = best.cost;
  return {
    code: 'cheaper-model',
    workload: w,
    option: c.option,
    usdPerVerifiedOutcome: c.usdPerVerifiedOutcome,
    currentUsdPerVerifiedOutcome: current?.usdPerVerifiedOutcome ?? null,
    gpus: c.gpus,
    gpuType: c.gpuType,
    sameType: best.sameType,
    gpusFreed: best.gpusFreed,
  };
}
