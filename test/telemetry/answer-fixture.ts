import type { MissingEvidence } from '../../src/domain/index.js';
import type { ReviewTelemetry } from '../../src/telemetry/collect.js';
import type { LoadTestImport } from '../../src/telemetry/loadtest/index.js';
import type { QueryAnswer, QueryMissing, QueryResult, Series } from '../../src/telemetry/source.js';

const AT = '2026-01-03T00:00:00.000Z';
const STEP = 3600;
const T0 = Date.parse(AT) / 1000 - 48 * STEP;

/** Hourly points from a list of values: the i-th value at T0 + i hours. */
export function hourly(values: readonly number[], labels: Record<string, string> = {}): Series {
  return { labels, samples: values.map((v, i) => ({ t: T0 + i * STEP, v })) };
}

export function answer(id: string, series: Series[], kind: 'range' | 'instant' = 'range'): QueryAnswer {
  return {
    status: 'ok',
    query: { id, kind, promql: `q(${id})`, what: id, how: 'n/a' },
    source: 'test',
    at: AT,
    windowMinutes: 48 * 60,
    resultType: kind === 'range' ? 'matrix' : 'vector',
    series,
    skipped: { nan: 0, inf: 0, blank: 0 },
    warnings: [],
    ...(kind === 'range' ? { step: STEP } : {}),
  };
}

export function missing(id: string): QueryMissing {
  return {
    status: 'missing',
    query: { id, kind: 'range', promql: `q(${id})`, what: `what ${id}`, how: `how ${id}` },
    source: 'test',
    at: AT,
    windowMinutes: 48 * 60,
    reason: 'no-data',
    message: 'nothing',
  };
}

/** Query answers as telemetry gathers them, before they become measurements: a ReviewTelemetry over 48 hourly points holding exactly the given results. */
export function telemetry(
  results: QueryResult[],
  loadTests: Record<string, LoadTestImport> = {},
  windowMinutes = 48 * 60,
): ReviewTelemetry {
  const answers = new Map(results.flatMap((r) => (r.status === 'ok' ? [[r.query.id, r] as const] : [])));
  const missingList: MissingEvidence[] = results.flatMap((r) => (r.status === 'missing' ? [{ what: r.query.what, how: r.query.how }] : []));
  return {
    source: 'test',
    at: AT,
    windowMinutes,
    evidence: { results, answers, missing: missingList },
    loadTests: new Map(Object.entries(loadTests)),
    allocation: null,
    missing: missingList,
    loadTestNotes: [],
  };
}

export const repeat = (n: number, v: number): number[] => Array.from({ length: n }, () => v);
