import { MIG_PRESENCE_ID } from '../../src/telemetry/queries/mig-presence.js';
import type { NamedQuery } from '../../src/telemetry/queries/named-query.js';
import type { QueryResult, TelemetrySource } from '../../src/telemetry/source.js';

/**
 * Keeps every query a source is asked, in order. `failProbe` answers the MIG presence probe as
 * a backend that rejects it would (400, bad query) without sending it, and passes the rest on.
 */
export function asking(inner: TelemetrySource, opts: { failProbe?: boolean } = {}): { source: TelemetrySource; asked: NamedQuery[] } {
  const asked: NamedQuery[] = [];
  const source: TelemetrySource = {
    description: inner.description,
    query(q, at, windowMinutes): Promise<QueryResult> {
      asked.push(q);
      if (opts.failProbe === true && q.id === MIG_PRESENCE_ID) {
        return Promise.resolve({
          query: q,
          source: inner.description,
          at: at.toISOString(),
          windowMinutes,
          status: 'missing',
          reason: 'bad-query',
          message: `${inner.description} rejected ${q.id}: unknown function last_over_time`,
        });
      }
      return inner.query(q, at, windowMinutes);
    },
  };
  return { source, asked };
}

/** Query API requests a real Prometheus has served, by its own counter: what reached the server. */
export async function servedQueries(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(/^prometheus_http_requests_total\{[^}]*handler="\/api\/v1\/query(?:_range)?"[^}]*\} ([0-9.e+]+)$/gm))
    n += Number(m[1]);
  return n;
}
