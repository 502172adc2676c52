import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Verdict } from '../domain/index.js';
import type { TelemetryProvider } from '../telemetry/from-env.js';
import type { TelemetrySource } from '../telemetry/source.js';
import type { GitHubClient } from './client.js';

const METRICS_PATH = '/metrics';

/**
 * The App's own numbers for Prometheus. Each App instance has its own registry, so two Apps in
 * one process (tests, several installations) never share or double-register series.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly reviews = new Counter({
    name: 'gpu_justify_reviews_total',
    help: 'Reviews concluded, by verdict (could-not-run when the review failed)',
    labelNames: ['verdict'] as const,
    registers: [this.registry],
  });
  readonly reviewSeconds = new Histogram({
    name: 'gpu_justify_review_duration_seconds',
    help: 'Time from the start of a review to its check concluding',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly githubRequests = new Counter({
    name: 'gpu_justify_github_requests_total',
    help: 'GitHub API requests, by method and status class',
    labelNames: ['method', 'status'] as const,
    registers: [this.registry],
  });
  readonly githubErrors = new Counter({
    name: 'gpu_justify_github_request_errors_total',
    help: 'GitHub API requests that failed, by status (0 when no answer came)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly telemetryQueries = new Counter({
    name: 'gpu_justify_telemetry_queries_total',
    help: 'Telemetry queries, by outcome (ok, or why the answer is missing)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly redisUp = new Gauge({
    name: 'gpu_justify_redis_up',
    help: 'Whether the Redis that replicas coordinate through answers (1) or not (0); absent without REDIS_URL',
    registers: [this.registry],
  });
  readonly coordinationFallbacks = new Counter({
    name: 'gpu_justify_coordination_fallbacks_total',
    help: 'Coordination steps run on this replica alone because Redis did not answer, by operation',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'gpu_justify_' });
  }

  /** Times a review and counts its verdict; a review that throws counts as could-not-run. */
  async timeReview<T extends { result: { verdict: Verdict } | null }>(review: () => Promise<T>): Promise<T> {
    const end = this.reviewSeconds.startTimer();
    try {
      const outcome = await review();
      this.reviews.inc({ verdict: outcome.result?.verdict ?? 'could-not-run' });
      return outcome;
    } catch (err) {
      this.reviews.inc({ verdict: 'could-not-run' });
      throw err;
    } finally {
      end();
    }
  }

  /** Counts every request an installation client makes. Idempotent per client. */
  instrument(octokit: GitHubClient): GitHubClient {
    const marked = octokit as GitHubClient & { [INSTRUMENTED]?: true };
    if (marked[INSTRUMENTED]) return octokit;
    marked[INSTRUMENTED] = true;
    octokit.hook.after('request', (response, options) => {
      this.githubRequests.inc({ method: options.method, status: `${String(response.status).slice(0, 1)}xx` });
    });
    octokit.hook.error('request', (error, options) => {
      const status = (error as { status?: number }).status ?? 0;
      this.githubRequests.inc({ method: options.method, status: status === 0 ? 'none' : `${String(status).slice(0, 1)}xx` });
      this.githubErrors.inc({ status: String(status) });
      throw error;
    });
    return octokit;
  }

  /** Counts the outcome of every telemetry query the provider's sources answer. */
  instrumentTelemetry(provider: TelemetryProvider): TelemetryProvider {
    return (policy) => {
      const input = provider(policy);
      if (input === undefined) return undefined;
      const inner: TelemetrySource = input.source;
      const source: TelemetrySource = {
        description: inner.description,
        query: async (q, at, window) => {
          const result = await inner.query(q, at, window);
          this.telemetryQueries.inc({ outcome: result.status === 'ok' ? 'ok' : result.reason });
          return result;
        },
      };
      return { ...input, source };
    };
  }

  /** Serves GET /metrics; other requests fall through to Probot's own routes. */
  readonly handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) return false;
    const body = await this.registry.metrics();
    res.writeHead(200, { 'content-type': this.registry.contentType }).end(body);
    return true;
  };
}

const INSTRUMENTED = Symbol('gpu-justify-metrics');
