import { chooseObject } from './chosen-object.js';
import { nameOr } from './eks-aks.js';
import { bottlerocketSettings, bottlerocketSharing } from '../kit/bottlerocket-settings.js';
import { evaluate, Unk } from './expr-eval.js';
import type { Scope } from './expr-eval.js';
import { literalString, mostGpus, stringList, typeGpus } from './gpu-shape.js';
import type { NodeGpus, PoolReadingSharing } from './gpu-shape.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { PoolContext, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';
import { toDecl } from './resources.js';

// The submodules' own default for max_size (modules/{eks,self}-managed-node-group/variables.tf).
const MODULE_MAX_SIZE_DEFAULT = 3;

/**
 * The two node-group maps of terraform-aws-modules/eks, how each names its machine types, and the
 * address Terraform tracks each group's resource by: the submodule called per key (main.tf's
 * `module "eks_managed_node_group" { for_each = … }`), so a group pairs by its key when its name changes.
 */
const GROUP_MAPS = [
  {
    attr: 'eks_managed_node_groups',
    defaults: 'eks_managed_node_group_defaults',
    types: 'instance_types',
    address: (key: string) => `module.eks_managed_node_group[${JSON.stringify(key)}].aws_eks_node_group.this[0]`,
  },
  {
    attr: 'self_managed_node_groups',
    defaults: 'self_managed_node_group_defaults',
    types: 'instance_type',
    address: (key: string) => `module.self_managed_node_group[${JSON.stringify(key)}].aws_autoscaling_group.this[0]`,
  },
] as const;
type GroupMap = (typeof GROUP_MAPS)[number];

/**
 * terraform-aws-modules/eks `module` blocks: one decl per entry of `eks_managed_node_groups` and
 * `self_managed_node_groups`, each attribute read on its own so one computed field (subnet_ids,
 * say) spoils nothing. The `*_defaults` map fills what a group leaves out, as the module does.
 * A group written as an expression (`cond ? {…} : null`) is read through its taken branch.
 */
export function readEksModules(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = asRecord(blocks[blocks.length - 1]);
    const block = loc.path(loc.file(), [['module', label]]);
    if (!block) continue;
    for (const map of GROUP_MAPS) {
      if (raw[map.attr] !== undefined) readGroups(file, loc, block, scope, label, raw, map, out);
    }
  }
  return out;
}

function readGroups(
  file: string,
  loc: Locator,
  block: Span,
  scope: Scope,
  label: string,
  raw: Record<string, unknown>,
  map: GroupMap,
  out: PoolOutcome,
): void {
  const moduleCtx = new PoolContext(file, loc, block, scope, `module.${label}`);
  const groups = objectOf(moduleCtx, raw[map.attr], map.attr);
  const defaults = objectOf(moduleCtx, raw[map.defaults] ?? {}, map.defaults);
  out.diagnostics.push(...moduleCtx.diagnostics);
  if (groups === ABSENT) return;
  // A map (or its defaults) the review cannot evaluate may hold GPU groups: unknown, never none.
  if (groups === null || defaults === null) {
    const line = moduleCtx.line([groups === null ? map.attr : map.defaults]);
    out.unresolved.push({ file, line, kind: 'eks-node-group', name: `module.${label}.${map.attr}` });
    return;
  }
  const groupsSpan = loc.child(block, map.attr);
  for (const [key, groupRaw] of Object.entries(groups)) {
    const span: Span = (groupsSpan && (loc.child(groupsSpan, key) ?? loc.descendant(groupsSpan, key))) ?? block;
    const ctx = new PoolContext(file, loc, span, scope, `module.${label}.${map.attr}.${key}`);
    const address = { address: { at: `module.${label}.${map.address(key)}`, formerly: [] } };
    // The group as the base names it: an unreadable count must match that name, or the group
    // would read as removed rather than unknown.
    let name = key;
    try {
      const own = objectOf(ctx, groupRaw, key, []);
      if (own === null) throw new Unknown(key);
      if (own === ABSENT) continue;
      const group = { ...(defaults === ABSENT ? {} : defaults), ...own };
      name = nameOr(ctx, group.name, 'name', key);
      const node = nodeGpus(ctx, group, map);
      if (node !== null) {
        const max = ctx.count(group.max_size, 'max_size', ['max_size']);
        out.decls.push({
          ...toDecl(file, 'eks-node-group', {
            name,
            gpusPerNode: node.gpus,
            gpuModel: node.model,
            maxNodes: max ?? MODULE_MAX_SIZE_DEFAULT,
            line: ctx.line(max === null ? [] : ['max_size']),
            ...(max === null ? { note: 'max_size not set: the module default' } : {}),
            ...(node.mixed ? { mixed: true } : {}),
            ...bottlerocketArgs(ctx, group),
          }),
          ...address,
        });
      }
    } catch (err) {
      if (!(err instanceof Unknown)) throw err;
      out.unresolved.push({ file, line: span.line, kind: 'eks-node-group', name, ...address });
    }
    out.diagnostics.push(...ctx.diagnostics);
  }
}

