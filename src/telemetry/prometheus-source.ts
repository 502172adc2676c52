import { TelemetryError } from './errors.js';
import { mostlyNotFinite, mostlyNotFiniteMessage, notFiniteCount } from './finite.js';
import type { TelemetryErrorKind } from './errors.js';
import { PrometheusClient } from './prometheus/client.js';
import type { PromAnswer } from './prometheus/client.js';
import type { PrometheusConfig } from './prometheus/config.js';
import { chooseStep } from './prometheus/step.js';
import type { NamedQuery } from './queries/named-query.js';
import type { MissingReason, QueryResult, TelemetrySource } from './source.js';

const REASONS: Record<TelemetryErrorKind, MissingReason> = {
  'telemetry-unavailable': 'unavailable',
  'telemetry-bad-query': 'bad-query',
  'telemetry-bad-response': 'bad-response',
  'telemetry-config': 'config',
};

/** Live answers from a Prometheus-compatible API. */
export class PrometheusSource implements TelemetrySource {
  private readonly client: PrometheusClient;

  /**
   * `minStepSeconds`: the finest range-query step. Capacity questions are about hours and days,
   * so a recording may ask for coarser steps to keep a snapshot small.
   */
  constructor(
    config: PrometheusConfig,
    private readonly options: { minStepSeconds?: number } = {},
  ) {
    this.client = new PrometheusClient(config);
  }

  get description(): string {
    return `prometheus at ${this.client.endpoint}`;
  }

  async query(q: NamedQuery, at: Date, windowMinutes: number): Promise<QueryResult> {
    const base = { query: q, source: this.description, at: at.toISOString(), windowMinutes };
    const options = { label: q.id, blankAbove: q.blankAbove ?? null };
    let answer: PromAnswer;
    let step: number | undefined;
    try {
      if (q.kind === 'instant') {
        answer = await this.client.instant(q.promql, at, options);
      } else {
        const start = new Date(at.getTime() - windowMinutes * 60_000);
        step = chooseStep(start.getTime() / 1000, at.getTime() / 1000, this.options.minStepSeconds);
        answer = await this.client.range(q.promql, start, at, step, options);
      }
    } catch (err) {
      if (!(err instanceof TelemetryError)) throw err;
      return { ...base, status: 'missing', reason: REASONS[err.kind], message: err.message, ...(err.queryOnly ? { queryOnly: true } : {}) };
    }
    const series = answer.series.filter((s) => s.samples.length > 0);
    if (series.length === 0) {
      // Nothing left: because it was all NaN or ±Inf, or because nothing (or only DCGM blanks) came back.
      const reason = notFiniteCount(answer.skipped) > 0 ? 'not-finite' : 'no-data';
      return { ...base, status: 'missing', reason, message: noDataMessage(this.description, q, answer) };
    }
    const finite = series.reduce((n, s) => n + s.samples.length, 0);
    if (mostlyNotFinite(finite, answer.skipped)) {
      return {
        ...base,
        status: 'missing',
        reason: 'not-finite',
        message: mostlyNotFiniteMessage(this.description, q.id, finite, answer.skipped),
      };
    }
    const dropped = answer.series.length - series.length;
    return {
      ...base,
      status: 'ok',
      resultType: answer.resultType,
      series,
      skipped: answer.skipped,
      ...(dropped > 0 ? { droppedSeries: dropped } : {}),
      warnings: answer.warnings,
      ...(step === undefined ? {} : { step }),
    };
  }
}

function noDataMessage(where: string, q: NamedQuery, a: PromAnswer): string {
  const { nan, inf, blank } = a.skipped;
  const dropped = nan + inf + blank;
  const why = dropped > 0 ? `every sample was unusable (${nan} NaN, ${inf} infinite, ${blank} DCGM blank)` : 'no series matched';
  return `${where}: ${why} for ${q.id}`;
}
