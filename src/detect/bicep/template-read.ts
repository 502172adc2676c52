import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import { clampLine } from '../kit/lines.js';
import type { Budget } from '../kit/eval-budget.js';
import { noPools, readAksPools } from './aks-pools.js';
import type { PoolsFound } from './aks-pools.js';
import { evaluate } from './evaluate.js';
import { parseBicep } from './grammar.js';
import { templateAccounting } from './accounting.js';
import { moduleReader } from './modules.js';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';
import type { Given, ReadContext } from './reading.js';

/**
 * The GPU pools one template declares given its parameters' values (from a parameter file or a
 * module call; `missing` says where a parameter with no default and no value should have had
 * one), and what it hands modules it does not read. A template that does not parse says so.
 */
export function readTemplate(path: string, given: Given, missing: string, ctx: ReadContext): PoolsFound & { params: ReadonlySet<string> } {
  const out = { ...noPools(), params: new Set<string>() };
  const text = ctx.templates.get(path);
  if (text === undefined) return out;
  const parsed = parseBicep(text);
  if ('error' in parsed) {
    out.diagnostics.push(diagnostic(path, null, 'warning', `${parsed.error}: its AKS node pools are not read`));
    return out;
  }
  try {
    const root = parsed.tree.rootNode;
    if (root.hasError) {
      const bad = firstError(root);
      out.diagnostics.push(
        diagnostic(
          path,
          bad === null ? null : clampLine(bad.startPosition.row + 1, text),
          'warning',
          'Bicep syntax this tool cannot read here; the pools it declares may not all be read',
        ),
      );
    }
    const scope = fileScope(root, given, missing, ctx.budget);
    const read = readAksPools(path, root, scope, out, moduleReader({ ...ctx, chain: [...ctx.chain, path] }, readTemplate));
    const accounting = templateAccounting(path, root, read);
    out.accounted.push(...accounting.accounted);
    out.params = accounting.params;
  } finally {
    parsed.tree.delete();
  }
  return out;
}

/** Parameters (the value given, else the default) and variables of one template. */
export function fileScope(root: Node, given: Given, missing: string, budget: Budget): BicepScope {
  const defaults = new Map<string, Node | null>();
  const variables = new Map<string, Node | null>();
  for (const decl of root.namedChildren) {
    if (decl === null) continue;
    const parts = decl.namedChildren.filter((c): c is Node => c !== null && c.type !== 'decorators');
    const name = parts[0]?.text;
    if (name === undefined) continue;
    if (decl.type === 'parameter_declaration') {
      const last = parts[parts.length - 1];
      defaults.set(name, parts.length > 2 && last && last.type !== 'type' ? last : null);
    } else if (decl.type === 'variable_declaration') variables.set(name, parts[parts.length - 1] ?? null);
  }
  const resolving = new Set<string>();
  // Each name is evaluated once: variables reading each other twice over would otherwise double the work per level.
  const cache = new Map<string, BicepValue | BicepUnknown>();
  const scope: BicepScope = {
    budget,
    lookup(name) {
      const cached = cache.get(name);
      if (cached instanceof BicepUnknown) throw cached;
      if (cached !== undefined) return cached;
      try {
        const value = resolve(name);
        cache.set(name, value);
        return value;
      } catch (err) {
        if (err instanceof BicepUnknown) cache.set(name, err);
        throw err;
      }
    },
  };
  const resolve = (name: string): BicepValue => {
    const v = defaults.has(name) ? given(name) : undefined;
    if (v instanceof BicepUnknown) throw v;
    if (v !== undefined) return v;
    const node = defaults.get(name) ?? variables.get(name);
    if (node === undefined || node === null) {
      throw new BicepUnknown(
        defaults.has(name)
          ? `parameter ${name} has no default and no value ${missing}`
          : `${name} is not a parameter or variable of this file`,
      );
    }
    if (resolving.has(name)) throw new BicepUnknown(`${name} refers to itself`);
    resolving.add(name);
    try {
      return evaluate(node, scope);
    } finally {
      resolving.delete(name);
    }
  };
  return scope;
}

function firstError(node: Node): Node | null {
  if (node.type === 'ERROR' || node.isMissing) return node;
  for (const c of node.children) {
    if (c?.hasError) return firstError(c);
  }
  return null;
}
