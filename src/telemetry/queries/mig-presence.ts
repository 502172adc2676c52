import { minutes, selector } from '../promql.js';
import { KUEUE_USAGE, QUEUE_MIG_USAGE_FAMILY, kueueMigResource } from './kueue.js';
import { KSM_MIG_RESOURCE, MIG_ACTIVITY_FAMILY, MIG_INSTANCE, MIG_PODS_FAMILY, MIG_PRESENCE_METRICS, MIG_REQUESTS_FAMILY } from './mig.js';
import type { NamedQuery, QueryOptions } from './named-query.js';

/**
 * The MIG queries are long and each reads every series of its scope; on a cluster with no MIG
 * they answer nothing. So a review first asks this one question: does any series the MIG
 * queries read exist in the window? They are planned only when it does.
 */

/** Families asked only when MIG devices are there (or when that could not be told). */
export const MIG_FAMILIES: ReadonlySet<string> = new Set([
  MIG_ACTIVITY_FAMILY,
  MIG_REQUESTS_FAMILY,
  MIG_PODS_FAMILY,
  QUEUE_MIG_USAGE_FAMILY,
]);

export const MIG_PRESENCE_ID = 'mig.presence:cluster';

/** A query of the MIG family: `dcgm.mig-activity:pool:a100`, …. */
export function isMigQuery(q: NamedQuery): boolean {
  return MIG_FAMILIES.has(q.id.slice(0, q.id.indexOf(':')));
}

/**
 * Every series a MIG query could find, counted over the whole window: DCGM instances (what
 * `migActivity`, `migPods` and the single-strategy requests read), kube-state-metrics' mixed
 * strategy resources (`migRequests`), Kueue's admitted MIG devices (`queueMigUsage`). Over the
 * window, not at its end: a pool sliced for part of it is still measured per instance. Where no
 * series carries these labels, Prometheus answers from its label index without reading samples.
 * `or vector(0)`: "none" is an answer, 0, not an empty result.
 */
export function migPresence(o: QueryOptions): NamedQuery {
  const over = (sel: string) => `count(last_over_time(${sel}[${minutes(o.windowMinutes)}]))`;
  const parts = [
    ...MIG_PRESENCE_METRICS.map((m) => selector(m, [MIG_INSTANCE])),
    selector('kube_pod_container_resource_requests', [KSM_MIG_RESOURCE]),
    selector('kube_node_status_allocatable', [KSM_MIG_RESOURCE]),
    selector(KUEUE_USAGE, [kueueMigResource]),
  ];
  return {
    id: MIG_PRESENCE_ID,
    kind: 'instant',
    promql: `${parts.map(over).join(' or ')} or vector(0)`,
    what: 'whether the cluster has MIG devices (DCGM series with GPU_I_PROFILE, kube-state-metrics nvidia_com_mig_* resources, Kueue nvidia.com/mig-* usage)',
    how: 'the MIG queries were asked all the same, and their own answers say whether MIG devices are there; if it keeps failing, check that this Prometheus answers last_over_time (Prometheus 2.26 or later)',
  };
}