function nodeGpus(ctx: PoolContext, group: Record<string, unknown>, map: GroupMap): NodeGpus | null {
  if (map.types === 'instance_types') {
    const types = stringList(ctx, group.instance_types, 'instance_types', ['instance_types']);
    return types === null ? null : mostGpus(ctx, types, 'instance_types', ['instance_types']);
  }
  if (group.instance_type === undefined && group.instance_types !== undefined) {
    // The submodule reads instance_type only: a list here is dropped and its default type launched.
    ctx.warn(
      ctx.line(['instance_types']),
      'sets instance_types, which self_managed_node_groups do not read (they take instance_type): the module launches its default instance type; not counted as GPUs',
    );
    return null;
  }
  const type = literalString(ctx, group.instance_type, 'instance_type', ['instance_type']);
  return type === null ? null : typeGpus(ctx, type, 'instance_type', ['instance_type']);
}

export const ABSENT = Symbol('absent');

/**
 * A literal map stays raw (its fields are evaluated one by one); an expression is read through
 * chooseObject. ABSENT when it evaluates to null; null (after a warning) when it cannot be read.
 */
export function objectOf(
  ctx: PoolContext,
  raw: unknown,
  what: string,
  path: readonly string[] = [what],
): Record<string, unknown> | typeof ABSENT | null {
  if (typeof raw !== 'string' && raw !== null && !(raw instanceof Unk)) return asRecord(raw);
  const chosen = chooseObject(raw, ctx.scope);
  if (!chosen.ok) {
    ctx.warn(ctx.line(path), `${what} comes from ${chosen.culprit}: cannot tell the GPU count`);
    return null;
  }
  return chosen.absent ? ABSENT : chosen.fields;
}

/**
 * Bottlerocket groups take their TOML settings in `bootstrap_extra_args`: time-slicing there
 * shares the group's GPUs. A value that cannot be evaluated but names time-slicing is unknown.
 */
function bottlerocketArgs(ctx: PoolContext, group: Record<string, unknown>): { sharing?: PoolReadingSharing } {
  const raw = group.bootstrap_extra_args;
  if (raw === undefined) return {};
  const line = ctx.line(['bootstrap_extra_args']);
  const setting = 'bootstrap_extra_args';
  const r = evaluate(raw, ctx.scope);
  if (!r.ok)
    return typeof raw === 'string' && raw.includes('time-slicing')
      ? { sharing: { factor: null, mode: 'bottlerocket-time-slicing', line, setting } }
      : {};
  if (typeof r.value !== 'string') return {};
  const settings = bottlerocketSettings(r.value);
  const read = bottlerocketSharing((k) => settings.get(k));
  if (read === null) return {};
  return { sharing: { factor: 'factor' in read ? read.factor : null, mode: 'bottlerocket-time-slicing', line, setting } };
}
