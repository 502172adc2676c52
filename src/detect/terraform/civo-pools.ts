import { civoShape } from '../kit/gpu-types/index.js';
import { nameOr } from './eks-aks.js';
import type { PoolReading } from './gpu-shape.js';
import { literalString } from './gpu-shape.js';
import { PoolContext as Context, single, Unknown } from './pool-context.js';
import type { PoolContext } from './pool-context.js';

/**
 * Civo Kubernetes node pools (civo/civo Terraform provider): `civo_kubernetes_node_pool` and the
 * `pools` block of `civo_kubernetes_cluster`, each `node_count` × the GPUs its `size` names. A
 * GPU size whose GPUs are not known (`g4g.kube.large`) leaves the count unknown, never 0.
 */

/** civo_kubernetes_node_pool: node_count × the GPUs of its size. */
export function readCivoPool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const size = literalString(ctx, body.size, 'size', ['size']);
  if (size === null) return null;
  const shape = civoShape(size);
  if (shape === 'cpu') return null;
  if (shape === null) {
    ctx.warn(ctx.line(['size']), `size "${size}" is a Civo GPU size whose GPUs per node are not known: cannot tell the GPU count`);
    throw new Unknown('size');
  }
  const nodes = ctx.count(body.node_count, 'node_count', ['node_count']);
  if (nodes === null) {
    ctx.warn(ctx.block.line, 'sets no node_count: cannot tell the GPU count');
    throw new Unknown('node_count');
  }
  return {
    name: nameOr(ctx, body.label, 'label', label),
    gpusPerNode: shape.gpus,
    gpuModel: shape.model,
    maxNodes: nodes,
    line: ctx.line(['node_count']),
  };
}

/** civo_kubernetes_cluster: its `pools` block, read as a node pool of its own. */
export function readCivoClusterPool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  if (body.pools === undefined) return null;
  const pool = single(body.pools);
  const span = ctx.loc.path(ctx.block, ['pools']);
  if (span === null) {
    // A pools block that cannot be placed in the text is a pool not read, never no pool.
    ctx.warn(ctx.block.line, 'its pools block could not be located in the text: cannot tell the GPU count');
    throw new Unknown('pools');
  }
  const inner = new Context(ctx.file, ctx.loc, span, ctx.scope, `${ctx.address}.pools`);
  try {
    return readCivoPool(inner, pool, label);
  } finally {
    ctx.diagnostics.push(...inner.diagnostics);
  }
}
