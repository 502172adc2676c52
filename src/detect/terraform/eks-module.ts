import type { Scope } from './expr-eval.js';
import { mostGpus, stringList } from './gpu-shape.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { PoolContext, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';
import { toDecl } from './resources.js';

// The module's own default for max_size (modules/eks-managed-node-group/variables.tf).
const MODULE_MAX_SIZE_DEFAULT = 3;

/**
 * terraform-aws-modules/eks `module` blocks: one decl per entry of `eks_managed_node_groups`,
 * each attribute read on its own so one computed field (subnet_ids, say) spoils nothing.
 * `eks_managed_node_group_defaults` fills what a group leaves out, as the module does.
 */
export function readEksModules(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = asRecord(blocks[blocks.length - 1]);
    if (raw.eks_managed_node_groups === undefined) continue;
    const block = loc.path(loc.file(), [['module', label]]);
    if (!block) continue;
    const moduleCtx = new PoolContext(file, loc, block, scope, `module.${label}`);
    const groups = objectOrValue(moduleCtx, raw.eks_managed_node_groups, 'eks_managed_node_groups');
    const defaults = objectOrValue(moduleCtx, raw.eks_managed_node_group_defaults ?? {}, 'eks_managed_node_group_defaults');
    out.diagnostics.push(...moduleCtx.diagnostics);
    if (!groups) continue;
    const groupsSpan = loc.child(block, 'eks_managed_node_groups');
    for (const [key, groupRaw] of Object.entries(groups)) {
      const span: Span = (groupsSpan && loc.child(groupsSpan, key)) ?? block;
      const ctx = new PoolContext(file, loc, span, scope, `module.${label}.eks_managed_node_groups.${key}`);
      const group = { ...(defaults ?? {}), ...asRecord(groupRaw) };
      try {
        const types = stringList(ctx, group.instance_types, 'instance_types', ['instance_types']);
        const node = types === null ? null : mostGpus(ctx, types, 'instance_types', ['instance_types']);
        if (node !== null) {
          const max = ctx.count(group.max_size, 'max_size', ['max_size']);
          const nameRaw = group.name === undefined ? null : ctx.value(group.name, 'name', ['name']);
          const name = typeof nameRaw === 'string' && nameRaw !== '' ? nameRaw : key;
          out.decls.push(toDecl(file, 'eks-node-group', {
            name,
            gpusPerNode: node.gpus,
            gpuModel: node.model,
            maxNodes: max ?? MODULE_MAX_SIZE_DEFAULT,
            line: ctx.line(max === null ? [] : ['max_size']),
            ...(max === null ? { note: 'max_size not set: the module default' } : {}),
          }));
        }
      } catch (err) {
        if (!(err instanceof Unknown)) throw err;
        out.unresolved.push({ file, line: span.line, kind: 'eks-node-group', name: key });
      }
      out.diagnostics.push(...ctx.diagnostics);
    }
  }
  return out;
}

/** A literal map stays raw (its fields are evaluated one by one); an expression is evaluated whole. */
function objectOrValue(ctx: PoolContext, raw: unknown, what: string): Record<string, unknown> | null {
  if (typeof raw !== 'string') return asRecord(raw);
  try {
    return asRecord(ctx.value(raw, what, [what]));
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    return null;
  }
}
