import {
  HOW_MIG_ACTIVITY,
  KSM_MIG_RESOURCE_PREFIX,
  MIG_ACTIVITY,
  MIG_POD_MEASURES,
  MIG_PROFILE_LABEL,
  MIG_REQUESTS,
} from '../../domain/index.js';
import { eq, labelList, matchersFrom, ne, re, selector } from '../promql.js';
import { DCGM_BLANK_ABOVE, dcgmByNode, dcgmSeries } from './dcgm.js';
import { DCGM_PROF, eitherName } from './dcgm-fields.js';
import type { DcgmNames } from './dcgm-fields.js';
import { copyLabel, tag } from './dcgm-pods.js';
import { HOW_KSM, KSM_GPU_RESOURCE, KSM_POD_LABELS, inPool, running } from './kube.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { describeScope, queryId } from './named-query.js';

/**
 * On a MIG GPU dcgm-exporter reports one series per GPU instance, labelled with its profile
 * (`GPU_I_PROFILE`) and id (`GPU_I_ID`) next to the parent GPU's `gpu` and `UUID`; it does not
 * report DCGM_FI_DEV_GPU_UTIL for instances, so their busy-ness is DCGM_FI_PROF_GR_ENGINE_ACTIVE.
 * kube-state-metrics reports MIG devices as resources `nvidia_com_mig_<profile>` (mixed
 * strategy) or, with the single strategy, as `nvidia_com_gpu` on nodes whose GPUs are all
 * sliced. These queries keep instances and whole GPUs apart so the analysis can weigh each
 * instance by its profile; on a cluster without MIG they answer no slices at all.
 */

export type MigScope = Exclude<Scope, { kind: 'queue' }>;

export const MIG_ACTIVITY_FAMILY = 'dcgm.mig-activity';
export const MIG_REQUESTS_FAMILY = 'ksm.mig-requests';
export const MIG_PODS_FAMILY = 'dcgm.mig-pods';

const GR = DCGM_PROF.gr;
const SM = DCGM_PROF.sm;
const UTIL = ['DCGM_FI_DEV_GPU_UTIL'] as const;
const TENSOR = DCGM_PROF.tensor;
const DRAM = DCGM_PROF.dram;

/**
 * An instance is there when any of these has a series for it: GR-engine activity needs DCGM's
 * profiling fields, framebuffer use is a default counter, and older exporters write a GPU_UTIL
 * of 0. `or` keeps one series per instance, as it ignores the metric name.
 */
export const MIG_PRESENCE_METRICS: readonly string[] = [...GR, 'DCGM_FI_DEV_FB_USED', ...UTIL];

const BY_PROFILE = labelList([MIG_PROFILE_LABEL, 'modelName']);
/** Matches the DCGM series of MIG instances only. */
export const MIG_INSTANCE = ne(MIG_PROFILE_LABEL, '');
/** Matches kube-state-metrics' mixed-strategy MIG resources only. */
export const KSM_MIG_RESOURCE = re('resource', `${KSM_MIG_RESOURCE_PREFIX}.+`);
const REQUESTS = 'kube_pod_container_resource_requests';
const ALLOCATABLE = 'kube_node_status_allocatable';

/**
 * Per profile, the scope's MIG instances and their activity; and the whole GPUs' activity,
 * summed, without their instances. In a pool a GPU that also reports instances is left out of
 * the whole GPUs: its own series would count the instances' time again.
 */
export function migActivity(scope: MigScope, _o?: QueryOptions): NamedQuery {
  const inst = (names: DcgmNames) => eitherName(names, (m) => dcgmSeries(m, scope, [MIG_INSTANCE]));
  const present = `(${MIG_PRESENCE_METRICS.map((m) => dcgmSeries(m, scope, [MIG_INSTANCE])).join(' or ')})`;
  const whole = (names: DcgmNames) => {
    const w = eitherName(names, (m) => dcgmSeries(m, scope, [eq(MIG_PROFILE_LABEL, '')]));
    return scope.kind === 'pool' ? `(${w} unless on (node, gpu) ${inst(GR)})` : w;
  };
  const parts = [
    tag(`count by ${BY_PROFILE} (${present})`, MIG_ACTIVITY.slices),
    tag(`sum by ${BY_PROFILE} (${inst(GR)})`, MIG_ACTIVITY.gr),
    tag(`sum by ${BY_PROFILE} (${inst(SM)})`, MIG_ACTIVITY.sm),
    tag(`sum by ${BY_PROFILE} (${inst(TENSOR)})`, MIG_ACTIVITY.tensor),
    tag(`sum by ${BY_PROFILE} (${inst(DRAM)})`, MIG_ACTIVITY.dram),
    tag(`sum(${whole(UTIL)}) / 100`, MIG_ACTIVITY.wholeBusy),
    tag(`sum(${whole(SM)})`, MIG_ACTIVITY.wholeSm),
    tag(`sum(${whole(GR)})`, MIG_ACTIVITY.wholeGr),
    tag(`sum(${whole(TENSOR)})`, MIG_ACTIVITY.wholeTensor),
    tag(`sum(${whole(DRAM)})`, MIG_ACTIVITY.wholeDram),
  ];
  return {
    id: queryId(MIG_ACTIVITY_FAMILY, scope),
    kind: 'range',
    promql: parts.join(' or '),
    what: `MIG instances of ${describeScope(scope)} and their activity (${GR.join(' or ')} by ${MIG_PROFILE_LABEL})`,
    how: HOW_MIG_ACTIVITY,
    blankAbove: DCGM_BLANK_ABOVE,
  };
}

