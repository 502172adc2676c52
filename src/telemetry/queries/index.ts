import type { MeasurableWorkload } from '../../domain/index.js';
import { fbUsed, gpuUtil, dramActive, smActivity, tensorActive } from './dcgm.js';
import { podGpus } from './dcgm-pods.js';
import { replicaPeaks } from './dcgm-replicas.js';
import { gpuAllocatable, gpuRequests, gpuRequestsPending } from './kube.js';
import { migActivity, migPods, migRequests } from './mig.js';
import {
  cohortBorrowingLimit,
  cohortLendingLimit,
  cohortNominalQuota,
  cohortUsage,
  queueAdmissionWait,
  queueNominalQuota,
  queueMigUsage,
  queuePending,
  queueReservation,
  queueUsage,
} from './kueue.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { outcomeQueries } from './outcomes.js';
import {
  vllmE2eLatency,
  vllmKvCache,
  vllmPreemptions,
  vllmRequestRate,
  vllmRequestSuccess,
  vllmRunning,
  vllmTtft,
  vllmWaiting,
} from './vllm.js';

export * from './dcgm.js';
export * from './dcgm-pods.js';
export * from './kube.js';
export * from './mig.js';
export * from './mig-presence.js';
export * from './kueue.js';
export * from './named-query.js';
export * from './outcomes.js';
export * from './vllm.js';

/** Every query one catalog workload needs: DCGM, requests, vLLM for services, its outcomes. */
export function workloadQueries(w: MeasurableWorkload, o: QueryOptions): NamedQuery[] {
  const out: NamedQuery[] = [];
  if (w.selector !== undefined && Object.keys(w.selector).length > 0) {
    const scope = { kind: 'workload' as const, name: w.name, selector: w.selector };
    out.push(gpuUtil(scope), smActivity(scope), tensorActive(scope), dramActive(scope), fbUsed(scope), gpuRequests(scope));
    // Time a job's pods spent Pending is queueing, not runtime: measured apart.
    if (w.type !== 'inference') out.push(gpuRequestsPending(scope));
    out.push(migActivity(scope), migRequests(scope));
    if (w.type === 'inference') {
      out.push(
        vllmRunning(scope),
        vllmWaiting(scope),
        vllmKvCache(scope),
        vllmE2eLatency(scope, o),
        vllmTtft(scope, o),
        vllmRequestSuccess(scope, o),
        vllmRequestRate(scope, o),
        vllmPreemptions(scope, o),
        replicaPeaks(scope, o),
      );
    }
  }
  if (w.outcomes !== undefined) out.push(...outcomeQueries(w.name, w.outcomes));
  return out;
}

/** Every query a changed pool or ClusterQueue needs. */
export function capacityQueries(scope: Exclude<Scope, { kind: 'workload' }>, o: QueryOptions): NamedQuery[] {
  if (scope.kind === 'queue') {
    return [
      queueNominalQuota(scope),
      queueUsage(scope),
      queueReservation(scope),
      queuePending(scope),
      queueAdmissionWait(scope, o),
      cohortNominalQuota(scope),
      cohortUsage(scope),
      cohortLendingLimit(scope),
      cohortBorrowingLimit(scope),
      queueMigUsage(scope),
    ];
  }
  return [
    gpuAllocatable(scope),
    gpuRequests(scope),
    gpuUtil(scope),
    smActivity(scope),
    podGpus(scope),
    migActivity(scope),
    migRequests(scope),
    migPods(scope),
  ];
}
export * from './jobs.js';
