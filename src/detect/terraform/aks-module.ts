import { evaluate } from './expr-eval.js';
import { literalString, typeGpus } from './gpu-shape.js';
import type { PoolReading } from './gpu-shape.js';
import type { Scope } from './expr-eval.js';
import { ABSENT, objectOf } from './eks-module.js';
import { nameOr } from './eks-aks.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { PoolContext, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';
import { toDecl } from './resources.js';

/** Registry (`Azure/aks/azurerm`) and git sources of Azure/terraform-azurerm-aks. */
const SOURCE_RE = /(?:^|\/)Azure\/aks\/azurerm(?:\/\/|\?|$)|Azure\/terraform-azurerm-aks/i;

// The module's variables.tf defaults for the default node pool.
const DEFAULT_AGENTS_SIZE = 'Standard_D2s_v3';
const DEFAULT_AGENTS_COUNT = 2;
const DEFAULT_POOL_NAME = 'nodepool';

export function isAksModuleSource(source: unknown): boolean {
  return typeof source === 'string' && SOURCE_RE.test(source);
}

/**
 * Azure/aks/azurerm `module` blocks: the default node pool (`agents_size` × `agents_count`, or
 * `agents_max_count` when `auto_scaling_enabled` / `enable_auto_scaling`, as the module's main.tf
 * picks between its two pool shapes) and one decl per GPU entry of the `node_pools` map
 * (extra_node_pool.tf). AKS counts are cluster-wide, not per zone.
 */
export function readAksModules(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = asRecord(blocks[blocks.length - 1]);
    if (!isAksModuleSource(raw.source)) continue;
    const block = loc.path(loc.file(), [['module', label]]);
    if (!block) continue;
    readDefaultPool(file, loc, block, scope, label, raw, out);
    if (raw.node_pools !== undefined) readExtraPools(file, loc, block, scope, label, raw.node_pools, out);
  }
  return out;
}

/** v10 renamed `enable_auto_scaling` to `auto_scaling_enabled`; earlier majors read the old name. */
function autoscaled(ctx: PoolContext, raw: Record<string, unknown>, path: readonly string[] = []): boolean {
  const attr = raw.auto_scaling_enabled !== undefined ? 'auto_scaling_enabled' : 'enable_auto_scaling';
  if (raw[attr] === undefined) return false;
  const v = ctx.value(raw[attr], attr, [...path, attr]);
  return v === true || v === 'true';
}

function readDefaultPool(
  file: string,
  loc: Locator,
  block: Span,
  scope: Scope,
  label: string,
  raw: Record<string, unknown>,
  out: PoolOutcome,
): void {
  const ctx = new PoolContext(file, loc, block, scope, `module.${label} default node pool`);
  try {
    const vm = raw.agents_size === undefined ? DEFAULT_AGENTS_SIZE : literalString(ctx, raw.agents_size, 'agents_size', ['agents_size']);
    const node = vm === null ? null : typeGpus(ctx, vm, 'agents_size', ['agents_size']);
    if (node === null) return;
    const auto = autoscaled(ctx, raw);
    const attr = auto ? 'agents_max_count' : 'agents_count';
    const given = ctx.count(raw[attr], attr, [attr]);
    const nodes = given ?? (auto ? null : DEFAULT_AGENTS_COUNT);
    if (nodes === null) {
      ctx.warn(ctx.line([attr]), 'autoscales but agents_max_count is not set: cannot tell the GPU count');
      throw new Unknown(attr);
    }
    const reading: PoolReading = {
      name: nameOr(ctx, raw.agents_pool_name, 'agents_pool_name', DEFAULT_POOL_NAME),
      gpusPerNode: node.gpus,
      gpuModel: node.model,
      maxNodes: nodes,
      line: given === null ? block.line : ctx.line([attr]),
      ...(given === null ? { note: `agents_count not set: the module default of ${DEFAULT_AGENTS_COUNT}` } : {}),
    };
    out.decls.push(toDecl(file, 'aks-node-pool', reading));
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    out.unresolved.push({ file, line: block.line, kind: 'aks-node-pool', name: `module.${label} default node pool` });
  } finally {
    out.diagnostics.push(...ctx.diagnostics);
  }
}

