import { gkeSharing } from '../kit/gke-sharing.js';
import { acceleratorModel } from '../kit/gpu-types/index.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { literalString, stringList, typeGpus } from './gpu-shape.js';
import type { NodeGpus, PoolReading, PoolReadingSharing } from './gpu-shape.js';
import { asList, single, Unknown } from './pool-context.js';
import type { LocPath, PoolContext } from './pool-context.js';

const NODE_CONFIG = ['node_config'];

/** google_container_node_pool: autoscaling max (else node_count) × zones × GPUs per node. */
export function readGkePool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const node = readNodeGpus(ctx, single(body.node_config));
  if (node === null || node.gpus === 0) return null;
  const name = nameOf(ctx, body.name, label);

  const auto = autoscaling(ctx, body);
  let nodes: number | null = null;
  let line = ctx.block.line;
  let perZone = true;
  if (auto) {
    const total = ctx.count(
      auto.raw.total_max_node_count,
      'autoscaling.total_max_node_count',
      [...auto.path, 'total_max_node_count'],
      auto.scope,
    );
    if (total !== null) {
      nodes = total;
      perZone = false;
      line = ctx.line([...auto.path, 'total_max_node_count']);
    } else {
      nodes = ctx.count(auto.raw.max_node_count, 'autoscaling.max_node_count', [...auto.path, 'max_node_count'], auto.scope);
      line = ctx.line([...auto.path, 'max_node_count']);
    }
  }
  for (const attr of ['node_count', 'initial_node_count']) {
    if (nodes !== null) break;
    nodes = ctx.count(body[attr], attr, [attr]);
    line = ctx.line([attr]);
  }
  if (nodes === null) {
    ctx.warn(ctx.block.line, 'sets no node_count, initial_node_count or autoscaling maximum: cannot tell the GPU count');
    throw new Unknown('node count');
  }

  let note = perZone ? 'per zone' : 'in total';
  let step = node.gpus;
  if (perZone) {
    const zones = zoneCount(ctx, body);
    if ('unknown' in zones) {
      ctx.warn(line, `node counts are per zone and the number of zones is unknown (${zones.unknown}); the GPU count shown is for one zone`);
      note = 'per zone, zone count unknown';
    } else {
      if (zones.assumed) ctx.warn(line, zones.assumed);
      nodes *= zones.zones;
      step *= zones.zones;
      note = `per zone × ${zones.zones} zone${zones.zones === 1 ? '' : 's'}`;
    }
  }
  return {
    name,
    gpusPerNode: node.gpus,
    gpuModel: node.model,
    maxNodes: nodes,
    line,
    note,
    step,
    ...(node.sharing ? { sharing: node.sharing } : {}),
  };
}

function nameOf(ctx: PoolContext, raw: unknown, label: string): string {
  if (raw === undefined) return label;
  try {
    const v = ctx.value(raw, 'name', ['name']);
    return typeof v === 'string' && v !== '' ? v : label;
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    ctx.diagnostics.pop(); // a computed name is not a GPU problem: the label stands in
    return label;
  }
}

interface Autoscaling {
  raw: Record<string, unknown>;
  path: LocPath;
  scope: Scope;
}

function autoscaling(ctx: PoolContext, body: Record<string, unknown>): Autoscaling | null {
  if (body.autoscaling !== undefined) return { raw: single(body.autoscaling), path: ['autoscaling'], scope: ctx.scope };
  const dyn = single(single(body.dynamic).autoscaling);
  if (Object.keys(dyn).length === 0) return null;
  const path: LocPath = [['dynamic', 'autoscaling'], 'content'];
  const items = dynamicItems(ctx, dyn, 'autoscaling', [['dynamic', 'autoscaling']]);
  const last = items[items.length - 1];
  return last ? { raw: single(dyn.content), path, scope: last } : null;
}

/** GPUs per node: guest accelerators first (block, dynamic block or list attribute), else the machine type. */
function readNodeGpus(ctx: PoolContext, config: Record<string, unknown>): NodeGpus | null {
  const accels: { raw: Record<string, unknown>; path: LocPath; scope: Scope }[] = [];
  asList(config.guest_accelerator).forEach((a) => {
    accels.push({ raw: single(a), path: [...NODE_CONFIG, 'guest_accelerator'], scope: ctx.scope });
  });
  const dyn = single(single(config.dynamic).guest_accelerator);
  if (Object.keys(dyn).length > 0) {
    const dynPath: LocPath = [...NODE_CONFIG, ['dynamic', 'guest_accelerator']];
    for (const scope of dynamicItems(ctx, dyn, 'guest_accelerator', dynPath)) {
      accels.push({ raw: single(dyn.content), path: [...dynPath, 'content'], scope });
    }
  }
  if (accels.length > 0) {
    let gpus = 0;
    let model: string | null = null;
    let sharing: PoolReadingSharing | undefined;
    for (const a of accels) {
      gpus += ctx.count(a.raw.count, 'guest_accelerator.count', [...a.path, 'count'], a.scope) ?? 0;
      if (typeof a.raw.type === 'string') model ??= acceleratorType(ctx, a.raw.type, a.scope);
      sharing ??= gpuSharing(ctx, a.raw, a.path, a.scope);
    }
    return { gpus, model, ...(sharing ? { sharing } : {}) };
  }
  const machine = literalString(ctx, config.machine_type, 'node_config.machine_type', [...NODE_CONFIG, 'machine_type']);
  return machine === null ? null : typeGpus(ctx, machine, 'machine_type', [...NODE_CONFIG, 'machine_type']);
}

