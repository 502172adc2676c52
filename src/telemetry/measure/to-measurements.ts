import type {
  CostMeasurement,
  Measurement,
  MeasureKey,
  MigPresenceState,
  MissingMeasurementReason,
  ReviewMeasurements,
} from '../../domain/index.js';
import type { ReviewTelemetry } from '../collect.js';
import { notFiniteNote } from '../finite.js';
import { evidenceOf } from '../gather.js';
import type { AllocationResult } from '../opencost/client.js';
import { toMissingEvidence } from '../source.js';
import type { MissingReason, QueryResult } from '../source.js';
import { measureKeyOfQuery } from './families.js';

function reasonOf(reason: MissingReason): MissingMeasurementReason {
  if (reason === 'no-data') return 'nothing-there';
  if (reason === 'not-in-snapshot') return 'not-recorded';
  return 'failed';
}

/** One query's result as the measurement it takes; a source that answered nothing at all lends every miss its one line. */
function measurementOf(key: MeasureKey, r: QueryResult, outage: ReviewTelemetry['evidence']['outage']): Measurement {
  if (r.status === 'ok') {
    return {
      status: 'measured',
      key,
      series: r.series,
      windowMinutes: r.windowMinutes,
      ...(r.step === undefined ? {} : { stepSeconds: r.step }),
      evidence: evidenceOf(r),
      notFinite: notFiniteNote(r),
    };
  }
  return { status: 'missing', key, reason: reasonOf(r.reason), missing: outage ?? toMissingEvidence(r) };
}

function costOf(a: AllocationResult): CostMeasurement {
  if (a.status === 'missing') return { status: 'missing', message: a.message };
  return { status: 'measured', namespaces: a.allocations.map((x) => ({ namespace: x.key, gpuCost: x.gpuCost })) };
}

/** What analysis reads of a review's telemetry: each answer as the measure it takes, with its evidence. */
export function toMeasurements(t: ReviewTelemetry): ReviewMeasurements {
  const measurements = new Map<MeasureKey, Measurement>();
  for (const r of t.evidence.results) {
    const key = measureKeyOfQuery(r.query.id);
    if (key !== null) measurements.set(key, measurementOf(key, r, t.evidence.outage));
  }
  const migPresence: MigPresenceState | null = t.evidence.mig?.status ?? null;
  return {
    source: t.source,
    at: t.at,
    windowMinutes: t.windowMinutes,
    measurements,
    answeredAny: t.evidence.answers.size > 0,
    migPresence,
    loadTests: t.loadTests,
    cost: t.allocation === null ? null : costOf(t.allocation),
    missing: t.missing,
  };
}
