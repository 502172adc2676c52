import { HOW_POD_MAPPING, MIG_PROFILE_LABEL, REPLICA_PEAKS } from '../../domain/index.js';
import { eq, labelList, minutes } from '../promql.js';
import { DCGM_BLANK_ABOVE, dcgmSeries } from './dcgm.js';
import { DCGM_PROF } from './dcgm-fields.js';
import { copyLabel, tag } from './dcgm-pods.js';
import type { NamedQuery, QueryOptions } from './named-query.js';
import { describeScope, queryId } from './named-query.js';
import type { WorkloadScope } from './vllm.js';

export const REPLICA_PEAKS_FAMILY = 'dcgm.replica-peaks';

/** Each DCGM field under every name it has been exported by (dcgm-fields.ts). */
const FIELDS = {
  fb: ['DCGM_FI_DEV_FB_USED'],
  free: ['DCGM_FI_DEV_FB_FREE'],
  sm: DCGM_PROF.sm,
  gr: DCGM_PROF.gr,
  util: ['DCGM_FI_DEV_GPU_UTIL'],
} as const;

/**
 * Per replica (pod) of a service on whole GPUs (no MIG instance), the most it used over the window
 * of each field: framebuffer used (MiB), SM activity, graphics-engine activity (0–1), GPU_UTIL (%),
 * and framebuffer used + free (MiB, its GPU's memory), with the GPU model. What the MIG and
 * time-slicing levers size a slice by. One instant query, each part tagged with `measure`.
 */
export function replicaPeaks(scope: WorkloadScope, o: QueryOptions): NamedQuery {
  const whole = [eq(MIG_PROFILE_LABEL, '')];
  const mapped = (expr: string) => copyLabel(copyLabel(expr, 'pod', 'exported_pod'), 'namespace', 'exported_namespace');
  const series = (names: readonly string[]) => `(${names.map((n) => mapped(dcgmSeries(n, scope, whole))).join(' or ')})`;
  const by = labelList(['namespace', 'pod', 'modelName']);
  const w = minutes(o.windowMinutes);
  const peak = (expr: string) => `max by ${by} (max_over_time(${expr}[${w}:5m]))`;
  const parts = [
    tag(peak(series(FIELDS.fb)), REPLICA_PEAKS.fb),
    tag(peak(series(FIELDS.sm)), REPLICA_PEAKS.sm),
    tag(peak(series(FIELDS.gr)), REPLICA_PEAKS.gr),
    tag(peak(series(FIELDS.util)), REPLICA_PEAKS.util),
    tag(peak(`(${series(FIELDS.fb)} + ${series(FIELDS.free)})`), REPLICA_PEAKS.total),
  ];
  return {
    id: queryId(REPLICA_PEAKS_FAMILY, scope),
    kind: 'instant',
    promql: parts.join(' or '),
    what: `peak framebuffer, SM and graphics-engine activity of each replica of ${describeScope(scope)} over the window (DCGM_FI_DEV_FB_USED, ${FIELDS.sm.join(' or ')}, ${FIELDS.gr.join(' or ')} by pod)`,
    how: `${HOW_POD_MAPPING}; SM activity needs DCGM_FI_PROF_SM_ACTIVE in the exporter's counters CSV`,
    blankAbove: DCGM_BLANK_ABOVE,
  };
}
