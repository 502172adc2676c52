import type { Matcher } from '../promql.js';
import { eq } from '../promql.js';

/** What a query is about: one catalog workload, one node pool, or one Kueue ClusterQueue. */
export type Scope =
  | { kind: 'workload'; name: string; selector: Readonly<Record<string, string>> }
  /** `poolLabel` is the node label naming the pool, e.g. `karpenter.sh/nodepool`. */
  | { kind: 'pool'; name: string; poolLabel: string }
  | { kind: 'queue'; name: string };

/** A query with a stable id, the PromQL text, and what to tell the reader when it has no answer. */
export interface NamedQuery {
  /** `<family>:<scope kind>:<scope name>`, e.g. `dcgm.gpu-util:workload:nightly-eval`. */
  id: string;
  /** Measures a level over time (range) or one number over the window (instant). */
  kind: 'instant' | 'range';
  promql: string;
  /** What it measures, for missing-evidence lines. */
  what: string;
  /** How an operator makes it answerable. */
  how: string;
  /** Values at or above this are "blank" (DCGM), never numbers. */
  blankAbove?: number;
}

export interface QueryOptions {
  /** The look-back, whole minutes (policy `window`). */
  windowMinutes: number;
  /** Window of rate()/increase() inside range queries, minutes; 5 unless the scrape interval is long. */
  rateWindowMinutes?: number;
}

function scopeLabel(scope: Scope): string {
  return `${scope.kind}:${scope.name}`;
}

export function queryId(family: string, scope: Scope): string {
  return `${family}:${scopeLabel(scope)}`;
}

export function describeScope(scope: Scope): string {
  switch (scope.kind) {
    case 'workload':
      return `workload ${scope.name}`;
    case 'pool':
      return `node pool ${scope.name}`;
    case 'queue':
      return `ClusterQueue ${scope.name}`;
  }
}

/** kube-state-metrics' node label series for a pool label such as `karpenter.sh/nodepool`. */
function nodeLabelName(poolLabel: string): string {
  return `label_${poolLabel.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

export function poolNodeMatcher(scope: { name: string; poolLabel: string }): Matcher {
  return eq(nodeLabelName(scope.poolLabel), scope.name);
}
