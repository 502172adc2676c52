import type {
  CostMeasurement,
  LoadTestImport,
  LoadTestRow,
  MeasuredSeries,
  Measurement,
  MeasureKey,
  MeasureName,
  MigPresenceState,
  MissingEvidence,
  MissingMeasurement,
  MissingMeasurementReason,
  ReviewMeasurements,
  ScopeId,
  TakenMeasurement,
} from '../../src/domain/index.js';
import { Measured } from '../../src/analysis/measured.js';
import { queryIdOfMeasure } from '../../src/telemetry/measure/families.js';

export const AT = '2026-01-03T00:00:00.000Z';
export const STEP = 3600;
const T0 = Date.parse(AT) / 1000 - 48 * STEP;
const WINDOW = 48 * 60;

/** Hourly points from a list of values: the i-th value at T0 + i hours. */
export function hourly(values: readonly number[], labels: Record<string, string> = {}): MeasuredSeries {
  return { labels, samples: values.map((v, i) => ({ t: T0 + i * STEP, v })) };
}

/** The id of the query telemetry takes the measure with, as its evidence names it. */
function queryIdOf(key: MeasureKey): string {
  const [name, ...scope] = key.split(':');
  return queryIdOfMeasure(name as MeasureName, scope.join(':') as ScopeId);
}

/** A measure taken: a level over time (`range`, hourly points) or one number (`instant`); its evidence a stand-in query. */
export function answer(key: MeasureKey, series: MeasuredSeries[], kind: 'range' | 'instant' = 'range'): TakenMeasurement {
  return {
    status: 'measured',
    key,
    series,
    windowMinutes: WINDOW,
    ...(kind === 'range' ? { stepSeconds: STEP } : {}),
    evidence: { source: 'prometheus', ref: `q(${queryIdOf(key)})`, window: `${WINDOW}m to ${AT}` },
    notFinite: null,
  };
}

/** A measure asked and not taken: by default, it matched nothing. */
export function missing(key: MeasureKey, reason: MissingMeasurementReason = 'nothing-there', message = 'nothing'): MissingMeasurement {
  const id = queryIdOf(key);
  return { status: 'missing', key, reason, missing: { what: `what ${id}: ${message}`, how: `how ${id}` } };
}

export function row(rate: number, p95E2eMs: number | null, over: Partial<LoadTestRow> = {}): LoadTestRow {
  return { rate, p50E2eMs: null, p95E2eMs, p99E2eMs: null, ttftP95Ms: 50, errorRate: 0, label: `constant at ${rate}/s`, ...over };
}

export interface MeasurementsOptions {
  migPresence?: MigPresenceState | null;
  cost?: CostMeasurement | null;
  /** The source answered something besides these measures (a query analysis does not read). */
  answeredAny?: boolean;
}

/** A review's measurements over 48 hourly points holding exactly the given ones. */
export function telemetry(
  results: Measurement[],
  loadTests: Record<string, LoadTestImport> = {},
  windowMinutes = WINDOW,
  options: MeasurementsOptions = {},
): ReviewMeasurements {
  const missingList: MissingEvidence[] = results.flatMap((r) => (r.status === 'missing' ? [r.missing] : []));
  return {
    source: 'test',
    at: AT,
    windowMinutes,
    measurements: new Map(results.map((r) => [r.key, r])),
    answeredAny: options.answeredAny ?? results.some((r) => r.status === 'measured'),
    migPresence: options.migPresence ?? null,
    loadTests: new Map(Object.entries(loadTests)),
    cost: options.cost ?? null,
    missing: missingList,
  };
}

export const measured = (...args: Parameters<typeof telemetry>) => new Measured(telemetry(...args));

export const repeat = (n: number, v: number): number[] => Array.from({ length: n }, () => v);
