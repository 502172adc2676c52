import { gkeSharing } from '../kit/gke-sharing.js';
import { acceleratorModel, lookupInstanceType } from '../kit/gpu-types/index.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { nameOr } from './eks-aks.js';
import { literalString, typeGpus } from './gpu-shape.js';
import type { NodeGpus, PoolReading, PoolReadingSharing } from './gpu-shape.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { PoolContext, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';
import { toDecl } from './resources.js';

/** Registry (`terraform-google-modules/kubernetes-engine/google//modules/…`) and git sources of the module. */
const SOURCE_RE =
  /terraform-google-modules\/kubernetes-engine\/google(?:\/\/|\?|$)|terraform-google-modules\/terraform-google-kubernetes-engine/;

// Defaults the module's cluster.tf applies to a pool: lookup(each.value, "max_count", 100),
// lookup(each.value, "node_count", 1), lookup(each.value, "autoscaling", true).
const MODULE_MAX_COUNT = 100;
const MODULE_NODE_COUNT = 1;
// A regional cluster given no `zones` gets three zones of the region (random_shuffle, result_count = 3).
const MODULE_REGIONAL_ZONES = 3;

export function isGkeModuleSource(source: unknown): boolean {
  return typeof source === 'string' && SOURCE_RE.test(source);
}

/** The zones a pool without node_locations runs in: the module's `zones`, else its regional default. */
type ClusterZones = { zones: number; note?: string } | { unknown: string };

/**
 * terraform-google-modules/kubernetes-engine `module` blocks (root module and its cluster
 * submodules): one decl per GPU pool of the `node_pools` list of maps, read as the module's
 * cluster.tf reads it. Pools without accelerators are not capacity this tool reviews.
 */
export function readGkeModules(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = asRecord(blocks[blocks.length - 1]);
    if (raw.node_pools === undefined || !isGkeModuleSource(raw.source)) continue;
    const block = loc.path(loc.file(), [['module', label]]);
    if (!block) continue;
    const moduleCtx = new PoolContext(file, loc, block, scope, `module.${label}`);
    const pools = poolList(moduleCtx, raw.node_pools);
    out.diagnostics.push(...moduleCtx.diagnostics);
    if (pools === null) {
      out.unresolved.push({ file, line: moduleCtx.line(['node_pools']), kind: 'gke-node-pool', name: `module.${label}.node_pools` });
      continue;
    }
    const listSpan = loc.child(block, 'node_pools') ?? block;
    // Element spans line up with the list only when every element is a literal map.
    const literal = Array.isArray(raw.node_pools) && raw.node_pools.every((p) => p !== null && typeof p === 'object');
    const cluster = clusterZones(raw, scope);
    pools.forEach((poolRaw, i) => {
      const span: Span = (literal && loc.element(listSpan, i)) || listSpan;
      const known = literalName(asRecord(poolRaw));
      const ctx = new PoolContext(file, loc, span, scope, `module.${label}.node_pools[${i}]${known ? ` (${known})` : ''}`);
      const fallback = `node_pools[${i}]`;
      let pool: Record<string, unknown> = {};
      try {
        pool = typeof poolRaw === 'string' ? asRecord(ctx.value(poolRaw, 'node_pools element', [])) : asRecord(poolRaw);
        const reading = readModulePool(ctx, pool, fallback, cluster);
        if (reading) out.decls.push(toDecl(file, 'gke-node-pool', reading));
      } catch (err) {
        if (!(err instanceof Unknown)) throw err;
        out.unresolved.push({ file, line: span.line, kind: 'gke-node-pool', name: literalName(pool) ?? fallback });
      }
      out.diagnostics.push(...ctx.diagnostics);
    });
  }
  return out;
}