function readExtraPools(file: string, loc: Locator, block: Span, scope: Scope, label: string, poolsRaw: unknown, out: PoolOutcome): void {
  const moduleCtx = new PoolContext(file, loc, block, scope, `module.${label}`);
  const pools = objectOf(moduleCtx, poolsRaw, 'node_pools');
  out.diagnostics.push(...moduleCtx.diagnostics);
  if (pools === null) {
    out.unresolved.push({ file, line: moduleCtx.line(['node_pools']), kind: 'aks-node-pool', name: `module.${label}.node_pools` });
    return;
  }
  if (pools === ABSENT) return;
  const poolsSpan = loc.child(block, 'node_pools');
  for (const [key, poolRaw] of Object.entries(pools)) {
    const span: Span = (poolsSpan && (loc.child(poolsSpan, key) ?? loc.descendant(poolsSpan, key))) ?? poolsSpan ?? block;
    const ctx = new PoolContext(file, loc, span, scope, `module.${label}.node_pools.${key}`);
    const address = { address: { at: `module.${label}.${poolAddress(ctx, poolRaw, key)}`, formerly: [] } };
    // Named as the decl would be, so an unreadable count reads as unknown, not as a removal.
    let name = key;
    try {
      const pool = objectOf(ctx, poolRaw, key, []);
      if (pool === null) throw new Unknown(key);
      if (pool === ABSENT) continue;
      name = nameOr(ctx, pool.name, 'name', key);
      const reading = readExtraPool(ctx, pool, key);
      if (reading) out.decls.push({ ...toDecl(file, 'aks-node-pool', reading), ...address });
    } catch (err) {
      if (!(err instanceof Unknown)) throw err;
      out.unresolved.push({ file, line: span.line, kind: 'aks-node-pool', name, ...address });
    }
    out.diagnostics.push(...ctx.diagnostics);
  }
}

/**
 * The address Azure/terraform-azurerm-aks gives a `node_pools` entry (extra_node_pool.tf): one
 * resource per key, `node_pool_create_before_destroy` unless the entry sets
 * `create_before_destroy = false`. It pairs a pool by its key when its name changes.
 */
function poolAddress(ctx: PoolContext, poolRaw: unknown, key: string): string {
  const flag = poolRaw !== null && typeof poolRaw === 'object' ? (poolRaw as Record<string, unknown>).create_before_destroy : undefined;
  const r = flag === undefined ? null : evaluate(flag, ctx.scope);
  const after = r?.ok === true && (r.value === false || r.value === 'false');
  return `azurerm_kubernetes_cluster_node_pool.node_pool_create_${after ? 'after' : 'before'}_destroy[${JSON.stringify(key)}]`;
}

/** One `node_pools` entry, read as the module hands it to azurerm_kubernetes_cluster_node_pool. */
function readExtraPool(ctx: PoolContext, pool: Record<string, unknown>, key: string): PoolReading | null {
  if (pool.vm_size === undefined) {
    ctx.warn(ctx.block.line, 'sets no vm_size (the module requires one): cannot tell the GPU count');
    throw new Unknown('vm_size');
  }
  const vm = literalString(ctx, pool.vm_size, 'vm_size', ['vm_size']);
  const node = vm === null ? null : typeGpus(ctx, vm, 'vm_size', ['vm_size']);
  if (node === null) return null;
  const attr = autoscaled(ctx, pool) ? 'max_count' : 'node_count';
  const nodes = ctx.count(pool[attr], attr, [attr]);
  if (nodes === null) {
    ctx.warn(
      ctx.line([attr]),
      attr === 'max_count'
        ? 'autoscales but max_count is not set: cannot tell the GPU count'
        : 'sets no node_count: cannot tell the GPU count',
    );
    throw new Unknown(attr);
  }
  return {
    name: nameOr(ctx, pool.name, 'name', key),
    gpusPerNode: node.gpus,
    gpuModel: node.model,
    maxNodes: nodes,
    line: ctx.line([attr]),
  };
}
