import { eq, matchersFrom, selector } from '../promql.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { describeScope, poolNodeMatcher, queryId } from './named-query.js';

/** kube-state-metrics sanitises `nvidia.com/gpu` into this `resource` value. */
export const KSM_GPU_RESOURCE = 'nvidia_com_gpu';
/** Labels kube-state-metrics puts on per-container series; other selector keys cannot match them. */
export const KSM_POD_LABELS: ReadonlySet<string> = new Set(['namespace', 'pod', 'container', 'node']);
export const HOW_KSM = 'scrape kube-state-metrics into this Prometheus';

/** Keeps the series of `expr` whose `node` is in the pool. */
export function inPool(expr: string, scope: { name: string; poolLabel: string }): string {
  return `(${expr} * on (node) group_left () max by (node) (${selector('kube_node_labels', [poolNodeMatcher(scope)])}))`;
}

/** GPUs requested by the scope's containers. */
export function gpuRequests(scope: Scope, _o?: QueryOptions): NamedQuery {
  const gpu = eq('resource', KSM_GPU_RESOURCE);
  let expr: string;
  switch (scope.kind) {
    case 'workload': {
      const keys = Object.keys(scope.selector).filter((k) => KSM_POD_LABELS.has(k));
      const picked = Object.fromEntries(keys.map((k) => [k, scope.selector[k] as string]));
      expr = selector('kube_pod_container_resource_requests', [gpu, ...matchersFrom(picked)]);
      break;
    }
    case 'pool':
      expr = inPool(selector('kube_pod_container_resource_requests', [gpu]), scope);
      break;
    case 'queue':
      throw new Error('GPU requests are per workload or per pool; use the Kueue queries for a queue');
  }
  return {
    id: queryId('ksm.gpu-requests', scope),
    kind: 'range',
    promql: `sum(${expr})`,
    what: `GPUs requested by ${describeScope(scope)} (kube_pod_container_resource_requests)`,
    how: scope.kind === 'workload' ? `${HOW_KSM}; the selector must use namespace, pod or container to match its series` : HOW_KSM,
  };
}

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