/** The raw elements of a literal list, or the evaluated list; null (after a warning) when unknown. */
function poolList(ctx: PoolContext, raw: unknown): unknown[] | null {
  if (Array.isArray(raw)) return raw as unknown[];
  try {
    const v = ctx.value(raw, 'node_pools', ['node_pools']);
    if (Array.isArray(v)) return v;
    ctx.warn(ctx.line(['node_pools']), 'node_pools is not a list of maps: cannot tell the GPU count');
    return null;
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    return null;
  }
}

function readModulePool(ctx: PoolContext, pool: Record<string, unknown>, fallback: string, cluster: ClusterZones): PoolReading | null {
  const node = nodeGpus(ctx, pool);
  if (node === null || node.gpus === 0) return null;
  const name = nameOr(ctx, pool.name, 'name', fallback);

  const autoRaw = pool.autoscaling === undefined ? true : ctx.value(pool.autoscaling, 'autoscaling', ['autoscaling']);
  // list(map(any)) turns mixed values into strings, so `false` may arrive as "false".
  const autoscaled = autoRaw !== false && autoRaw !== 'false';
  let nodes: number;
  let line: number;
  let perZone = true;
  const notes: string[] = [];
  if (autoscaled) {
    const total = ctx.count(pool.total_max_count, 'total_max_count', ['total_max_count']);
    const max = total === null ? ctx.count(pool.max_count, 'max_count', ['max_count']) : null;
    if (total !== null) {
      nodes = total;
      perZone = false;
      line = ctx.line(['total_max_count']);
    } else {
      nodes = max ?? MODULE_MAX_COUNT;
      line = max === null ? ctx.block.line : ctx.line(['max_count']);
      if (max === null) notes.push(`max_count not set: the module default of ${MODULE_MAX_COUNT}`);
    }
  } else {
    const count = ctx.count(pool.node_count, 'node_count', ['node_count']);
    nodes = count ?? MODULE_NODE_COUNT;
    line = count === null ? ctx.block.line : ctx.line(['node_count']);
    if (count === null) notes.push(`node_count not set: the module default of ${MODULE_NODE_COUNT}`);
  }

  let step = node.gpus;
  if (!perZone) notes.push('in total');
  else {
    const zones = poolZones(ctx, pool, cluster);
    if ('unknown' in zones) {
      ctx.warn(line, `node counts are per zone and the number of zones is unknown (${zones.unknown}); the GPU count shown is for one zone`);
      notes.push('per zone, zone count unknown');
    } else {
      nodes *= zones.zones;
      step *= zones.zones;
      notes.push(`per zone × ${zones.zones} zone${zones.zones === 1 ? '' : 's'}${zones.note ? ` (${zones.note})` : ''}`);
    }
  }
  return {
    name,
    gpusPerNode: node.gpus,
    gpuModel: node.model,
    maxNodes: nodes,
    line,
    note: notes.join(', '),
    step,
    ...(node.sharing ? { sharing: node.sharing } : {}),
  };
}

/**
 * GPUs per node: `accelerator_count` (the module attaches a guest accelerator only when it is
 * above 0), else the machine type, since A2/A3/A4/G2 types carry their GPUs.
 */
function nodeGpus(ctx: PoolContext, pool: Record<string, unknown>): NodeGpus | null {
  const accel = ctx.count(pool.accelerator_count, 'accelerator_count', ['accelerator_count']);
  if (accel !== null && accel > 0) {
    const type = quietString(pool.accelerator_type, ctx.scope);
    const machine = quietString(pool.machine_type, ctx.scope);
    const model =
      (type === null ? null : acceleratorModel(type)) ?? (machine === null ? null : (lookupInstanceType(machine)?.gpuModel ?? null));
    return { gpus: accel, model, ...moduleSharing(ctx, pool) };
  }
  const machine = literalString(ctx, pool.machine_type, 'machine_type', ['machine_type']);
  return machine === null ? null : typeGpus(ctx, machine, 'machine_type', ['machine_type']);
}

