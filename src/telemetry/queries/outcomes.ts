import type { Outcomes } from '../../domain/index.js';
import type { NamedQuery } from './named-query.js';
import { queryId } from './named-query.js';

/**
 * The catalog's own outcome queries, passed through as written: they are the repository's
 * PromQL (not URLs or credentials), evaluated once at the end of the window.
 */
export function outcomeQueries(workload: string, outcomes: Outcomes): NamedQuery[] {
  const scope = { kind: 'workload' as const, name: workload, selector: {} };
  const how = `fix outcomes in the catalog entry of ${workload} so the query returns one number`;
  const out: NamedQuery[] = [
    {
      id: queryId('outcomes.verified', scope),
      kind: 'instant',
      promql: outcomes.verified,
      what: `verified outcomes of workload ${workload}`,
      how,
    },
  ];
  if (outcomes.total !== undefined) {
    out.push({
      id: queryId('outcomes.total', scope),
      kind: 'instant',
      promql: outcomes.total,
      what: `all outcomes of workload ${workload}`,
      how,
    });
  }
  return out;
}
