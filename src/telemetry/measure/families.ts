import type { MeasureKey, MeasureName, ScopeId } from '../../domain/index.js';
import { POD_GPUS_FAMILY } from '../queries/dcgm-pods.js';
import { REPLICA_PEAKS_FAMILY } from '../queries/dcgm-replicas.js';
import { GPU_PENDING_FAMILY } from '../queries/kube.js';
import { QUEUE_MIG_USAGE_FAMILY } from '../queries/kueue.js';
import { MIG_ACTIVITY_FAMILY, MIG_PODS_FAMILY, MIG_REQUESTS_FAMILY } from '../queries/mig.js';

/**
 * The query family that takes each measure. The families' ids are what snapshots store answers
 * under, so they stay as they are; analysis knows the measures alone.
 */
const FAMILY_OF: Readonly<Record<MeasureName, string>> = {
  'gpu-requests': 'ksm.gpu-requests',
  'gpu-requests-pending': GPU_PENDING_FAMILY,
  'gpu-allocatable': 'ksm.gpu-allocatable',
  'gpu-busy-percent': 'dcgm.gpu-util',
  'sm-activity': 'dcgm.sm-activity',
  'tensor-activity': 'dcgm.tensor-active',
  'dram-activity': 'dcgm.dram-active',
  'pod-gpus': POD_GPUS_FAMILY,
  'mig-activity': MIG_ACTIVITY_FAMILY,
  'mig-requests': MIG_REQUESTS_FAMILY,
  'mig-pods': MIG_PODS_FAMILY,
  'queue-usage': 'kueue.usage',
  'queue-mig-usage': QUEUE_MIG_USAGE_FAMILY,
  'cohort-nominal-quota': 'kueue.cohort-nominal-quota',
  'cohort-usage': 'kueue.cohort-usage',
  'cohort-lending-limit': 'kueue.cohort-lending-limit',
  'cohort-borrowing-limit': 'kueue.cohort-borrowing-limit',
  'verified-outcomes': 'outcomes.verified',
  'total-outcomes': 'outcomes.total',
  'vllm-running': 'vllm.running',
  'vllm-waiting': 'vllm.waiting',
  'vllm-kv-cache': 'vllm.kv-cache',
  'vllm-preemptions': 'vllm.preemptions',
  'request-rate': 'vllm.request-rate',
  'replica-peaks': REPLICA_PEAKS_FAMILY,
};

const MEASURE_OF = new Map<string, MeasureName>(Object.entries(FAMILY_OF).map(([measure, family]) => [family, measure as MeasureName]));

const SCOPE = /^(workload|pool|queue):/;

/** The measure a query id (`<family>:<kind>:<name>`) takes; null for queries analysis does not read. */
export function measureKeyOfQuery(id: string): MeasureKey | null {
  const at = id.indexOf(':');
  if (at < 0) return null;
  const measure = MEASURE_OF.get(id.slice(0, at));
  const scope = id.slice(at + 1);
  return measure === undefined || !SCOPE.test(scope) ? null : `${measure}:${scope as ScopeId}`;
}

/** The id of the query that takes a measure of a scope. */
export function queryIdOfMeasure(measure: MeasureName, scope: ScopeId): string {
  return `${FAMILY_OF[measure]}:${scope}`;
}
