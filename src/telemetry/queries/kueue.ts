import { eq, minutes, ne, num, oneOf, re, selector } from '../promql.js';
import { KUEUE_UNLIMITED_AT } from '../../domain/index.js';
import type { NamedQuery, QueryOptions } from './named-query.js';
import { describeScope, queryId } from './named-query.js';

export type QueueScope = { kind: 'queue'; name: string };

/** Kueue reports extended resources under their Kubernetes names. */
const GPU_RESOURCES = ['nvidia.com/gpu'];
const HOW_QUOTA =
  'scrape the kueue-controller-manager metrics and set metrics.enableClusterQueueResources: true in the Kueue configuration';
const HOW_KUEUE = 'scrape the kueue-controller-manager metrics service (:8443/metrics)';

/** From v0.16 leader and followers all export: one value per series regardless of `replica_role`. */
const dedupe = (expr: string) => `max without (replica_role) (${expr})`;

function perFlavor(family: string, metric: string, what: string, scope: QueueScope, resources: string[]): NamedQuery {
  const sel = selector(metric, [eq('cluster_queue', scope.name), oneOf('resource', resources)]);
  return {
    id: queryId(family, scope),
    kind: 'range',
    promql: `sum by (flavor) (${dedupe(sel)})`,
    what: `${what} of ${describeScope(scope)}, GPUs per flavor (${metric})`,
    how: HOW_QUOTA,
  };
}

export const queueNominalQuota = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perFlavor('kueue.nominal-quota', 'kueue_cluster_queue_nominal_quota', 'nominal quota', scope, resources);
export const queueUsage = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perFlavor('kueue.usage', 'kueue_cluster_queue_resource_usage', 'admitted usage', scope, resources);
export const queueReservation = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perFlavor('kueue.reservation', 'kueue_cluster_queue_resource_reservation', 'reserved quota', scope, resources);

export const QUEUE_MIG_USAGE_FAMILY = 'kueue.mig-usage';
export const KUEUE_USAGE = 'kueue_cluster_queue_resource_usage';
/** Kueue's own name of a MIG device, `nvidia.com/mig-1g.10gb`. */
export const kueueMigResource = re('resource', 'nvidia\\.com/mig-.+');

/**
 * MIG devices the queue admitted, by Kueue's own resource name (`nvidia.com/mig-1g.10gb`): a
 * queue whose quota is in MIG devices has no nvidia.com/gpu usage at all.
 */
export function queueMigUsage(scope: QueueScope, _o?: QueryOptions): NamedQuery {
  const sel = selector(KUEUE_USAGE, [eq('cluster_queue', scope.name), kueueMigResource]);
  return {
    id: queryId(QUEUE_MIG_USAGE_FAMILY, scope),
    kind: 'range',
    promql: `sum by (resource) (${dedupe(sel)})`,
    what: `admitted MIG devices of ${describeScope(scope)} by resource (kueue_cluster_queue_resource_usage)`,
    how: HOW_QUOTA,
  };
}

export function queuePending(scope: QueueScope, _o?: QueryOptions): NamedQuery {
  return {
    id: queryId('kueue.pending', scope),
    kind: 'range',
    promql: `sum by (status) (${dedupe(selector('kueue_pending_workloads', [eq('cluster_queue', scope.name)]))})`,
    what: `pending workloads in ${describeScope(scope)} by status (kueue_pending_workloads)`,
    how: HOW_KUEUE,
  };
}

/** The q-quantile of admission wait over the whole window, seconds. */
export function queueAdmissionWait(scope: QueueScope, o: QueryOptions, q = 0.95): NamedQuery {
  const buckets = selector('kueue_admission_wait_time_seconds_bucket', [eq('cluster_queue', scope.name)]);
  const increase = dedupe(`increase(${buckets}[${minutes(o.windowMinutes)}])`);
  return {
    id: queryId(`kueue.admission-wait-p${Math.round(q * 100)}`, scope),
    kind: 'instant',
    promql: `histogram_quantile(${num(q)}, sum by (le) (${increase}))`,
    what: `p${Math.round(q * 100)} admission wait of ${describeScope(scope)}, seconds (kueue_admission_wait_time_seconds)`,
    how: HOW_KUEUE,
  };
}

/**
 * One GPU figure per ClusterQueue of the queue's cohort (the queue itself included, told apart by
 * `cluster_queue`): `and on (cohort)` keeps the series whose cohort is the named queue's, so the
 * cohort's name need not be known. A queue in no cohort matches nothing (`cohort!=""`).
 */
function perCohortQueue(family: string, metric: string, what: string, scope: QueueScope, resources: string[], clamp = false): NamedQuery {
  const deduped = dedupe(selector(metric, [oneOf('resource', resources)]));
  // An unset limit is +Inf from Kueue v0.19 on: clamped, a sum over flavors stays a number.
  const all = clamp ? `clamp_max(${deduped}, ${num(KUEUE_UNLIMITED_AT)})` : deduped;
  const own = selector('kueue_cluster_queue_nominal_quota', [eq('cluster_queue', scope.name), ne('cohort', '')]);
  return {
    id: queryId(family, scope),
    kind: 'range',
    promql: `sum by (cluster_queue) (${all} and on (cohort) ${own})`,
    what: `${what} of every ClusterQueue in the cohort of ${describeScope(scope)}, GPUs per queue (${metric})`,
    how: `${HOW_QUOTA}; the queue must name its cohort (spec.cohortName)`,
  };
}

/** The cohort's queues' nominal GPU quota: what the others could lend. */
export const cohortNominalQuota = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perCohortQueue('kueue.cohort-nominal-quota', 'kueue_cluster_queue_nominal_quota', 'nominal quota', scope, resources);
/** The cohort's queues' admitted GPU usage over time: what they leave unused. */
export const cohortUsage = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perCohortQueue('kueue.cohort-usage', 'kueue_cluster_queue_resource_usage', 'admitted usage', scope, resources);
/** The cohort's queues' lendingLimit of GPUs: what each may lend at most (unset: KUEUE_UNLIMITED_AT or more). */
export const cohortLendingLimit = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perCohortQueue('kueue.cohort-lending-limit', 'kueue_cluster_queue_lending_limit', 'lendingLimit', scope, resources, true);
/** The cohort's queues' borrowingLimit of GPUs (unset: KUEUE_UNLIMITED_AT or more). */
export const cohortBorrowingLimit = (scope: QueueScope, _o?: QueryOptions, resources = GPU_RESOURCES) =>
  perCohortQueue('kueue.cohort-borrowing-limit', 'kueue_cluster_queue_borrowing_limit', 'borrowingLimit', scope, resources, true);
