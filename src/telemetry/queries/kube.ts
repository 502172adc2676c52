import { eq, matchersFrom, selector } from '../promql.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { describeScope, poolNodeMatcher, queryId } from './named-query.js';

/** kube-state-metrics sanitises `nvidia.com/gpu` into this `resource` value. */
export const KSM_GPU_RESOURCE = 'nvidia_com_gpu';
/** Labels kube-state-metrics puts on per-container series; other selector keys cannot match them. */
export const KSM_POD_LABELS: ReadonlySet<string> = new Set(['namespace', 'pod', 'container', 'node']);
export const HOW_KSM = 'scrape kube-state-metrics into this Prometheus';

/**
 * The series of `requests` (kube_pod_container_resource_requests, which kube-state-metrics reports
 * for a pod in every phase) whose pod is Running (kube_pod_status_phase): shards Pending for a node
 * and finished pods not yet deleted hold no GPU. A pod with no phase series at all (an exporter
 * without the pod phase) is kept, as before the phase was read.
 */
export function running(requests: string): string {
  return inPhase(requests, 'Running', true);
}

/** The series of `requests` whose pod is Pending: GPUs asked for and not yet held. */
function pending(requests: string): string {
  return inPhase(requests, 'Pending', false);
}

function inPhase(requests: string, phase: string, keepUnknown: boolean): string {
  const inIt = `(${requests} and on (namespace, pod) (${selector(POD_PHASE, [eq('phase', phase)])} == 1))`;
  return keepUnknown ? `(${inIt} or (${requests} unless on (namespace, pod) ${POD_PHASE}))` : inIt;
}

const POD_PHASE = 'kube_pod_status_phase';

/** Keeps the series of `expr` whose `node` is in the pool. */
export function inPool(expr: string, scope: { name: string; poolLabel: string }): string {
  return `(${expr} * on (node) group_left () max by (node) (${selector('kube_node_labels', [poolNodeMatcher(scope)])}))`;
}

/** The GPU requests of a workload's containers, by the selector keys kube-state-metrics labels carry. */
function workloadRequests(scope: Extract<Scope, { kind: 'workload' }>): string {
  const picked = Object.fromEntries(Object.entries(scope.selector).filter(([k]) => KSM_POD_LABELS.has(k)));
  return selector('kube_pod_container_resource_requests', [eq('resource', KSM_GPU_RESOURCE), ...matchersFrom(picked)]);
}

/** GPUs held by the scope's Running pods: what they run on, never what waits or has finished. */
export function gpuRequests(scope: Scope, _o?: QueryOptions): NamedQuery {
  let expr: string;
  switch (scope.kind) {
    case 'workload':
      expr = running(workloadRequests(scope));
      break;
    case 'pool':
      expr = inPool(running(selector('kube_pod_container_resource_requests', [eq('resource', KSM_GPU_RESOURCE)])), scope);
      break;
    case 'queue':
      throw new Error('GPU requests are per workload or per pool; use the Kueue queries for a queue');
  }
  return {
    id: queryId('ksm.gpu-requests', scope),
    kind: 'range',
    promql: `sum(${expr})`,
    what: `GPUs held by the Running pods of ${describeScope(scope)} (kube_pod_container_resource_requests, kube_pod_status_phase)`,
    how: scope.kind === 'workload' ? `${HOW_KSM}; the selector must use namespace, pod or container to match its series` : HOW_KSM,
  };
}

/** GPUs the workload's Pending pods ask for over time: runs waiting for a node or for quota. */
export function gpuRequestsPending(scope: Extract<Scope, { kind: 'workload' }>, _o?: QueryOptions): NamedQuery {
  return {
    id: queryId(GPU_PENDING_FAMILY, scope),
    kind: 'range',
    promql: `sum(${pending(workloadRequests(scope))})`,
    what: `GPUs requested by the Pending pods of ${describeScope(scope)} (kube_pod_container_resource_requests, kube_pod_status_phase)`,
    how: `${HOW_KSM}; the selector must use namespace, pod or container to match its series`,
  };
}

export const GPU_PENDING_FAMILY = 'ksm.gpu-requests-pending';

/** GPUs the pool's nodes can schedule. */
export function gpuAllocatable(scope: Extract<Scope, { kind: 'pool' }>, _o?: QueryOptions): NamedQuery {
  return {
    id: queryId('ksm.gpu-allocatable', scope),
    kind: 'range',
    promql: `sum(${inPool(selector('kube_node_status_allocatable', [eq('resource', KSM_GPU_RESOURCE)]), scope)})`,
    what: `GPUs allocatable in ${describeScope(scope)} (kube_node_status_allocatable)`,
    how: `${HOW_KSM} with the node label ${scope.poolLabel} allowed (--metric-labels-allowlist=nodes=[${scope.poolLabel}])`,
  };
}
