import type { CapacityChange, JobWorkload, InferenceWorkload, Policy } from '../src/domain/index.js';
import { DEFAULT_POLICY } from '../src/domain/index.js';

export function queueChange(name: string, before: number, after: number, over: Partial<CapacityChange> = {}): CapacityChange {
  return {
    file: 'clusters/queues.yaml',
    line: 12,
    kind: 'kueue-cluster-queue',
    name,
    gpuModel: null,
    gpusBefore: before,
    gpusAfter: after,
    delta: after - before,
    ...over,
  };
}

let nextLine = 2;
export function batch(over: Partial<JobWorkload> & { name: string }): JobWorkload {
  return {
    type: 'batch',
    queue: 'research',
    gpusPerJob: 2,
    runtime: 120,
    jobsPerDay: 1,
    window: { earliestStart: 0, deadline: 360 },
    interruptible: false,
    source: { file: 'gpu-workloads.yaml', line: nextLine++ },
    ...over,
  };
}

export function service(over: Partial<InferenceWorkload> & { name: string }): InferenceWorkload {
  return {
    type: 'inference',
    queue: 'research',
    gpusPerReplica: 1,
    replicas: 2,
    alternatives: [],
    source: { file: 'gpu-workloads.yaml', line: nextLine++ },
    ...over,
  };
}

export function policy(over: Partial<Policy> = {}): Policy {
  return { ...DEFAULT_POLICY, ...over };
}
