import { eq, minutes, oneOf, selector, type Matcher } from '../promql.js';
import { HOW_KSM } from './kube.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { describeScope, queryId } from './named-query.js';

type CapacityScope = Exclude<Scope, { kind: 'workload' }>;

export const JOB_STARTS_FAMILY = 'ksm.job-starts';
export const JOB_COMPLETIONS_FAMILY = 'ksm.job-completions';
export const QUEUE_PENDING_GPUS_FAMILY = 'kueue.pending-gpus';
export const POD_STARTS_FAMILY = 'ksm.job-pod-starts';
export const POD_COMPLETIONS_FAMILY = 'ksm.job-pod-completions';

/** The Job owning each pod the matchers select, at its most over the window `w`. */
export const podJobOwner = (matchers: readonly Matcher[], w: string): string =>
  `max by (namespace, pod, owner_name) (max_over_time(${selector('kube_pod_owner', [...matchers, eq('owner_kind', 'Job')])}[${w}]))`;

/** Each Job's `metric` (a time) at its most over the window `w`, with its owner's kind and name. */
export function jobTimes(metric: string, matchers: readonly Matcher[], w: string): string {
  const owner = `max by (namespace, job_name, owner_kind, owner_name) (max_over_time(${selector('kube_job_owner', matchers)}[${w}]))`;
  return `max by (namespace, job_name, owner_kind, owner_name) (max_over_time(${selector(metric, matchers)}[${w}]) * on (namespace, job_name) group_left (owner_kind, owner_name) ${owner})`;
}

/** Each Job-owned pod's `metric` (a time) at its most over the window `w`, with its Job's name. */
export const jobPodTimes = (metric: string, matchers: readonly Matcher[], w: string): string =>
  `max by (namespace, pod, owner_name) (max_over_time(${selector(metric, matchers)}[${w}]) * on (namespace, pod) group_left (owner_name) ${podJobOwner(matchers, w)})`;

/**
 * One time per Job of the namespaces, with the kind and name of its owner (`CronJob`, or
 * `<none>`): the most a Job's gauge took over the window, so Jobs a CronJob's history limit has
 * since deleted still count.
 */
function perJob(
  family: string,
  metric: string,
  what: string,
  scope: CapacityScope,
  namespaces: readonly string[],
  o: QueryOptions,
): NamedQuery {
  return {
    id: queryId(family, scope),
    kind: 'instant',
    promql: jobTimes(metric, [oneOf('namespace', namespaces)], minutes(o.windowMinutes)),
    what: `${what} of the Jobs in ${namespaces.join(', ')} (${metric}), for ${describeScope(scope)}`,
    how: HOW_KSM,
  };
}

/** When each Job of the namespaces started, unix seconds. */
const jobStarts = (scope: CapacityScope, namespaces: readonly string[], o: QueryOptions): NamedQuery =>
  perJob(JOB_STARTS_FAMILY, 'kube_job_status_start_time', 'start times', scope, namespaces, o);

/** When each Job of the namespaces completed, unix seconds; a Job still running or failed has none. */
const jobCompletions = (scope: CapacityScope, namespaces: readonly string[], o: QueryOptions): NamedQuery =>
  perJob(JOB_COMPLETIONS_FAMILY, 'kube_job_status_completion_time', 'completion times', scope, namespaces, o);

/**
 * One time per pod a Job owns, with that Job's name: where kube-state-metrics exports no Job
 * series (its `jobs` collector turned off), the pods' lifetimes stand for their Job's run.
 */
function perJobPod(
  family: string,
  metric: string,
  what: string,
  scope: CapacityScope,
  namespaces: readonly string[],
  o: QueryOptions,
): NamedQuery {
  return {
    id: queryId(family, scope),
    kind: 'instant',
    promql: jobPodTimes(metric, [oneOf('namespace', namespaces)], minutes(o.windowMinutes)),
    what: `${what} of the Job pods in ${namespaces.join(', ')} (${metric}), for ${describeScope(scope)}`,
    how: HOW_KSM,
  };
}

const podStarts = (scope: CapacityScope, namespaces: readonly string[], o: QueryOptions): NamedQuery =>
  perJobPod(POD_STARTS_FAMILY, 'kube_pod_start_time', 'start times', scope, namespaces, o);
const podCompletions = (scope: CapacityScope, namespaces: readonly string[], o: QueryOptions): NamedQuery =>
  perJobPod(POD_COMPLETIONS_FAMILY, 'kube_pod_completion_time', 'completion times', scope, namespaces, o);

/**
 * GPUs requested by the queue's workloads still waiting for quota. Kueue exports it from v0.19
 * on (`kueue_cluster_queue_resource_pending`); earlier releases only count pending workloads.
 */
function queuePendingGpus(scope: Extract<Scope, { kind: 'queue' }>, _o?: QueryOptions): NamedQuery {
  const sel = selector('kueue_cluster_queue_resource_pending', [eq('cluster_queue', scope.name), eq('resource', 'nvidia.com/gpu')]);
  return {
    id: queryId(QUEUE_PENDING_GPUS_FAMILY, scope),
    kind: 'range',
    promql: `sum(max without (replica_role) (${sel}))`,
    what: `GPUs pending in ${describeScope(scope)} (kueue_cluster_queue_resource_pending)`,
    how: 'scrape the kueue-controller-manager metrics (Kueue v0.19 or later) with metrics.enableClusterQueueResources: true',
  };
}

/** What a review with no catalog asks beyond a change's own queries: demand waiting, and the runs of its workloads' Jobs (and their pods). */
export function inferredQueries(scope: CapacityScope, namespaces: readonly string[], o: QueryOptions): NamedQuery[] {
  return [
    ...(scope.kind === 'queue' ? [queuePendingGpus(scope)] : []),
    ...(namespaces.length > 0
      ? [
          jobStarts(scope, namespaces, o),
          jobCompletions(scope, namespaces, o),
          podStarts(scope, namespaces, o),
          podCompletions(scope, namespaces, o),
        ]
      : []),
  ];
}
