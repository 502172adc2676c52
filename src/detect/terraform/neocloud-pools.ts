import { crusoeShape, isNebiusGpuPlatform, nebiusShape, ociShape } from '../kit/gpu-types/index.js';
import type { NodeShape } from '../kit/gpu-types/index.js';
import { nameOr } from './eks-aks.js';
import { evaluate } from './expr-eval.js';
import type { Value } from './expr-eval.js';
import type { PoolReading } from './gpu-shape.js';
import { literalString } from './gpu-shape.js';
import { Unknown } from './pool-context.js';
import type { PoolContext } from './pool-context.js';

/**
 * Node pools of the GPU clouds that are not AWS, GCP or Azure: Nebius `nebius_mk8s_v1_node_group`,
 * Crusoe `crusoe_kubernetes_node_pool`, OCI `oci_containerengine_node_pool`. Each is read as the
 * others are: the most nodes the pool can have × the GPUs per node its type names.
 */

/** nebius_mk8s_v1_node_group: autoscaling.max_node_count, else fixed_node_count, × the preset's GPUs. */
export function readNebiusNodeGroup(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const platformPath = ['template', 'resources', 'platform'];
  const presetPath = ['template', 'resources', 'preset'];
  // The platform only names the model; an unknown one is no warning when the preset names no GPUs.
  const platformRaw = rawAt(body, platformPath);
  const platformValue = platformRaw.kind === 'raw' ? evaluate(platformRaw.raw, ctx.scope) : null;
  const platform = platformValue?.ok && typeof platformValue.value === 'string' ? platformValue.value : null;
  const presetValue = valueAt(ctx, body, presetPath, platform !== null && !isNebiusGpuPlatform(platform));
  if (presetValue === undefined) {
    if (platform !== null && !isNebiusGpuPlatform(platform)) return null;
    ctx.warn(ctx.line(presetPath), 'sets no template.resources.preset: cannot tell the GPUs per node');
    throw new Unknown('preset');
  }
  if (typeof presetValue !== 'string') {
    ctx.warn(ctx.line(presetPath), 'template.resources.preset is not a string: cannot tell the GPUs per node');
    throw new Unknown('preset');
  }
  const shape = nebiusShape(platform, presetValue);
  if (shape === 'cpu') return null;
  if (shape === null) {
    ctx.warn(ctx.line(presetPath), `preset "${presetValue}" does not name its GPUs: cannot tell the GPU count`);
    throw new Unknown('preset');
  }
  const path = autoscales(ctx, body) ? ['autoscaling', 'max_node_count'] : ['fixed_node_count'];
  const nodes = countAt(ctx, body, path);
  if (nodes === null) {
    ctx.warn(
      ctx.line(path),
      path[0] === 'autoscaling'
        ? 'autoscales with no max_node_count: cannot tell the GPU count'
        : 'sets no fixed_node_count nor autoscaling: cannot tell the GPU count',
    );
    throw new Unknown(path.join('.'));
  }
  return reading(ctx, body, label, shape, nodes, path);
}

/** crusoe_kubernetes_node_pool: instance_count × the GPUs its `type` names. */
export function readCrusoePool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const type = literalString(ctx, body.type, 'type', ['type']);
  if (type === null) return null;
  const shape = crusoeShape(type);
  if (shape === 'cpu') return null;
  if (shape === null) {
    ctx.warn(ctx.line(['type']), `type "${type}" is not a Crusoe CPU type nor one whose GPUs are known: cannot tell the GPU count`);
    throw new Unknown('type');
  }
  const nodes = ctx.count(body.instance_count, 'instance_count', ['instance_count']);
  if (nodes === null) {
    ctx.warn(ctx.block.line, 'sets no instance_count: cannot tell the GPU count');
    throw new Unknown('instance_count');
  }
  return reading(ctx, body, label, shape, nodes, ['instance_count']);
}

/**
 * oci_containerengine_node_pool: node_config_details.size (else the older quantity_per_subnet ×
 * subnet_ids) × the GPUs of its node_shape.
 */
export function readOciPool(ctx: PoolContext, body: Record<string, unknown>, label: string): PoolReading | null {
  const shapeName = literalString(ctx, body.node_shape, 'node_shape', ['node_shape']);
  if (shapeName === null) return null;
  const shape = ociShape(shapeName);
  if (shape === 'cpu') return null;
  if (shape === null) {
    ctx.warn(ctx.line(['node_shape']), `node_shape "${shapeName}" is an OCI GPU shape that is not listed: cannot tell the GPU count`);
    throw new Unknown('node_shape');
  }
  const sizePath = ['node_config_details', 'size'];
  const size = countAt(ctx, body, sizePath);
  if (size !== null) return reading(ctx, body, label, shape, size, sizePath);
  const perSubnet = ctx.count(body.quantity_per_subnet, 'quantity_per_subnet', ['quantity_per_subnet']);
  if (perSubnet !== null) {
    // A list written out has as many subnets as items, whatever their ids (other resources' attributes).
    const raw = body.subnet_ids;
    const subnets = raw === undefined ? null : Array.isArray(raw) ? raw : ctx.value(raw, 'subnet_ids', ['subnet_ids']);
    if (Array.isArray(subnets)) {
      return {
        ...reading(ctx, body, label, shape, perSubnet * subnets.length, ['quantity_per_subnet']),
        note: `per subnet × ${subnets.length}`,
      };
    }
    ctx.warn(ctx.line(['subnet_ids']), 'quantity_per_subnet is per subnet and subnet_ids is not a list: cannot tell the GPU count');
    throw new Unknown('subnet_ids');
  }
  ctx.warn(ctx.block.line, 'sets no node_config_details.size nor quantity_per_subnet: cannot tell the GPU count');
  throw new Unknown('size');
}

