import { evaluate } from './expr-eval.js';
import type { Scope } from './expr-eval.js';
import { withBound } from './expr-scope.js';
import { entries } from './gke.js';
import { literalString, mostGpus, stringList, typeGpus } from './gpu-shape.js';
import type { PoolReading } from './gpu-shape.js';
import { AFTER_APPLY, PoolContext as Context, asList, single, Unknown } from './pool-context.js';
import type { LocPath, PoolContext } from './pool-context.js';

/** The pool's name when it can be evaluated; else the fallback (a computed name is no GPU problem). */
export function nameOr(ctx: PoolContext, raw: unknown, attr: string, fallback: string): string {
  if (raw === undefined) return fallback;
  try {
    const v = ctx.value(raw, attr, [attr]);
    // A name known only once applied (a random suffix handed to a module) names nothing yet.
    return typeof v === 'string' && v !== '' && v !== AFTER_APPLY ? v : fallback;
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
  if (body.default_node_pool === undefined) return readDynamicDefaultPool(ctx, body, label);
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

/**
 * `dynamic "default_node_pool"` blocks, as Azure/terraform-azurerm-aks writes its default pool:
 * one manually scaled and one autoscaled, each made by a `for_each` of one element or none. Each
 * element is a pool read in its iterator's scope (Terraform plans at most one). A block whose
 * `for_each` cannot be evaluated is the pool it would make: unknown when its VM size is a GPU
 * size, else taken as the system pool as above.
 */
function readDynamicDefaultPool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const blocks = asList(single(body.dynamic).default_node_pool).map(single);
  const spans = ctx.loc.children(ctx.block, 'dynamic', ['default_node_pool']);
  let best: PoolReading | null = null;
  blocks.forEach((dyn, i) => {
    const pool = single(dyn.content);
    const span = spans[i] ?? ctx.block;
    const content = ctx.loc.path(span, ['content']) ?? span;
    const iterator = typeof dyn.iterator === 'string' ? dyn.iterator.replace(/^\$\{|\}$/g, '') : 'default_node_pool';
    const each = evaluate(dyn.for_each, ctx.scope);
    const scopes: Scope[] = each.ok
      ? entries(each.value).map(([key, value]) => withBound(ctx.scope, [iterator, { key, value }]))
      : [ctx.scope];
    for (const scope of scopes) {
      if (!evaluate(pool.vm_size, scope).ok) continue;
      const inner = new Context(ctx.file, ctx.loc, content, scope, `${ctx.address}.default_node_pool`);
      try {
        if (!each.ok) {
          // The pool's size is known but not whether the block makes it: a GPU size makes the count unknown.
          if (readAksPool(inner, pool, label) === null) continue;
          inner.value(dyn.for_each, 'dynamic "default_node_pool" for_each', ['for_each']);
        }
        const reading = readAksPool(inner, pool, label);
        if (reading && (best === null || reading.gpusPerNode * reading.maxNodes > best.gpusPerNode * best.maxNodes)) best = reading;
      } finally {
        ctx.diagnostics.push(...inner.diagnostics);
      }
    }
  });
  return best;
}
