import type { Evidence, MissingEvidence } from './verdict.js';
import type { FieldOrigin } from './workload.js';

/** One value and where it came from; `value` null means nothing states it. */
export interface InferredField<T> {
  value: T | null;
  origin: FieldOrigin | null;
}

/**
 * A workload of a changed pool or queue as the review knows it without (or beyond) the catalog:
 * the catalog entry wins field by field, then telemetry, then the manifests. What nothing states
 * stays null, never guessed. One workload however many sources name it.
 */
export interface InferredWorkload {
  name: string;
  namespace: string | null;
  type: 'batch' | 'training' | 'inference';
  /** Every GPU one run (or, for a service, all its replicas) holds at once. */
  gpus: InferredField<number>;
  /** Minutes one run takes. */
  runtimeMinutes: InferredField<number>;
  jobsPerDay: InferredField<number>;
  /** Minutes after 00:00 UTC the first run of the day starts. */
  earliestStartUtc: InferredField<number>;
  /** Minutes after 00:00 UTC runs must be done by. */
  deadlineUtc: InferredField<number>;
  /** Runs telemetry saw over the window; 0 when it saw none or was not asked. */
  runsObserved: number;
}

/** One run of a Kubernetes Job as kube-state-metrics reports it. */
export interface JobRun {
  namespace: string;
  job: string;
  /** The CronJob that created it (kube_job_owner), or null. */
  cronJob: string | null;
  /** Unix seconds. */
  startedAt: number;
  /** Unix seconds; null while it runs or when it failed. */
  completedAt: number | null;
}

/** The Job runs seen over the window in the namespaces of a change's workloads. */
export interface ObservedJobRuns {
  runs: JobRun[];
  evidence: Evidence[];
}

/**
 * GPU demand on a changed pool or queue over the window: what pods requested (pool) or Kueue
 * admitted (queue), and what waited for quota where Kueue exports it.
 */
export interface DemandProfile {
  scope: 'pool' | 'queue';
  name: string;
  /** Most GPUs held at once. */
  peakHeld: number;
  /** Most GPUs pending at once (kueue_cluster_queue_resource_pending); null where not exported. */
  peakPending: number | null;
  /** Most workloads pending at once (kueue_pending_workloads); null when not asked or not exported. */
  peakPendingWorkloads: number | null;
  /** Most GPUs held plus pending at one time. */
  peakDemand: number;
  /** Held plus pending GPU-hours over the window, per day. */
  gpuHoursPerDay: number;
  /** Days of the window the profile covers. */
  days: number;
  evidence: Evidence[];
}

/** Telemetry about one changed pool or queue, as typed measurements. */
export interface ChangeObservations {
  demand: DemandProfile | null;
  jobRuns: ObservedJobRuns | null;
  /** What the source could not answer of these. */
  missing: MissingEvidence[];
}

/** GPUs the batch jobs need to be done by one time of day: the peak of the best schedule found, so at most that. */
export interface DeadlineRung {
  /** Minutes after 00:00 UTC. */
  deadlineUtc: number;
  gpus: number;
}

/**
 * What each deadline of the day would need, for batch jobs no source gives a deadline: tightest
 * first, then each later time that needs fewer GPUs.
 */
export interface DeadlineLadder {
  workloads: string[];
  rungs: DeadlineRung[];
  /** GPUs there today. */
  capacity: number;
  /** The earliest deadline today's GPUs meet; null when none of the day does. */
  capacityDoneBy: number | null;
}

/** GPUs the pods of one Job requested over the window, summed over its pods. */
export interface JobGpus {
  namespace: string;
  job: string;
  gpus: number;
}

/** Every Job of the cluster whose pods requested GPUs over a window: its runs and its GPUs. */
export interface ObservedGpuJobs {
  /** Their runs; its evidence is the start and completion queries. */
  runs: ObservedJobRuns;
  gpus: JobGpus[];
  gpuEvidence: Evidence[];
}

/** One workload as its Job runs show it: the runs of a CronJob, or one Job's own. */
export interface ObservedWorkload {
  namespace: string;
  /** The CronJob's name, or the Job's when no CronJob made it. */
  name: string;
  kind: 'CronJob' | 'Job';
  runs: number;
  /** Minutes the completed runs took; null when none completed. */
  runtime: { completed: number; median: number; p90: number; longest: number } | null;
  /** Minutes after 00:00 UTC of the earliest start of the day. */
  earliestStartUtc: number | null;
  runsPerDay: number | null;
  /** Most GPUs the pods of one run requested; null when no request was seen. */
  gpusPerRun: number | null;
}

/** What telemetry saw of a draft catalog's workloads, and of GPU workloads no manifest declares. */
export interface ObservedForDraft {
  /** By draft entry name: what its runs show, for the entries telemetry saw run. */
  declared: Map<string, ObservedWorkload>;
  /** GPU workloads seen run that no manifest of the repository declares, by namespace and name. */
  undeclared: ObservedWorkload[];
}
