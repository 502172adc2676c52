import { eq, minutes, selector } from '../promql.js';
import { HOW_KSM, KSM_GPU_RESOURCE } from './kube.js';
import { jobPodTimes, jobTimes, podJobOwner } from './jobs.js';
import type { NamedQuery, QueryOptions } from './named-query.js';

export const GPU_JOBS_FAMILY = 'ksm.gpu-jobs';
export const GPU_JOB_STARTS_FAMILY = 'ksm.gpu-job-starts';
export const GPU_JOB_COMPLETIONS_FAMILY = 'ksm.gpu-job-completions';
export const GPU_JOB_POD_STARTS_FAMILY = 'ksm.gpu-job-pod-starts';
export const GPU_JOB_POD_COMPLETIONS_FAMILY = 'ksm.gpu-job-pod-completions';

/** The whole cluster: a draft catalog asks what runs anywhere, not in one pool or queue. */
const id = (family: string) => `${family}:cluster`;

/**
 * The queries of `gpu-justify init --prometheus`: every Job of the cluster whose pods requested
 * GPUs over the window, the GPUs they requested, and when each started and completed (from the
 * Job's series, or its pods' where kube-state-metrics exports no Job series). Instant queries,
 * each Job's gauge at its most over the window, so Jobs deleted since still count.
 */
export function gpuJobQueries(o: QueryOptions): NamedQuery[] {
  const w = minutes(o.windowMinutes);
  const podGpus = `sum by (namespace, pod) (max_over_time(${selector('kube_pod_container_resource_requests', [eq('resource', KSM_GPU_RESOURCE)])}[${w}]))`;
  const jobGpus = `sum by (namespace, owner_name) (${podGpus} * on (namespace, pod) group_left (owner_name) ${podJobOwner([], w)})`;
  const gpuJobNames = `label_replace(${jobGpus}, "job_name", "$1", "owner_name", "(.+)")`;
  // The times every Job (and Job pod) has, kept only for those whose pods requested GPUs.
  const perJob = (metric: string) => `${jobTimes(metric, [], w)} and on (namespace, job_name) ${gpuJobNames}`;
  const perPod = (metric: string) => `${jobPodTimes(metric, [], w)} and on (namespace, pod) ${podGpus}`;
  const q = (family: string, promql: string, what: string): NamedQuery => ({ id: id(family), kind: 'instant', promql, what, how: HOW_KSM });
  return [
    q(GPU_JOBS_FAMILY, jobGpus, 'GPUs requested by the pods of each Job (kube_pod_container_resource_requests, kube_pod_owner)'),
    q(GPU_JOB_STARTS_FAMILY, perJob('kube_job_status_start_time'), 'start times of the GPU Jobs (kube_job_status_start_time)'),
    q(
      GPU_JOB_COMPLETIONS_FAMILY,
      perJob('kube_job_status_completion_time'),
      'completion times of the GPU Jobs (kube_job_status_completion_time)',
    ),
    q(GPU_JOB_POD_STARTS_FAMILY, perPod('kube_pod_start_time'), 'start times of the GPU Jobs’ pods (kube_pod_start_time)'),
    q(
      GPU_JOB_POD_COMPLETIONS_FAMILY,
      perPod('kube_pod_completion_time'),
      'completion times of the GPU Jobs’ pods (kube_pod_completion_time)',
    ),
  ];
}
