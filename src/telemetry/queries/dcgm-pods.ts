import { HOW_POD_MAPPING, POD_MEASURE_LABEL, POD_MEASURES } from '../../domain/index.js';
import { eq, quote, selector } from '../promql.js';
import { dcgmSeries } from './dcgm.js';
import { KSM_GPU_RESOURCE } from './kube.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { describeScope, queryId } from './named-query.js';

export type PoolScope = Extract<Scope, { kind: 'pool' }>;

/** The query family of `podGpus`: its ids are `dcgm.pod-gpus:pool:<pool>`. */
export const POD_GPUS_FAMILY = 'dcgm.pod-gpus';

/** `label_replace(x, "dst", "$1", "src", "(.+)")`: copies `src` over `dst` where `src` is set. */
export function copyLabel(expr: string, dst: string, src: string): string {
  return `label_replace(${expr}, ${quote(dst)}, "$1", ${quote(src)}, "(.+)")`;
}

/** `expr` with `measure` set to `value`, so several measures travel in one answer. */
export const tag = (expr: string, value: string) => `label_replace(${expr}, ${quote(POD_MEASURE_LABEL)}, ${quote(value)}, "", "")`;

/**
 * Per pod of the pool (`namespace`, `pod`), the GPUs it holds and how many of them are busy
 * (DCGM_FI_DEV_GPU_UTIL ÷ 100, summed over its GPUs), over the window.
 *
 * Behind a ServiceMonitor without honorLabels the pod arrives as `exported_pod` while `pod` names
 * the exporter itself: `exported_*` wins where it is set. An unallocated GPU scraped that way
 * keeps the exporter's own `pod`, so a GPU counts as held only when kube-state-metrics shows that
 * pod requesting GPUs (the exporter requests none).
 */
export function podGpus(scope: PoolScope, _o?: QueryOptions): NamedQuery {
  const util = copyLabel(copyLabel(dcgmSeries('DCGM_FI_DEV_GPU_UTIL', scope), 'pod', 'exported_pod'), 'namespace', 'exported_namespace');
  const requesting = selector('kube_pod_container_resource_requests', [eq('resource', KSM_GPU_RESOURCE)]);
  const held = `(${util} and on (namespace, pod) ${requesting})`;
  return {
    id: queryId(POD_GPUS_FAMILY, scope),
    kind: 'range',
    promql: `${tag(`count by (namespace, pod) (${held})`, POD_MEASURES.gpus)} or ${tag(`sum by (namespace, pod) (${held} / 100)`, POD_MEASURES.busy)}`,
    what: `GPUs held and busy per pod in ${describeScope(scope)} (DCGM_FI_DEV_GPU_UTIL by pod, pods requesting nvidia.com/gpu)`,
    how: HOW_POD_MAPPING,
  };
}
