import type { CapacityChange, JobWorkload, InferenceWorkload, Policy } from '../src/domain/index.js';
import { DEFAULT_POLICY } from '../src/domain/index.js';

/** What a test overrides: a property given as `undefined` is removed (`queue: undefined` = no queue). */
type Overrides<T> = { [K in keyof T]?: T[K] | undefined };

function merged<T extends object>(defaults: T, over: Overrides<T>): T {
  const out: Record<string, unknown> = { ...defaults, ...over };
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as T;
}

export function queueChange(name: string, before: number, after: number, over: Overrides<CapacityChange> = {}): CapacityChange {
  return merged(
    {
      file: 'clusters/queues.yaml',
      line: 12,
      kind: 'kueue-cluster-queue',
      name,
      gpuModel: null,
      gpusBefore: before,
      gpusAfter: after,
      delta: after - before,
    },
    over,
  );
}

// The catalog line of each workload made here, counted from 2 in each test file: the unit project
// shares this module among its files (vitest.config.ts), so the setup file restarts the count.
let nextLine = 2;
export function restartCatalogLines(): void {
  nextLine = 2;
}

export function batch(over: Overrides<JobWorkload> & { name: string }): JobWorkload {
  return merged<JobWorkload>(
    {
      type: 'batch',
      queue: 'research',
      gpusPerJob: 2,
      runtime: 120,
      jobsPerDay: 1,
      window: { earliestStart: 0, deadline: 360 },
      interruptible: false,
      source: { file: 'gpu-workloads.yaml', line: nextLine++ },
      name: over.name,
    },
    over,
  );
}

export function service(over: Overrides<InferenceWorkload> & { name: string }): InferenceWorkload {
  return merged<InferenceWorkload>(
    {
      type: 'inference',
      queue: 'research',
      gpusPerReplica: 1,
      replicas: 2,
      alternatives: [],
      source: { file: 'gpu-workloads.yaml', line: nextLine++ },
      name: over.name,
    },
    over,
  );
}

export function policy(over: Overrides<Policy> = {}): Policy {
  return merged(DEFAULT_POLICY, over);
}
