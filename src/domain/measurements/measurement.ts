import type { Evidence, MissingEvidence } from '../verdict.js';
import type { MeasureKey } from './measure.js';

/** One point of a measured level: unix seconds and value. */
interface MeasuredSample {
  t: number;
  v: number;
}

/**
 * One series of a measurement. Its labels tell the parts of a measurement apart (a pod, a flavor,
 * a MIG profile); the label names analysis reads are declared in SERIES_LABELS.
 */
export interface MeasuredSeries {
  labels: Readonly<Record<string, string>>;
  samples: readonly MeasuredSample[];
}

/**
 * Why a measure has no value:
 * - `nothing-there`: it was asked and matched nothing (no such pods, no MIG device);
 * - `not-recorded`: a snapshot replayed holds no answer to it;
 * - `failed`: it could not be told (source down, bad query, samples mostly not numbers).
 */
export type MissingMeasurementReason = 'nothing-there' | 'not-recorded' | 'failed';

export interface TakenMeasurement {
  status: 'measured';
  key: MeasureKey;
  series: readonly MeasuredSeries[];
  /** The look-back it covers, minutes, ending at the review's time. */
  windowMinutes: number;
  /** Seconds each point stands for, when the source said (range measurements). */
  stepSeconds?: number;
  /** Where the numbers came from, for every figure taken from them. */
  evidence: Evidence;
  /** Set when some samples were NaN or ±Inf and left out: what the figures taken from it lack. */
  notFinite: MissingEvidence | null;
}

export interface MissingMeasurement {
  status: 'missing';
  key: MeasureKey;
  reason: MissingMeasurementReason;
  /** The line the report lists when a figure needed it. */
  missing: MissingEvidence;
}

export type Measurement = TakenMeasurement | MissingMeasurement;
