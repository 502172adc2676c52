import { TelemetryResponseError, TelemetryQueryError, describeEndpoint, redact } from '../errors.js';
import type { PrometheusConfig } from './config.js';
import { requestJson } from './http.js';
import { envelopeSchema, parseData, toSeries } from './response.js';
import type { PromData } from './response.js';
import { MAX_POINTS, pointsFor } from './step.js';

export interface PromAnswer extends PromData {
  /** Partial-response and other warnings the server attached (Thanos, Mimir, VictoriaMetrics). */
  warnings: string[];
  method: 'GET' | 'POST';
}

export interface QueryOptions {
  /** Names the query in errors; defaults to the PromQL text. */
  label?: string;
  /** Values at or above this are blank sentinels (DCGM), not numbers. */
  blankAbove?: number | null;
}

const SOURCE = 'prometheus';

/** A Prometheus HTTP API client (`/api/v1/query`, `/api/v1/query_range`). */
export class PrometheusClient {
  constructor(readonly config: PrometheusConfig) {}

  /** Where the client points, credentials removed: for evidence lines and messages. */
  get endpoint(): string {
    return describeEndpoint(this.config.url);
  }

  async instant(query: string, time: Date, options: QueryOptions = {}): Promise<PromAnswer> {
    return this.call('/api/v1/query', { query, time: seconds(time) }, query, options);
  }

  async range(query: string, start: Date, end: Date, step: number, options: QueryOptions = {}): Promise<PromAnswer> {
    const points = pointsFor(start.getTime() / 1000, end.getTime() / 1000, step);
    if (points > MAX_POINTS) {
      throw new TelemetryQueryError(
        redact(
          `range query ${options.label ?? query} would return ${points} points per series (limit ${MAX_POINTS}): use a longer step`,
          this.config.secrets,
        ),
        { source: SOURCE, query: options.label ?? query },
      );
    }
    const params = { query, start: seconds(start), end: seconds(end), step: String(step) };
    return this.call('/api/v1/query_range', params, query, options);
  }

  private async call(path: string, params: Record<string, string>, query: string, options: QueryOptions): Promise<PromAnswer> {
    const label = options.label ?? query;
    const answer = await requestJson(this.config, { path, params, label, sourceName: SOURCE });
    const where = `${SOURCE} at ${this.endpoint}`;
    const fail = (why: string) =>
      new TelemetryResponseError(redact(`${where} sent ${why} for ${label}`, this.config.secrets), {
        source: where,
        query: redact(label, this.config.secrets),
        status: answer.status,
      });

    const envelope = envelopeSchema.safeParse(answer.body);
    if (!envelope.success) throw fail('JSON that is not a Prometheus API response');
    if (envelope.data.status === 'error') {
      throw new TelemetryQueryError(
        redact(`${where} rejected ${label}: ${envelope.data.error ?? envelope.data.errorType ?? 'no reason given'}`, this.config.secrets),
        { source: where, query: redact(label, this.config.secrets), status: answer.status },
      );
    }
    const data = parseData(envelope.data.data);
    if (data === null) throw fail('a result of an unknown shape');
    const warnings = [...(envelope.data.warnings ?? []), ...(envelope.data.infos ?? [])];
    return {
      ...toSeries(data, options.blankAbove ?? null),
      warnings: warnings.map((w) => redact(w, this.config.secrets)),
      method: answer.method,
    };
  }
}

function seconds(d: Date): string {
  return (d.getTime() / 1000).toString();
}