function reading(
  ctx: PoolContext,
  body: Record<string, unknown>,
  label: string,
  shape: NodeShape,
  nodes: number,
  path: string[],
): PoolReading {
  return {
    name: nameOr(ctx, body.name, 'name', label),
    gpusPerNode: shape.gpus,
    gpuModel: shape.model,
    maxNodes: nodes,
    line: ctx.line(path),
  };
}

type RawAt = { kind: 'raw'; raw: unknown } | { kind: 'absent' } | { kind: 'expr'; raw: unknown; depth: number };

// `${local.gpu_template}`: a bare reference, which the rest of the path can follow without
// evaluating what else the object holds (a boot script rendered from another resource's attribute).
const REFERENCE = /^\$\{\s*((?:local|var)\.[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}$/;

/**
 * Where an attribute nested in object attributes (`template = { resources = { preset = … } }`) or
 * blocks (`node_config_details { size = … }`) is: its own expression, or the expression of the
 * object that holds it when that object is written as one (`template = local.template`).
 */
function rawAt(body: Record<string, unknown>, path: readonly string[]): RawAt {
  let cur: unknown = body;
  for (let i = 0; i < path.length; i++) {
    if (Array.isArray(cur)) cur = cur[cur.length - 1];
    if (cur === undefined || cur === null) return { kind: 'absent' };
    if (typeof cur !== 'object') {
      const ref = typeof cur === 'string' ? REFERENCE.exec(cur) : null;
      const rest = path.slice(i);
      if (ref?.[1] !== undefined && rest.every((k) => /^[A-Za-z_][\w-]*$/.test(k)))
        return { kind: 'raw', raw: `\${${ref[1]}.${rest.join('.')}}` };
      return { kind: 'expr', raw: cur, depth: i };
    }
    cur = (cur as Record<string, unknown>)[path[i] as string];
  }
  return cur === undefined ? { kind: 'absent' } : { kind: 'raw', raw: cur };
}

/**
 * The value at a nested path; undefined when absent. One that cannot be evaluated is Unknown (after
 * a warning), or undefined without one when `quiet` (a value that decides nothing).
 */
function valueAt(ctx: PoolContext, body: Record<string, unknown>, path: readonly string[], quiet: boolean): Value | undefined {
  const at = rawAt(body, path);
  if (at.kind === 'absent') return undefined;
  const head = at.kind === 'raw' ? path : path.slice(0, at.depth);
  if (quiet) {
    const r = evaluate(at.raw, ctx.scope);
    if (!r.ok) return undefined;
    return at.kind === 'raw' ? r.value : pick(r.value, path.slice(at.depth));
  }
  const v = ctx.value(at.raw, head.join('.'), head);
  return at.kind === 'raw' ? v : pick(v, path.slice(at.depth));
}

function countAt(ctx: PoolContext, body: Record<string, unknown>, path: readonly string[]): number | null {
  const at = rawAt(body, path);
  if (at.kind === 'absent') return null;
  if (at.kind === 'raw') return ctx.count(at.raw, path.join('.'), path);
  const v = pick(ctx.value(at.raw, path.slice(0, at.depth).join('.'), path.slice(0, at.depth)), path.slice(at.depth));
  if (v === undefined || v === null) return null;
  // The number found inside an evaluated object, checked as a literal one is.
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0) {
    ctx.warn(ctx.line(path), `${path.join('.')} is ${JSON.stringify(v)}, not a whole number: cannot tell the GPU count`);
    throw new Unknown(path.join('.'));
  }
  return n;
}

/** True when the group autoscales: an `autoscaling` object that is set and not null. */
function autoscales(ctx: PoolContext, body: Record<string, unknown>): boolean {
  const at = rawAt(body, ['autoscaling']);
  if (at.kind !== 'raw') return false;
  if (at.raw !== null && typeof at.raw === 'object') return true;
  return ctx.value(at.raw, 'autoscaling', ['autoscaling']) !== null;
}

function pick(v: Value, rest: readonly string[]): Value | undefined {
  let cur: Value | undefined = v;
  for (const k of rest) {
    if (cur === null || cur === undefined || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}
