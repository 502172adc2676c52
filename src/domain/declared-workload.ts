import type { SourceRef, Weekday } from './workload.js';

/**
 * A GPU workload the repository declares in its own manifests (a CronJob, a Deployment, a
 * RayJob …), read without a catalog. Every value carries where it was read; what no manifest
 * states (a deadline, a runtime, an outcome query) is absent, never guessed.
 */
export interface DeclaredWorkload {
  /** `metadata.name`. */
  name: string;
  namespace: string | null;
  /** The Kubernetes kind, e.g. `CronJob`, `RayJob`, `InferenceService`. */
  kind: string;
  /** What the kind says it is: a job that runs and ends, a training run, or a long-running service. */
  type: 'batch' | 'training' | 'inference';
  source: SourceRef;
  /** Each group of identical pods: a Job's pods, a Ray worker group, a PyTorchJob's workers … */
  groups: PodGroup[];
  /** The GPU resource the pods request (`nvidia.com/gpu`, `amd.com/gpu` …). */
  gpuResource: string;
  /** A CronJob's schedule. */
  schedule: { cron: string; timeZone: string | null; source: SourceRef } | null;
  /** The longest a run may take (`activeDeadlineSeconds`), in minutes: a bound, not a deadline of day. */
  maxRuntimeMinutes: { value: number; source: SourceRef } | null;
  /**
   * Where the namespace came from when the manifest names none: the `namespace:` of a kustomization
   * that applies it. Absent when the manifest names its own, or nothing does.
   */
  namespaceFrom?: SourceRef;
  /** Kueue: the `kueue.x-k8s.io/queue-name` label, and the ClusterQueue its LocalQueue points at. */
  localQueue: { name: string; source: SourceRef } | null;
  clusterQueue: { name: string; source: SourceRef } | null;
  /** How the LocalQueue was found, or why it was not; absent without a queue-name label. */
  queueLookup?: QueueLookup;
  /** The node pool its pods are pinned to, and by which label. */
  pool: { name: string; label: string; source: SourceRef } | null;
  /** An instance type its pods are pinned to (`node.kubernetes.io/instance-type`, KAITO's `instanceType`). */
  instanceType: { name: string; source: SourceRef } | null;
}

/** A LocalQueue of the repository, as a lookup names it. */
export interface LocalQueueSeen {
  namespace: string | null;
  clusterQueue: string;
  source: SourceRef;
}

/**
 * How a queue-name label was followed to a ClusterQueue (report/ words each code):
 * - `namespace`: the LocalQueue of that name in the workload's namespace.
 * - `agree`: the workload's namespace is not known, and every LocalQueue of that name leads to the same ClusterQueue.
 * - `nearest`: of LocalQueues leading to different ClusterQueues, the one beside the workload (same file or folder).
 * - `default-namespace`: the workload names no namespace, so it runs in `default` unless applied elsewhere; the one there.
 * - `ambiguous`: LocalQueues of that name lead to different ClusterQueues and nothing tells which applies.
 * - `other-namespaces`: none in the workload's namespace; `candidates` are the ones elsewhere.
 * - `none`: no LocalQueue of that name in the repository.
 * `candidates` are the LocalQueues of that name (for `namespace`, those that matched).
 */
export interface QueueLookup {
  code: 'namespace' | 'agree' | 'nearest' | 'default-namespace' | 'ambiguous' | 'other-namespaces' | 'none';
  candidates: LocalQueueSeen[];
}

export interface PodGroup {
  /** `worker`, `head`, `Master`, `leader` … or the kind's own name for a single group. */
  role: string;
  gpusPerPod: number;
  /** How many such pods run at once: parallelism, replicas, a worker group's replicas … */
  pods: number;
  source: SourceRef;
}

export function gpusOf(w: DeclaredWorkload): number {
  return w.groups.reduce((sum, g) => sum + g.gpusPerPod * g.pods, 0);
}

/** What a draft catalog (`gpu-justify init`) knows of a CronJob's schedule in UTC, worked out by the caller. */
export interface DraftSchedule {
  /** Runs a day. */
  jobsPerDay: number;
  /** The first run's start, minutes after 00:00 UTC. */
  earliestStartUtc: number;
  days?: Weekday[];
  /** How the UTC time was found, for the comment: `in Europe/Paris (UTC+01:00 on 2026-12-01)`. */
  how: string;
}

/** A declared workload as a draft catalog entry states it. */
export interface DraftEntry {
  workload: DeclaredWorkload;
  /** The name the entry takes: the manifest's, made unique across namespaces. */
  name: string;
  /** Null when the schedule is absent or could not be read as a daily pattern. */
  schedule: DraftSchedule | null;
}
