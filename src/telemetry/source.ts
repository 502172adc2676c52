import type { MissingEvidence } from '../domain/index.js';
import type { Series, Skipped } from './prometheus/response.js';
import type { NamedQuery } from './queries/named-query.js';

export type { Series } from './prometheus/response.js';

export type MissingReason =
  | 'unavailable'
  | 'bad-query'
  | 'bad-response'
  | 'config'
  /** The query ran and matched nothing usable. */
  | 'no-data'
  /** The query ran, but most of its samples were NaN or ±Inf. */
  | 'not-finite'
  /** Replay: the snapshot holds no answer for this query, time and window. */
  | 'not-in-snapshot';

interface ResultBase {
  query: NamedQuery;
  /** Which source answered, credentials removed (`prometheus at http://…`, `snapshot f.json`). */
  source: string;
  /** End of the window, ISO-8601. */
  at: string;
  windowMinutes: number;
}

export interface QueryAnswer extends ResultBase {
  status: 'ok';
  resultType: 'vector' | 'matrix' | 'scalar';
  series: Series[];
  skipped: Skipped;
  /** Series left out because none of their samples was usable; absent when none was. */
  droppedSeries?: number | undefined;
  warnings: string[];
  /** Range queries: the step, seconds. */
  step?: number | undefined;
}

export interface QueryMissing extends ResultBase {
  status: 'missing';
  reason: MissingReason;
  message: string;
  /** The source is up and failed this query alone (its own query timeout): says nothing of the others. */
  queryOnly?: true | undefined;
}

export type QueryResult = QueryAnswer | QueryMissing;

/**
 * Anything that answers named queries for a time and a look-back: live Prometheus, or a snapshot
 * replayed with no network. Failures come back as `missing` results, never as exceptions.
 */
export interface TelemetrySource {
  /** For evidence lines: where the numbers came from. */
  readonly description: string;
  query(q: NamedQuery, at: Date, windowMinutes: number): Promise<QueryResult>;
}

/** The key one answer is stored under in a snapshot. */
export function answerKey(q: NamedQuery, at: Date | string, windowMinutes: number): string {
  const iso = typeof at === 'string' ? at : at.toISOString();
  return `${q.kind}|${iso}|${windowMinutes}m|${q.promql}`;
}

/** The domain's missing-evidence entry for a result that has no answer. */
export function toMissingEvidence(r: QueryMissing): MissingEvidence {
  return { what: `${r.query.what}: ${r.message}`, how: r.query.how };
}
