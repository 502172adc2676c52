import type {
  Evidence,
  InferenceWorkload,
  LoadTestRow,
  MissingEvidence,
  Owner,
  Policy,
  ScopeId,
  ServingCapacity,
  ServingLimitStats,
  ServingSize,
  Slo,
} from '../domain/index.js';
import { measureKey } from '../domain/index.js';
import type { Measured } from './measured.js';
import { maxOf, scalarOf, timeline, type Timeline } from './series.js';
import { itemAt } from '../util/indexed.js';

/** KV cache this full while requests wait means memory, not batch slots, holds throughput back. */
const KV_NEAR_FULL = 0.9;
/**
 * Running requests within this share of the window's highest count while others wait: a fixed
 * cap. Judged on the median over the samples where requests waited, since scrapes read the running
 * and waiting gauges apart and a few samples below the cap are noise, not room.
 */
const AT_CAP = 0.9;
/** Fewer samples with requests waiting than this say nothing about what holds them. */
const MIN_QUEUED_SAMPLES = 2;

/** Whether one load-test step meets every SLO the catalog states; an unreported figure cannot prove it. */
export function meetsSlo(row: LoadTestRow, slo: Slo): boolean {
  if (row.p95E2eMs === null || row.p95E2eMs > slo.p95LatencyMs) return false;
  if (slo.ttftP95Ms !== undefined && (row.ttftP95Ms === null || row.ttftP95Ms > slo.ttftP95Ms)) return false;
  if (slo.errorRate !== undefined && (row.errorRate === null || row.errorRate > slo.errorRate)) return false;
  return true;
}

/** The highest measured rate that meets every SLO; null when no step does. */
export function sustainableRow(rows: readonly LoadTestRow[], slo: Slo): LoadTestRow | null {
  let best: LoadTestRow | null = null;
  for (const r of rows) if (meetsSlo(r, slo) && r.rate > 0 && (best === null || r.rate > best.rate)) best = r;
  return best;
}

/** ceil(peak × (1 + headroom) ÷ rate), at least one replica. */
export function replicasFor(peakRate: number, headroom: number, ratePerReplica: number): number {
  return Math.max(1, Math.ceil((peakRate * (1 + headroom)) / ratePerReplica - 1e-9));
}

export interface LimitDiagnosis {
  limit: 'batching' | 'memory' | null;
  /** The statistics the diagnosis rests on, over the samples where requests waited; null when none did. Medians, not extremes: one noisy sample neither makes nor defeats a diagnosis. */
  stats: ServingLimitStats | null;
}

const NO_LIMIT: LimitDiagnosis = { limit: null, stats: null };

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (i: number) => itemAt(sorted, i, 'median-of-a-list-not-empty');
  return sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/**
 * What holds a vLLM service back when requests queue. Batching: requests wait while the KV cache
 * has room and the running count sits at its cap (`--max-num-seqs`). Memory: requests wait with
 * the KV cache near full and the scheduler preempting. KV-cache usage is memory occupied, not
 * capacity, so only the two together with waiting requests say anything. Both are judged on the
 * medians over the samples where requests waited (see LimitStats).
 */
export function diagnoseLimit(running: Timeline, waiting: Timeline, kv: Timeline, preemptions: number | null): LimitDiagnosis {
  const queued = [...waiting].filter(([, v]) => v > 0).map(([t]) => t);
  const at = (line: Timeline) => queued.flatMap((t) => (line.has(t) ? [line.get(t) as number] : []));
  const [kvQueued, runQueued] = [at(kv), at(running)];
  const cap = maxOf(running);
  const kvMedian = median(kvQueued);
  const runningMedian = median(runQueued);
  if (Math.min(kvQueued.length, runQueued.length) < MIN_QUEUED_SAMPLES || cap === null || kvMedian === null || runningMedian === null) {
    return NO_LIMIT;
  }
  const stats: ServingLimitStats = {
    queuedSamples: Math.min(kvQueued.length, runQueued.length),
    runningMedian,
    runningCap: cap,
    kvMedian,
    kvMax: Math.max(...kvQueued),
    preemptions,
  };
  if (kvMedian >= KV_NEAR_FULL && preemptions !== null && preemptions > 0) return { limit: 'memory', stats };
  if (kvMedian < KV_NEAR_FULL && runningMedian >= AT_CAP * cap) return { limit: 'batching', stats };
  return { ...NO_LIMIT, stats };
}

function diagnose(w: InferenceWorkload, m: Measured): { d: LimitDiagnosis; evidence: Evidence[] } {
  const id: ScopeId = `workload:${w.name}`;
  const [running, waiting, kv] = [
    m.answer(measureKey('vllm-running', id)),
    m.answer(measureKey('vllm-waiting', id)),
    m.answer(measureKey('vllm-kv-cache', id)),
  ];
  const pre = m.answer(measureKey('vllm-preemptions', id));
  if (!running || !waiting || !kv) return { d: NO_LIMIT, evidence: [] };
  const d = diagnoseLimit(timeline(running), timeline(waiting), timeline(kv), pre ? scalarOf(pre) : null);
  const used = d.limit === null ? [] : [running, waiting, kv, ...(pre ? [pre] : [])];
  return { d, evidence: used.map((a) => a.evidence) };
}

