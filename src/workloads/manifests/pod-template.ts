import { isWholeGpuResource } from '../../detect/kit/gpu-resources.js';
import type { NodeContext } from '../../detect/kit/manifests.js';
import { parseQuantity } from '../../detect/kit/quantity.js';
import { isMap } from 'yaml';
import { mapGet, nodeLine, scalarString, scalarValue, seqItems } from '../../detect/kit/yaml-nodes.js';
import type { SourceRef } from '../../domain/index.js';

/** The node labels that name a node pool, by the platform that sets them. */
const POOL_LABELS = [
  'karpenter.sh/nodepool',
  'cloud.google.com/gke-nodepool',
  'eks.amazonaws.com/nodegroup',
  'kubernetes.azure.com/agentpool',
  'agentpool',
  'alpha.eksctl.io/nodegroup-name',
] as const;
const INSTANCE_TYPE_LABELS = ['node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type'] as const;

export function ref(ctx: NodeContext, node: unknown, fallback: number): SourceRef {
  return { file: ctx.file, line: nodeLine(node, ctx.lc) ?? fallback };
}

/** GPUs one pod asks for: the sum over its containers of a whole-GPU resource's limit (or request). */
export function podGpus(podSpec: unknown): { gpus: number; resource: string } | null {
  let gpus = 0;
  let resource: string | null = null;
  for (const container of seqItems(mapGet(podSpec, 'containers'))) {
    const found = containerGpus(mapGet(container, 'resources'));
    if (found) {
      gpus += found.gpus;
      resource ??= found.resource;
    }
  }
  return resource && gpus > 0 ? { gpus, resource } : null;
}

/** A `resources:` block's GPUs: limits first (what the device plugin allocates), requests otherwise. */
export function containerGpus(resources: unknown): { gpus: number; resource: string } | null {
  for (const section of ['limits', 'requests']) {
    const map = mapOf(mapGet(resources, section));
    for (const pair of map?.items ?? []) {
      const key = scalarString(pair.key);
      if (key === null || !isWholeGpuResource(key)) continue;
      const count = parseQuantity(scalarValue(pair.value));
      if (count !== null && Number.isInteger(count) && count > 0 && count <= 1024) return { gpus: count, resource: key };
    }
  }
  return null;
}

/**
 * A whole-GPU resource whose count is not a number (`$GPU_PER_NODE`, a template): the node, so a
 * workload that asks for GPUs is named rather than dropped in silence. Null when every one reads.
 */
export function unreadGpus(podSpec: unknown, resources?: unknown): unknown {
  const blocks = resources !== undefined ? [resources] : seqItems(mapGet(podSpec, 'containers')).map((c) => mapGet(c, 'resources'));
  for (const block of blocks) {
    if (containerGpus(block)) continue;
    for (const section of ['limits', 'requests']) {
      for (const pair of mapOf(mapGet(block, section))?.items ?? []) {
        const key = scalarString(pair.key);
        if (key !== null && isWholeGpuResource(key) && parseQuantity(scalarValue(pair.value)) === null) return pair.value;
      }
    }
  }
  return null;
}

export interface Placement {
  pool: { name: string; label: string; source: SourceRef } | null;
  instanceType: { name: string; source: SourceRef } | null;
}

/**
 * Where a pod is pinned: a node selector, or a required node affinity with one value, on a pool's
 * or an instance type's label. Tolerations alone pin nothing.
 */
export function placement(podSpec: unknown, ctx: NodeContext, fallback: number): Placement {
  const labels = new Map<string, { value: string; node: unknown }>();
  const selector = mapOf(mapGet(podSpec, 'nodeSelector'));
  for (const pair of selector?.items ?? []) {
    const key = scalarString(pair.key);
    const value = scalarString(pair.value);
    if (key && value) labels.set(key, { value, node: pair.value });
  }
  const terms = seqItems(
    mapGet(
      mapGet(mapGet(mapGet(podSpec, 'affinity'), 'nodeAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution'),
      'nodeSelectorTerms',
    ),
  );
  // With several terms any one may match: a pool is known only when every term names the same one.
  if (terms.length === 1) {
    for (const expr of seqItems(mapGet(terms[0], 'matchExpressions'))) {
      const key = scalarString(mapGet(expr, 'key'));
      const values = seqItems(mapGet(expr, 'values'));
      const value = values.length === 1 ? scalarString(values[0]) : null;
      if (key && value && scalarString(mapGet(expr, 'operator')) === 'In' && !labels.has(key)) labels.set(key, { value, node: values[0] });
    }
  }
  const poolLabel = POOL_LABELS.find((l) => labels.has(l));
  const typeLabel = INSTANCE_TYPE_LABELS.find((l) => labels.has(l));
  const pool = poolLabel ? labels.get(poolLabel) : undefined;
  const type = typeLabel ? labels.get(typeLabel) : undefined;
  return {
    pool: pool && poolLabel ? { name: pool.value, label: poolLabel, source: ref(ctx, pool.node, fallback) } : null,
    instanceType: type ? { name: type.value, source: ref(ctx, type.node, fallback) } : null,
  };
}

/** A non-negative integer field (replicas, parallelism …), or `fallback` when absent. */
export function countField(node: unknown, key: string, fallback: number): number | null {
  const value = mapGet(node, key);
  if (value === undefined || value === null) return fallback;
  const n = scalarValue(value);
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : null;
}

function mapOf(node: unknown) {
  return isMap(node) ? node : null;
}
