import { FIELD_LABEL, HOW_POOL_DCGM, HOW_WORKLOAD_DCGM, SM_FIELDS } from '../../domain/index.js';
import type { Matcher } from '../promql.js';
import { matchersFrom, num, quote, selector } from '../promql.js';
import { DCGM_PROF, eitherName, namesOf } from './dcgm-fields.js';
import type { DcgmNames } from './dcgm-fields.js';
import type { NamedQuery, QueryOptions, Scope } from './named-query.js';
import { describeScope, poolNodeMatcher, queryId } from './named-query.js';

/** dcgm-exporter writes int64 "blank" (≈ 9.22e18) when a field has no value. */
export const DCGM_BLANK_ABOVE = 9.2e18;

/** Labels the exporter sets from pod-resources; behind a ServiceMonitor without honorLabels they gain `exported_`. */
const POD_LABELS = new Set(['namespace', 'pod', 'container']);

function filtered(metric: string, matchers: readonly Matcher[]): string {
  return `(${selector(metric, matchers)} < ${num(DCGM_BLANK_ABOVE)})`;
}

/** Every node's DCGM series of `metric`, blank values filtered, with the Kubernetes node as `node`. */
export function dcgmByNode(metric: string, matchers: readonly Matcher[] = []): string {
  // dcgm-exporter names the node `Hostname` in releases and `hostname` on main.
  return `label_replace(label_replace(${filtered(metric, matchers)}, "node", "$1", "Hostname", "(.+)"), "node", "$1", "hostname", "(.+)")`;
}

/**
 * The scope's DCGM series, blank values filtered: for a workload, its selector matched both as
 * `namespace`/`pod` (honorLabels) and as `exported_namespace`/`exported_pod` (without).
 */
export function dcgmSeries(metric: string, scope: Scope, extra: readonly Matcher[] = []): string {
  switch (scope.kind) {
    case 'workload': {
      const direct = [...matchersFrom(scope.selector), ...extra];
      const exported = direct.map((m) => (POD_LABELS.has(m.name) ? { ...m, name: `exported_${m.name}` } : m));
      if (!direct.some((m) => POD_LABELS.has(m.name))) return filtered(metric, direct);
      return `(${filtered(metric, direct)} or ${filtered(metric, exported)})`;
    }
    case 'pool': {
      const withNode = dcgmByNode(metric, extra);
      const poolNodes = `max by (node) (${selector('kube_node_labels', [poolNodeMatcher(scope)])})`;
      return `(${withNode} * on (node) group_left () ${poolNodes})`;
    }
    case 'queue':
      // Kueue queues have no DCGM labels: their GPUs are found through their workloads.
      throw new Error('DCGM series are per workload or per pool, not per queue');
  }
}

const howFor = (scope: Scope) => (scope.kind === 'pool' ? HOW_POOL_DCGM : HOW_WORKLOAD_DCGM);

/** The scope's series of a field under any of its names, one per GPU. */
const dcgmField = (names: DcgmNames, scope: Scope, extra: readonly Matcher[] = []) => eitherName(names, (m) => dcgmSeries(m, scope, extra));

function dcgmQuery(family: string, names: DcgmNames, what: string, scope: Scope, how = howFor(scope)): NamedQuery {
  return {
    id: queryId(family, scope),
    kind: 'range',
    promql: `avg(${dcgmField(names, scope)})`,
    what: `${what} of ${describeScope(scope)} (${namesOf(names)})`,
    how,
    blankAbove: DCGM_BLANK_ABOVE,
  };
}

/** Profiling fields are in the default counters CSV; a CSV without them leaves them unmeasured. */
const profHow = (scope: Scope, names: DcgmNames) =>
  `${howFor(scope)}, with ${names[0] ?? ''} in its counters CSV (dcp-metrics-included.csv)`;

export const gpuUtil = (scope: Scope, _o?: QueryOptions) =>
  dcgmQuery('dcgm.gpu-util', ['DCGM_FI_DEV_GPU_UTIL'], 'GPU busy % (mean over GPUs)', scope);
export const tensorActive = (scope: Scope, _o?: QueryOptions) =>
  dcgmQuery('dcgm.tensor-active', DCGM_PROF.tensor, 'tensor pipe activity (0–1)', scope, profHow(scope, DCGM_PROF.tensor));
export const dramActive = (scope: Scope, _o?: QueryOptions) =>
  dcgmQuery('dcgm.dram-active', DCGM_PROF.dram, 'memory bandwidth activity (0–1)', scope, profHow(scope, DCGM_PROF.dram));
export const fbUsed = (scope: Scope, _o?: QueryOptions) =>
  dcgmQuery('dcgm.fb-used', ['DCGM_FI_DEV_FB_USED'], 'framebuffer used, MiB (mean per GPU)', scope);

/**
 * SM activity when the exporter has it (off by default), else graphics-engine activity, each under
 * either of its names (dcgm-fields.ts). The
 * answer carries `dcgm_field` naming the one used; `or on ()` takes the fallback only when the
 * first field has no series at that time.
 */
export function smActivity(scope: Scope, _o?: QueryOptions): NamedQuery {
  const [sm, gr] = SM_FIELDS;
  // The tag keeps the legacy name whichever name the series carried: it names the field, not the series.
  const tagged = (field: string, names: DcgmNames) =>
    `label_replace(avg(${dcgmField(names, scope)}), ${quote(FIELD_LABEL)}, ${quote(field)}, "", "")`;
  return {
    id: queryId('dcgm.sm-activity', scope),
    kind: 'range',
    promql: `${tagged(sm, DCGM_PROF.sm)} or on () ${tagged(gr, DCGM_PROF.gr)}`,
    what: `SM activity of ${describeScope(scope)} (${namesOf(DCGM_PROF.sm)}, else ${namesOf(DCGM_PROF.gr)})`,
    how: `${howFor(scope)}; enable ${sm} in its counters CSV for the finer measure`,
    blankAbove: DCGM_BLANK_ABOVE,
  };
}
