/**
 * What telemetry measures for a review, by meaning rather than by query: a measure of one scope.
 * Analysis asks for `gpu-busy-percent` of `pool:a`; which PromQL answered it is telemetry's
 * business, told only in the measurement's evidence.
 */

/** A catalog workload, a node pool, or a Kueue ClusterQueue. */
type MeasureScopeKind = 'workload' | 'pool' | 'queue';

/** `pool:<name>`, `queue:<name>`, `workload:<name>`. */
export type ScopeId = `${MeasureScopeKind}:${string}`;

export type MeasureName =
  /** GPUs (nvidia.com/gpu) held by the scope's Running pods over time (kube-state-metrics requests and pod phase). */
  | 'gpu-requests'
  /** GPUs (nvidia.com/gpu) requested by a workload's Pending pods over time: waiting, not running. */
  | 'gpu-requests-pending'
  /** GPUs a pool's nodes can allocate over time. */
  | 'gpu-allocatable'
  /** Mean busy percentage per GPU over time, 0–100 (DCGM GPU_UTIL). */
  | 'gpu-busy-percent'
  /** Mean SM activity per GPU, 0–1; each series names the field that answered (SERIES_LABELS.computeField). */
  | 'sm-activity'
  /** Mean tensor-pipe activity per GPU, 0–1. */
  | 'tensor-activity'
  /** Mean memory-bandwidth activity per GPU, 0–1. */
  | 'dram-activity'
  /** Per pod of a pool, the GPUs it holds and how many of them are busy (parts POD_PARTS). */
  | 'pod-gpus'
  /** MIG instances and whole GPUs of the scope, per profile (parts MIG_ACTIVITY_PARTS). */
  | 'mig-activity'
  /** MIG devices requested and allocatable, per resource or profile (parts MIG_REQUEST_PARTS). */
  | 'mig-requests'
  /** Per pod of a pool, MIG instances held and busy, per profile (parts MIG_POD_PARTS). */
  | 'mig-pods'
  /** GPUs a ClusterQueue admitted over time, per flavor. */
  | 'queue-usage'
  /** MIG devices a ClusterQueue admitted over time, per Kueue resource name. */
  | 'queue-mig-usage'
  /** Nominal GPU quota of every ClusterQueue in the queue's cohort, per queue. */
  | 'cohort-nominal-quota'
  /** Admitted GPUs of every ClusterQueue in the queue's cohort over time, per queue. */
  | 'cohort-usage'
  /** lendingLimit of every ClusterQueue in the queue's cohort, per queue (unset: at or above KUEUE_UNLIMITED_AT). */
  | 'cohort-lending-limit'
  /** borrowingLimit of every ClusterQueue in the queue's cohort, per queue (unset: at or above KUEUE_UNLIMITED_AT). */
  | 'cohort-borrowing-limit'
  /** Verified outcomes over the catalog's own range (one number). */
  | 'verified-outcomes'
  /** All outcomes over the catalog's own range (one number). */
  | 'total-outcomes'
  /** vLLM requests running, waiting, and KV-cache use over time. */
  | 'vllm-running'
  | 'vllm-waiting'
  | 'vllm-kv-cache'
  /** vLLM preemptions over the window (one number). */
  | 'vllm-preemptions'
  /** Requests per second a service served over time. */
  | 'request-rate'
  /** Per replica of a service on whole GPUs, its peaks over the window (parts REPLICA_PEAKS). */
  | 'replica-peaks';

/** One measure of one scope: `gpu-busy-percent:pool:a`. */
export type MeasureKey = `${MeasureName}:${ScopeId}`;

export function measureKey(name: MeasureName, scope: ScopeId): MeasureKey {
  return `${name}:${scope}`;
}

/**
 * Kueue v0.19 on reports an unset lendingLimit or borrowingLimit as +Inf; telemetry clamps it to
 * this, so a sum over flavors stays a number, and any value at or above it means "unset".
 */
export const KUEUE_UNLIMITED_AT = 1e15;
