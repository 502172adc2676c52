import { evaluate } from './expr-eval.js';
import { literalString, mostGpus, stringList, typeGpus } from './gpu-shape.js';
import type { PoolReading } from './gpu-shape.js';
import { PoolContext as Context, single, Unknown } from './pool-context.js';
import type { LocPath, PoolContext } from './pool-context.js';

/** The pool's name when it can be evaluated; else the fallback (a computed name is no GPU problem). */
export function nameOr(ctx: PoolContext, raw: unknown, attr: string, fallback: string): string {
  if (raw === undefined) return fallback;
  try {
    const v = ctx.value(raw, attr, [attr]);
    return typeof v === 'string' && v !== '' ? v : fallback;
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    ctx.diagnostics.pop(); // a computed name is not a GPU problem: the label stands in
    return fallback;
  }
}

/** aws_eks_node_group: scaling_config.max_size × the most GPUs of its instance types. */
export function readEksNodeGroup(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const types = stringList(ctx, body.instance_types, 'instance_types', ['instance_types']);
  if (types === null) return null; // EKS then launches t3.medium: no GPUs
  const node = mostGpus(ctx, types, 'instance_types', ['instance_types']);
  if (node === null) return null;
  const scaling = single(body.scaling_config);
  const path: LocPath = ['scaling_config', 'max_size'];
  const max = ctx.count(scaling.max_size, 'scaling_config.max_size', path);
  if (max === null) {
    ctx.warn(ctx.block.line, 'has no scaling_config.max_size: cannot tell the GPU count');
    throw new Unknown('max_size');
  }
  const name = nameOr(ctx, body.node_group_name, 'node_group_name', label);
  return {
    name,
    gpusPerNode: node.gpus,
    gpuModel: node.model,
    maxNodes: max,
    line: ctx.line(path),
    ...(node.mixed ? { mixed: true } : {}),
  };
}

/** azurerm_kubernetes_cluster_node_pool: max_count when autoscaling, else node_count. */
export function readAksPool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const vm = literalString(ctx, body.vm_size, 'vm_size', ['vm_size']);
  const node = vm === null ? null : typeGpus(ctx, vm, 'vm_size', ['vm_size']);
  if (node === null) return null;
  const flagAttr = body.auto_scaling_enabled !== undefined ? 'auto_scaling_enabled' : 'enable_auto_scaling';
  const flag = body[flagAttr] === undefined ? false : ctx.value(body[flagAttr], flagAttr, [flagAttr]);
  const autoscaled = flag === true || flag === 'true';
  const attr = autoscaled ? 'max_count' : 'node_count';
  const nodes = ctx.count(body[attr], attr, [attr]);
  if (nodes === null) {
    ctx.warn(
      ctx.line([attr]),
      autoscaled ? 'autoscales but max_count is not set: cannot tell the GPU count' : 'sets no node_count: cannot tell the GPU count',
    );
    throw new Unknown(attr);
  }
  const name = nameOr(ctx, body.name, 'name', label);
  return { name, gpusPerNode: node.gpus, gpuModel: node.model, maxNodes: nodes, line: ctx.line([attr]) };
}

/**
 * azurerm_kubernetes_cluster's `default_node_pool`: the cluster's first pool, read as an
 * azurerm_kubernetes_cluster_node_pool is. Small ML clusters sometimes run their GPUs there.
 * It is the cluster's system pool too, almost always on CPUs: one whose VM size cannot be told
 * (a variable with no value, say) is taken as one, without a warning on every cluster file.
 */
export function readAksDefaultPool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const pool = single(body.default_node_pool);
  const span = ctx.loc.path(ctx.block, ['default_node_pool']);
  if (span === null || Object.keys(pool).length === 0 || !evaluate(pool.vm_size, ctx.scope).ok) return null;
  const inner = new Context(ctx.file, ctx.loc, span, ctx.scope, `${ctx.address}.default_node_pool`);
  try {
    return readAksPool(inner, pool, label);
  } finally {
    ctx.diagnostics.push(...inner.diagnostics);
  }
}
