import type { Evidence, MeasurableWorkload, MissingEvidence, TelemetryOutage } from '../domain/index.js';
import { mapLimit } from '../util/map-limit.js';
import { asksMig, migPresenceMissing, probeMigPresence } from './mig-presence.js';
import type { MigPresence } from './mig-presence.js';
import { capacityQueries, isMigQuery, workloadQueries } from './queries/index.js';
import type { NamedQuery, Scope } from './queries/named-query.js';
import { toMissingEvidence } from './source.js';
import type { QueryAnswer, QueryResult, TelemetrySource } from './source.js';

export interface GatherRequest {
  workloads: readonly MeasurableWorkload[];
  /** The changed pools and ClusterQueues. */
  scopes: readonly Exclude<Scope, { kind: 'workload' }>[];
  at: Date;
  windowMinutes: number;
  rateWindowMinutes?: number;
  /** Asked besides the scopes' and workloads' own (a review with no catalog asks for job runs and pending demand). */
  extra?: readonly NamedQuery[];
  /** Queries in flight at once; Prometheus and its proxies throttle bursts. */
  concurrency?: number;
}

export interface TelemetryEvidence {
  /** One result per query, in the order the queries were planned. */
  results: QueryResult[];
  /** Answered queries by id. */
  answers: Map<string, QueryAnswer>;
  /** Unanswered queries, as the report lists them. */
  missing: MissingEvidence[];
  /**
   * Set when the source answered no query and said why in the same way for all of them (down,
   * not a Prometheus API, misconfigured): one line for the reader, not one per query.
   */
  outage?: MissingEvidence;
  /** The same outage as data, for the first screen and the CLI's stderr. */
  down?: TelemetryOutage;
  /**
   * What the MIG presence probe said, which decided whether the MIG queries were asked; absent
   * when the review had no MIG query to ask. The probe is not among `results`.
   */
  mig?: MigPresence;
}

/** Failures that say nothing about a query and everything about the source. */
const SOURCE_FAILURES = new Set(['unavailable', 'bad-response', 'config']);

/** True when the result failed for a reason of the source's own (down, not a Prometheus API, misconfigured). */
export function isSourceFailure(r: Pick<QueryResult, 'status'> & { reason?: string }): boolean {
  return r.status === 'missing' && r.reason !== undefined && SOURCE_FAILURES.has(r.reason);
}

/** A source that answered none of `results` for a reason of its own; undefined when anything came back. */
function sourceDown(results: readonly QueryResult[]): TelemetryOutage | undefined {
  const failed = results.flatMap((r) => (r.status === 'missing' && isSourceFailure(r) ? [r] : []));
  const first = failed[0];
  if (first === undefined || failed.length < results.length) return undefined;
  return { reason: first.reason as TelemetryOutage['reason'], queries: results.length, detail: first.message };
}

/** The one missing-evidence line for a source that answered nothing. */
function sourceOutage(source: string, down: TelemetryOutage): MissingEvidence {
  return {
    what: `every measurement from ${source}: none of its ${down.queries} queries was answered (the first: ${down.detail})`,
    how:
      down.reason === 'config'
        ? 'fix the telemetry settings named above (PROMETHEUS_URL or --prometheus, and its credentials)'
        : 'check that the URL (PROMETHEUS_URL or --prometheus) reaches the Prometheus HTTP API from here, and its credentials ' +
          '(PROMETHEUS_BEARER_TOKEN, PROMETHEUS_BASIC_AUTH, PROMETHEUS_HEADERS); until then the review judges from the files alone',
  };
}

/**
 * Every query a review needs, deduplicated by id (a workload may sit in two changed scopes). The
 * MIG family only with `mig`: `gatherEvidence` asks it when the MIG presence probe calls for it.
 */
export function planQueries(req: Omit<GatherRequest, 'at' | 'concurrency'>, options: { mig?: boolean } = {}): NamedQuery[] {
  const opts = {
    windowMinutes: req.windowMinutes,
    ...(req.rateWindowMinutes === undefined ? {} : { rateWindowMinutes: req.rateWindowMinutes }),
  };
  const all = [
    ...req.scopes.flatMap((s) => capacityQueries(s, opts)),
    ...req.workloads.flatMap((w) => workloadQueries(w, opts)),
    ...(req.extra ?? []),
  ];
  const seen = new Set<string>();
  return all.filter((q) => {
    if (seen.has(q.id)) return false;
    seen.add(q.id);
    return options.mig === true || !isMigQuery(q);
  });
}

/**
 * Runs the planned queries against one source, in parallel under a cap. When the review has MIG
 * queries to ask, one cheap probe goes first, alone, and they are asked only if it finds MIG
 * devices or cannot tell.
 */
export async function gatherEvidence(source: TelemetrySource, req: GatherRequest): Promise<TelemetryEvidence> {
  const planned = planQueries(req, { mig: true });
  const mig = planned.some(isMigQuery) ? await probeMigPresence(source, req.at, req.windowMinutes) : undefined;
  const queries = mig === undefined || asksMig(mig) ? planned : planned.filter((q) => !isMigQuery(q));
  const results = await mapLimit(queries, req.concurrency ?? 8, (q) => source.query(q, req.at, req.windowMinutes));
  const answers = new Map<string, QueryAnswer>();
  const missing: MissingEvidence[] = [];
  const probeFailed = mig === undefined ? null : migPresenceMissing(mig);
  if (probeFailed !== null) missing.push(probeFailed);
  for (const r of results) {
    if (r.status === 'ok') answers.set(r.query.id, r);
    else missing.push(toMissingEvidence(r));
  }
  // The probe was asked like any query, unless a snapshot recorded before it never held it.
  const asked = mig === undefined || mig.status === 'not-recorded' ? results : [mig.result, ...results];
  const down = sourceDown(asked);
  const withMig = mig === undefined ? {} : { mig };
  if (down === undefined) return { results, answers, missing, ...withMig };
  const outage = sourceOutage(source.description, down);
  return { results, answers, missing: [outage], outage, down, ...withMig };
}

/** The evidence line for a number taken from an answer. */
export function evidenceOf(r: QueryAnswer): Evidence {
  return { source: 'prometheus', ref: r.query.promql, window: `${r.windowMinutes}m to ${r.at}` };
}
