import type { NamedQuery } from './queries/named-query.js';
import type { QueryMissing, QueryResult, TelemetrySource } from './source.js';

/**
 * One review's guard around a telemetry source. Each query already retries on its own; against a
 * source that is down (refused connections, timeouts, 5xx) every one of a review's queries would
 * wait out those retries. So:
 *
 * - the first query goes alone, and the others wait for its result: a source that is down makes
 *   one query pay the retries, not every query in flight;
 * - once any query comes back `unavailable` (a transport error, a timeout or a 5xx after its
 *   retries), every later query fails at once with the same reason, its message naming the
 *   failure it stands for, so the evidence still lists each query and why it is missing.
 *
 * A rejected query (4xx, bad PromQL), one that ran past Prometheus's own query timeout (a 503
 * whose body says so), an answer that is not the API's JSON, or no data says nothing about the
 * other queries, and never trips it. Make one per review: the breaker never
 * closes again, so it must not outlive the review that tripped it.
 */
export class CircuitBreakerSource implements TelemetrySource {
  private first: Promise<unknown> | null = null;
  private tripped: QueryMissing | null = null;

  constructor(private readonly inner: TelemetrySource) {}

  get description(): string {
    return this.inner.description;
  }

  /** The failure that opened the breaker; null while the source is trusted. */
  get trippedBy(): QueryMissing | null {
    return this.tripped;
  }

  async query(q: NamedQuery, at: Date, windowMinutes: number): Promise<QueryResult> {
    if (this.first === null) {
      const result = this.ask(q, at, windowMinutes);
      // Whatever the first query gives, the others may go once it has given it.
      this.first = result.catch(() => undefined);
      return result;
    }
    await this.first;
    return this.tripped === null ? this.ask(q, at, windowMinutes) : this.failFast(q, at, windowMinutes, this.tripped);
  }

  private async ask(q: NamedQuery, at: Date, windowMinutes: number): Promise<QueryResult> {
    if (this.tripped !== null) return this.failFast(q, at, windowMinutes, this.tripped);
    const result = await this.inner.query(q, at, windowMinutes);
    // Not always null: a query running alongside may have tripped the breaker during the await.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- narrowing does not see that.
    if (result.status === 'missing' && result.reason === 'unavailable' && result.queryOnly !== true && this.tripped === null)
      this.tripped = result;
    return result;
  }

  private failFast(q: NamedQuery, at: Date, windowMinutes: number, cause: QueryMissing): QueryMissing {
    return {
      query: q,
      source: this.inner.description,
      at: at.toISOString(),
      windowMinutes,
      status: 'missing',
      reason: 'unavailable',
      message: `${this.inner.description} was not asked for ${q.id}: it had already failed ${cause.query.id} in this review (${cause.message})`,
    };
  }
}

/** A fresh breaker around `source`, for one review or one recording. */
export function withCircuitBreaker(source: TelemetrySource): CircuitBreakerSource {
  return new CircuitBreakerSource(source);
}