/**
 * `gpu_sharing_config` of one guest accelerator, as a block or a `dynamic` block (one made only
 * for the pools that share, `for_each = each.value.share_gpu ? [1] : []`); undefined when it sets none.
 */
function gpuSharing(ctx: PoolContext, accel: Record<string, unknown>, path: LocPath, scope: Scope): PoolReadingSharing | undefined {
  const dyn = single(single(accel.dynamic).gpu_sharing_config);
  if (accel.gpu_sharing_config === undefined && Object.keys(dyn).length === 0) return undefined;
  let config = single(accel.gpu_sharing_config);
  let at: LocPath = [...path, 'gpu_sharing_config'];
  if (accel.gpu_sharing_config === undefined) {
    at = [...path, ['dynamic', 'gpu_sharing_config'], 'content'];
    const forEach = evaluate(dyn.for_each, scope);
    const line = ctx.line([...path, ['dynamic', 'gpu_sharing_config'], 'for_each']);
    // Whether the block is made is unknown: the GPUs may be shared, by a factor not known.
    if (!forEach.ok) return { ...gkeSharing(undefined, undefined), line, setting: 'gpu_sharing_config' };
    const items = entries(forEach.value);
    const last = items[items.length - 1];
    if (last === undefined) return undefined;
    const iterator = typeof dyn.iterator === 'string' ? dyn.iterator.replace(/^\$\{|\}$/g, '') : 'gpu_sharing_config';
    scope = { ...scope, bound: new Map([...scope.bound, [iterator, { key: last[0], value: last[1] }]]) };
    config = single(dyn.content);
  }
  const strategy = evaluate(config.gpu_sharing_strategy, scope);
  const clients = evaluate(config.max_shared_clients_per_gpu, scope);
  const line = ctx.line([...at, 'max_shared_clients_per_gpu']);
  return {
    ...gkeSharing(strategy.ok ? strategy.value : undefined, clients.ok ? clients.value : undefined),
    line,
    setting: 'gpu_sharing_config',
  };
}

/** The GPU model of an accelerator type; an unknown type costs the model, not the count. */
function acceleratorType(ctx: PoolContext, raw: string, scope: Scope): string | null {
  const r = evaluate(raw, scope);
  return r.ok && typeof r.value === 'string' ? acceleratorModel(r.value) : null;
}

/** One scope per element of a dynamic block's for_each, binding its iterator. */
function dynamicItems(ctx: PoolContext, dyn: Record<string, unknown>, blockName: string, path: LocPath): Scope[] {
  const iterRaw = dyn.iterator;
  const iterator = typeof iterRaw === 'string' ? iterRaw.replace(/^\$\{|\}$/g, '') : blockName;
  const each = ctx.value(dyn.for_each, `dynamic "${blockName}" for_each`, [...path, 'for_each']);
  return entries(each).map(([key, value]) => ({
    ...ctx.scope,
    bound: new Map([...ctx.scope.bound, [iterator, { key, value }]]),
  }));
}

export function entries(v: Value): [string | number, Value][] {
  if (Array.isArray(v)) return v.map((x, i) => [typeof x === 'string' ? x : i, x]);
  if (v !== null && typeof v === 'object')
    return Object.keys(v)
      .sort()
      .map((k) => [k, v[k] as Value]);
  return [];
}

// GKE runs a regional cluster's node pools in three of the region's zones unless told otherwise.
const REGIONAL_DEFAULT_ZONES = 3;
const ZONE_RE = /^[a-z]+-[a-z]+\d+-[a-z]$/;
const REGION_RE = /^[a-z]+-[a-z]+\d+$/;

type Zones = { zones: number; assumed?: string } | { unknown: string };

function zoneCount(ctx: PoolContext, body: Record<string, unknown>): Zones {
  if (body.node_locations === undefined) {
    // A pool placed in one zone has one zone; a regional pool without node_locations uses the cluster's.
    if (body.location === undefined) return { unknown: 'neither node_locations nor location is set' };
    const loc = evaluate(body.location, ctx.scope);
    if (!loc.ok) return { unknown: `node_locations is not set and location comes from ${loc.error}` };
    if (typeof loc.value === 'string' && ZONE_RE.test(loc.value)) return { zones: 1 };
    if (typeof loc.value === 'string' && REGION_RE.test(loc.value)) {
      return {
        zones: REGIONAL_DEFAULT_ZONES,
        assumed: `location ${loc.value} is a region and node_locations is not set: counted for ${REGIONAL_DEFAULT_ZONES} zones, GKE's default for a regional cluster (the cluster's node_locations, if set, decide)`,
      };
    }
    return { unknown: `location ${JSON.stringify(loc.value)} is neither a zone nor a region` };
  }
  try {
    const list = stringList(ctx, body.node_locations, 'node_locations', ['node_locations']);
    return list === null ? { unknown: 'node_locations is null' } : { zones: list.length };
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    ctx.diagnostics.pop(); // reported by the caller as an unknown zone count
    return { unknown: 'node_locations cannot be read' };
  }
}