/**
 * Nodes whose GPUs are sliced under the single strategy, with the profile most of their
 * instances have: DCGM reports instances there while kube-state-metrics lists no MIG resource.
 */
function singleStrategyNodes(): string {
  const perNode = `count by (node, ${MIG_PROFILE_LABEL}, modelName) (${MIG_PRESENCE_METRICS.map((m) => dcgmByNode(m, [MIG_INSTANCE])).join(' or ')})`;
  return `((topk by (node) (1, ${perNode}) > bool 0) unless on (node) ${selector(ALLOCATABLE, [KSM_MIG_RESOURCE])})`;
}

const onSingle = (expr: string) =>
  `sum by ${BY_PROFILE} (${expr} * on (node) group_left (${MIG_PROFILE_LABEL}, modelName) ${singleStrategyNodes()})`;

/** MIG devices requested by the scope (and, for a pool, allocatable there), mixed and single strategy. */
export function migRequests(scope: MigScope, _o?: QueryOptions): NamedQuery {
  const gpu = eq('resource', KSM_GPU_RESOURCE);
  let parts: string[];
  if (scope.kind === 'pool') {
    parts = [
      tag(`sum by (resource) (${inPool(running(selector(REQUESTS, [KSM_MIG_RESOURCE])), scope)})`, MIG_REQUESTS.requested),
      tag(`sum by (resource) (${inPool(selector(ALLOCATABLE, [KSM_MIG_RESOURCE]), scope)})`, MIG_REQUESTS.allocatable),
      tag(onSingle(inPool(running(selector(REQUESTS, [gpu])), scope)), MIG_REQUESTS.singleRequested),
      tag(onSingle(inPool(selector(ALLOCATABLE, [gpu]), scope)), MIG_REQUESTS.singleAllocatable),
    ];
  } else {
    const picked = matchersFrom(Object.fromEntries(Object.entries(scope.selector).filter(([k]) => KSM_POD_LABELS.has(k))));
    parts = [
      tag(`sum by (resource) (${running(selector(REQUESTS, [KSM_MIG_RESOURCE, ...picked]))})`, MIG_REQUESTS.requested),
      tag(onSingle(running(selector(REQUESTS, [gpu, ...picked]))), MIG_REQUESTS.singleRequested),
    ];
  }
  return {
    id: queryId(MIG_REQUESTS_FAMILY, scope),
    kind: 'range',
    promql: parts.join(' or '),
    what: `MIG devices requested by ${describeScope(scope)} (kube_pod_container_resource_requests, nvidia_com_mig_* and single-strategy nvidia_com_gpu)`,
    how: `${HOW_KSM}; single-strategy slices are told apart by dcgm-exporter's ${MIG_PROFILE_LABEL} on the same node`,
  };
}

/** Per pod of the pool, the MIG instances it holds by profile and their summed GR-engine activity. */
export function migPods(scope: Extract<Scope, { kind: 'pool' }>, _o?: QueryOptions): NamedQuery {
  const mapped = (expr: string) => copyLabel(copyLabel(expr, 'pod', 'exported_pod'), 'namespace', 'exported_namespace');
  const requesting = selector(REQUESTS, [re('resource', `${KSM_GPU_RESOURCE}|${KSM_MIG_RESOURCE_PREFIX}.+`)]);
  const held = (expr: string) => `(${mapped(expr)} and on (namespace, pod) ${requesting})`;
  const present = `(${MIG_PRESENCE_METRICS.map((m) => dcgmSeries(m, scope, [MIG_INSTANCE])).join(' or ')})`;
  const by = labelList(['namespace', 'pod', MIG_PROFILE_LABEL, 'modelName']);
  return {
    id: queryId(MIG_PODS_FAMILY, scope),
    kind: 'range',
    promql: `${tag(`count by ${by} (${held(present)})`, MIG_POD_MEASURES.slices)} or ${tag(`sum by ${by} (${held(eitherName(GR, (m) => dcgmSeries(m, scope, [MIG_INSTANCE])))})`, MIG_POD_MEASURES.busy)}`,
    what: `MIG instances held and their activity per pod in ${describeScope(scope)} (${GR.join(' or ')} by pod and ${MIG_PROFILE_LABEL})`,
    how: HOW_MIG_ACTIVITY,
    blankAbove: DCGM_BLANK_ABOVE,
  };
}