/** The module's `gpu_sharing_strategy` and `max_shared_clients_per_gpu` keys of a pool. */
function moduleSharing(ctx: PoolContext, pool: Record<string, unknown>): { sharing?: PoolReadingSharing } {
  if (pool.gpu_sharing_strategy === undefined) return {};
  const strategy = evaluate(pool.gpu_sharing_strategy, ctx.scope);
  const clients =
    pool.max_shared_clients_per_gpu === undefined
      ? { ok: true as const, value: null }
      : evaluate(pool.max_shared_clients_per_gpu, ctx.scope);
  const line = ctx.line([pool.max_shared_clients_per_gpu === undefined ? 'gpu_sharing_strategy' : 'max_shared_clients_per_gpu']);
  return {
    sharing: {
      ...gkeSharing(strategy.ok ? strategy.value : undefined, clients.ok ? clients.value : undefined),
      line,
      setting: 'gpu_sharing_strategy',
    },
  };
}

/** A string attribute used only for the GPU model: unknown costs the model, not the count. */
function quietString(raw: unknown, scope: Scope): string | null {
  if (raw === undefined) return null;
  const r = evaluate(raw, scope);
  return r.ok && typeof r.value === 'string' ? r.value : null;
}

/** `node_locations` is a comma-separated string in this module ("us-central1-b,us-central1-c"). */
function poolZones(ctx: PoolContext, pool: Record<string, unknown>, cluster: ClusterZones): ClusterZones {
  const raw = pool.node_locations;
  if (raw === undefined || raw === null || raw === '') return cluster;
  const r = evaluate(raw, ctx.scope);
  if (r.ok) {
    const n = zoneCount(r.value);
    if (n === 0) return cluster;
    return n === null ? { unknown: 'node_locations is not a list of zones' } : { zones: n };
  }
  // "${var.region}-b,${var.region}-c": the zones are unknown, their number is not.
  const n = typeof raw === 'string' ? templateZoneCount(raw) : null;
  return n === null ? { unknown: `node_locations uses ${r.error}` } : { zones: n };
}

function zoneCount(v: Value): number | null {
  if (typeof v === 'string') return v.trim() === '' ? 0 : v.split(',').length;
  if (Array.isArray(v)) return v.every((z) => typeof z === 'string') ? v.length : null;
  return v === null ? 0 : null;
}

/** Commas outside interpolations, when every interpolation is a plain reference (a region, a prefix). */
function templateZoneCount(raw: string): number | null {
  const refs = raw.match(/\$\{[^{}]*\}/g) ?? [];
  if (!refs.every((r) => /^\$\{\s*[A-Za-z_][\w.-]*\s*\}$/.test(r))) return null;
  const rest = raw.replace(/\$\{[^{}]*\}/g, '');
  if (rest.includes('${') || rest.includes('%{')) return null;
  return rest.split(',').length;
}

function clusterZones(moduleRaw: Record<string, unknown>, scope: Scope): ClusterZones {
  if (moduleRaw.zones !== undefined) {
    const r = evaluate(moduleRaw.zones, scope);
    if (!r.ok) return { unknown: `node_locations is not set and the module's zones uses ${r.error}` };
    const n = zoneCount(r.value);
    if (n === null) return { unknown: "the module's zones is not a list of zones" };
    if (n > 0) return { zones: n, note: "the module's zones" };
  }
  const regional = moduleRaw.regional === undefined ? { ok: true as const, value: true } : evaluate(moduleRaw.regional, scope);
  if (!regional.ok) return { unknown: `node_locations and zones are not set and regional uses ${regional.error}` };
  if (regional.value === false || regional.value === 'false') return { unknown: 'a zonal cluster without zones' };
  return { zones: MODULE_REGIONAL_ZONES, note: 'no zones given: the module picks 3 zones of the region' };
}

function literalName(pool: Record<string, unknown>): string | null {
  const n = pool.name;
  return typeof n === 'string' && !n.includes('${') && n !== '' ? n : null;
}
