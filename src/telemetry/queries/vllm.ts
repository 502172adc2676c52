import { matchersFrom, minutes, num, selector } from '../promql.js';
import type { NamedQuery, QueryOptions } from './named-query.js';
import { describeScope, queryId } from './named-query.js';

export type WorkloadScope = { kind: 'workload'; name: string; selector: Readonly<Record<string, string>> };

const HOW_VLLM = "scrape the vLLM server's /metrics with labels matching the workload's selector";

function sel(metric: string, scope: WorkloadScope): string {
  return selector(metric, matchersFrom(scope.selector));
}

function gauge(family: string, metric: string, what: string, scope: WorkloadScope): NamedQuery {
  return {
    id: queryId(family, scope),
    kind: 'range',
    promql: `sum(${sel(metric, scope)})`,
    what: `${what} of ${describeScope(scope)} (${metric})`,
    how: HOW_VLLM,
  };
}

export const vllmRunning = (scope: WorkloadScope, _o?: QueryOptions) =>
  gauge('vllm.running', 'vllm:num_requests_running', 'requests running', scope);
export const vllmWaiting = (scope: WorkloadScope, _o?: QueryOptions) =>
  gauge('vllm.waiting', 'vllm:num_requests_waiting', 'requests waiting', scope);

/**
 * vLLM renamed the gauge `vllm:gpu_cache_usage_perc` to `vllm:kv_cache_usage_perc` (both 0–1 despite
 * the name; the old one removed in 0.12); a replica exporting both keeps the new name (`or`
 * prefers the left side).
 */
export function vllmKvCache(scope: WorkloadScope, _o?: QueryOptions): NamedQuery {
  return {
    id: queryId('vllm.kv-cache', scope),
    kind: 'range',
    promql: `avg(${sel('vllm:kv_cache_usage_perc', scope)} or ${sel('vllm:gpu_cache_usage_perc', scope)})`,
    what: `KV-cache usage (0–1, mean over replicas) of ${describeScope(scope)} (vllm:kv_cache_usage_perc or vllm:gpu_cache_usage_perc)`,
    how: HOW_VLLM,
  };
}

function quantile(family: string, metric: string, what: string, scope: WorkloadScope, o: QueryOptions, q: number): NamedQuery {
  const inc = `increase(${sel(`${metric}_bucket`, scope)}[${minutes(o.windowMinutes)}])`;
  return {
    id: queryId(`${family}-p${Math.round(q * 100)}`, scope),
    kind: 'instant',
    promql: `histogram_quantile(${num(q)}, sum by (le) (${inc}))`,
    what: `p${Math.round(q * 100)} ${what} of ${describeScope(scope)} over the window, seconds (${metric})`,
    how: HOW_VLLM,
  };
}

export const vllmE2eLatency = (scope: WorkloadScope, o: QueryOptions, q = 0.95) =>
  quantile('vllm.e2e', 'vllm:e2e_request_latency_seconds', 'end-to-end latency', scope, o, q);
export const vllmTtft = (scope: WorkloadScope, o: QueryOptions, q = 0.95) =>
  quantile('vllm.ttft', 'vllm:time_to_first_token_seconds', 'time to first token', scope, o, q);

/** Finished requests over the window by reason (stop, length, abort, error…). */
export function vllmRequestSuccess(scope: WorkloadScope, o: QueryOptions): NamedQuery {
  return {
    id: queryId('vllm.request-success', scope),
    kind: 'instant',
    promql: `sum by (finished_reason) (increase(${sel('vllm:request_success_total', scope)}[${minutes(o.windowMinutes)}]))`,
    what: `finished requests by reason of ${describeScope(scope)} (vllm:request_success_total)`,
    how: HOW_VLLM,
  };
}

/** Finished requests per second over time: the load the service carried. */
export function vllmRequestRate(scope: WorkloadScope, o: QueryOptions): NamedQuery {
  return {
    id: queryId('vllm.request-rate', scope),
    kind: 'range',
    promql: `sum(rate(${sel('vllm:request_success_total', scope)}[${minutes(o.rateWindowMinutes ?? 5)}]))`,
    what: `finished requests per second of ${describeScope(scope)} (vllm:request_success_total)`,
    how: HOW_VLLM,
  };
}

export function vllmPreemptions(scope: WorkloadScope, o: QueryOptions): NamedQuery {
  return {
    id: queryId('vllm.preemptions', scope),
    kind: 'instant',
    promql: `sum(increase(${sel('vllm:num_preemptions_total', scope)}[${minutes(o.windowMinutes)}]))`,
    what: `preemptions over the window of ${describeScope(scope)} (vllm:num_preemptions_total)`,
    how: HOW_VLLM,
  };
}