/** The highest request rate the service carried over the window; null when unmeasured. */
function observedPeak(w: InferenceWorkload, m: Measured): { rate: number | null; evidence: Evidence[] } {
  if (w.selector === undefined || Object.keys(w.selector).length === 0) {
    m.lack({ code: 'selector-for-request-rate', workload: w.name });
    return { rate: null, evidence: [] };
  }
  const a = m.answer(measureKey('request-rate', `workload:${w.name}`));
  return a === undefined ? { rate: null, evidence: [] } : { rate: maxOf(timeline(a)), evidence: [a.evidence] };
}

/** The sustainable rate per replica from a load test named by the catalog, recording what is missing. */
export function loadTestRate(
  owner: Owner,
  path: string | undefined,
  slo: Slo | undefined,
  m: Measured,
): { row: LoadTestRow | null; evidence: Evidence[] } {
  if (slo === undefined) {
    m.lack({ code: 'slo', owner });
    return { row: null, evidence: [] };
  }
  if (path === undefined) {
    m.lack({ code: 'load-test', owner });
    return { row: null, evidence: [] };
  }
  const lt = m.loadTest(path);
  if (lt === undefined || !lt.ok) {
    m.lack({ code: 'load-test-unread', path, problem: lt?.error ?? null });
    return { row: null, evidence: [] };
  }
  const row = sustainableRow(lt.value.rows, slo);
  return {
    row,
    evidence: [{ source: 'load-test', ref: row === null ? `${path}: no step meets the SLO` : `${path} (${row.label}: ${row.rate} req/s)` }],
  };
}

/**
 * A load test none of whose steps meets the SLO sizes nothing: the service stays at its declared
 * replicas, which the test itself does not support. The reader learns what the slowest step
 * measured and what would settle it.
 */
function noStepMeetsSlo(owner: Owner, path: string, rows: readonly LoadTestRow[], slo: Slo): MissingEvidence {
  const slowest = [...rows].filter((r) => r.rate > 0).sort((a, b) => a.rate - b.rate)[0];
  return {
    code: 'load-test-step',
    owner,
    path,
    slo: {
      p95LatencyMs: slo.p95LatencyMs,
      ...(slo.ttftP95Ms === undefined ? {} : { ttftP95Ms: slo.ttftP95Ms }),
      ...(slo.errorRate === undefined ? {} : { errorRate: slo.errorRate }),
    },
    slowest:
      slowest === undefined
        ? null
        : {
            rate: slowest.rate,
            label: slowest.label,
            p95E2eMs: slowest.p95E2eMs,
            ttftP95Ms: slowest.ttftP95Ms,
            errorRate: slowest.errorRate,
          },
  };
}

/** Replicas the service needs at its observed peak, with the batching or memory limit seen. */
export function servingCapacity(w: InferenceWorkload, m: Measured, policy: Policy): ServingCapacity {
  const headroom = w.headroom ?? policy.headroom;
  const lt = loadTestRate({ workload: w.name }, w.loadTest, w.slo, m);
  if (lt.row === null && w.loadTest !== undefined && w.slo !== undefined) {
    const test = m.loadTest(w.loadTest);
    if (test?.ok) m.lack(noStepMeetsSlo({ workload: w.name }, w.loadTest, test.value.rows, w.slo));
  }
  const peak = observedPeak(w, m);
  const { d, evidence: limitEvidence } = w.selector === undefined ? { d: NO_LIMIT, evidence: [] } : diagnose(w, m);
  const rate = lt.row?.rate ?? null;
  const replicasNeeded = rate !== null && peak.rate !== null ? replicasFor(peak.rate, headroom, rate) : null;
  return {
    workload: w.name,
    sustainableRatePerReplica: rate,
    loadTestStep: lt.row?.label ?? null,
    peakRate: peak.rate,
    headroom,
    replicasNeeded,
    gpusPerReplica: w.gpusPerReplica,
    gpusNeeded: replicasNeeded === null ? null : replicasNeeded * w.gpusPerReplica,
    declaredGpus: w.replicas * w.gpusPerReplica,
    limit: d.limit,
    ...(d.stats === null ? {} : { limitStats: d.stats }),
    evidence: [...lt.evidence, ...peak.evidence, ...limitEvidence],
  };
}

/** The numbers of the service's size, for the batching finding. */
export function servingSize(s: ServingCapacity): ServingSize {
  const { evidence: _evidence, gpusPerReplica: _perReplica, ...size } = s;
  return size;
}
