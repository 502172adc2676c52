import type { CapacityChange } from './capacity.js';
import type { Target } from './missing.js';

/**
 * What a capacity change serves: a ClusterQueue change serves its queue, anything else its node
 * pool. Every rule that links workloads, telemetry or supply to a change goes through this one.
 */
export function servedBy(change: Pick<CapacityChange, 'kind' | 'name'>): Target {
  return { kind: change.kind === 'kueue-cluster-queue' ? 'queue' : 'pool', name: change.name };
}

/** Whether something naming a queue and a pool (a catalog entry, a manifest) runs in the target. */
export function runsIn(target: Target, links: { queue?: string | null | undefined; pool?: string | null | undefined }): boolean {
  return (target.kind === 'queue' ? links.queue : links.pool) === target.name;
}
