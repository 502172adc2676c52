import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Verdict } from '../../domain/index.js';
import type { TelemetryProvider } from '../../telemetry/index.js';
import type { TelemetrySource } from '../../telemetry/index.js';
import type { GitHubClient } from '../api/index.js';

/** What the queues hold (work/queue.ts's QueueCounts). */
interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

const METRICS_PATH = '/metrics';

/**
 * The stages of a webhook's answer, each a series of `gpu_justify_webhook_stage_seconds`
 * (intake/timing.ts): `verify` from the delivery handed to Probot's webhooks (its body read) to
 * our handler starting (the signature checked, the body parsed, Probot's context made); `record`
 * the delivery id claimed and its requests posted; `enqueue` its jobs queued; `handler` ours,
 * start to end; `webhook` verify and handler together, up to the answer. `finish`, the delivery
 * marked done, is written after the answer. What Probot's `responseTime` adds to `webhook` is the
 * body read and the wait for the event loop before it.
 */
export type WebhookStage = 'verify' | 'record' | 'enqueue' | 'finish' | 'handler' | 'webhook';

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
    help: 'Whether the Redis that replicas share the queue through answers (1) or not (0); absent without REDIS_URL',
    registers: [this.registry],
  });
  readonly coordinationFallbacks = new Counter({
    name: 'gpu_justify_coordination_fallbacks_total',
    help: 'Deliveries queued on this replica alone because Redis did not answer (operation="enqueue")',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  /** What the queues hold now, asked when /metrics is read. */
  #queueCounts: (() => Promise<QueueCounts>) | null = null;
  readonly queueJobs = new Gauge({
    name: 'gpu_justify_queue_jobs',
    help: 'Jobs in the review queue by state (waiting, active, delayed for a retry, failed: kept for inspection): shared by every replica with REDIS_URL',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: async () => {
      if (this.#queueCounts === null) return;
      const counts = await this.#queueCounts().catch(() => null);
      if (counts === null) return;
      for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) this.queueJobs.set({ state }, counts[state]);
    },
  });
  readonly jobsRunning = new Gauge({
    name: 'gpu_justify_worker_jobs_running',
    help: 'Jobs this replica runs now (gpu_justify_queue_jobs{state="active"} counts every replica\'s with REDIS_URL)',
    registers: [this.registry],
  });
  readonly queueWaitSeconds = new Histogram({
    name: 'gpu_justify_queue_wait_seconds',
    help: 'Time from a job being queued to its first attempt starting',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly jobsRetried = new Counter({
    name: 'gpu_justify_queue_jobs_retried_total',
    help: 'Job attempts that failed for a passing reason (GitHub 5xx, a rate limit) and will run again',
    registers: [this.registry],
  });
  readonly jobsFailed = new Counter({
    name: 'gpu_justify_queue_jobs_failed_total',
    help: 'Jobs that ended without success: attempts spent, an error not worth retrying, or stalled too often',
    registers: [this.registry],
  });
  readonly superseded = new Counter({
    name: 'gpu_justify_queue_superseded_total',
    help: 'Events for a pull request taken in by its job already waiting or running, instead of a job of their own',
    registers: [this.registry],
  });
  readonly redeliveriesSkipped = new Counter({
    name: 'gpu_justify_redeliveries_skipped_total',
    help: 'Redelivered webhooks answered without queueing anything: their delivery was queued to the end before',
    registers: [this.registry],
  });
  readonly webhookStageSeconds = new Histogram({
    name: 'gpu_justify_webhook_stage_seconds',
    help: 'Time each stage of answering a webhook took (verify, record, enqueue, handler, webhook; finish after the answer)',
    labelNames: ['stage'] as const,
    // Fine at the low end: the answer is meant to take milliseconds, and its p95 to stay under 0.2 s.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly rerunsCoalesced = new Counter({
    name: 'gpu_justify_reruns_coalesced_total',
    help: 'Re-runs answered by a review of the same head and base that had just concluded',
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'gpu_justify_' });
  }

  /** One stage of a webhook's answer took `ms` (intake/timing.ts). */
  observeWebhookStage(stage: WebhookStage, ms: number): void {
    this.webhookStageSeconds.observe({ stage }, ms / 1000);
  }

  /** Where the queue gauge reads its counts. */
  watchQueue(counts: () => Promise<QueueCounts>): void {
    this.#queueCounts = counts;
  }

  /**
   * Times a review and counts its verdict; a review that throws counts as could-not-run, unless
   * it is handed back to its queue to run again (`retried` says so).
   */
  async timeReview<T extends { result: { verdict: Verdict } | null }>(
    review: () => Promise<T>,
    retried: (err: unknown) => boolean = () => false,
  ): Promise<T> {
    const end = this.reviewSeconds.startTimer();
    try {
      const outcome = await review();
      this.reviews.inc({ verdict: outcome.result?.verdict ?? 'could-not-run' });
      return outcome;
    } catch (err) {
      if (!retried(err)) this.reviews.inc({ verdict: 'could-not-run' });
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
