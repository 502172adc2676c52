import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import { clampLine } from '../kit/lines.js';
import type { CapacityParser, ParseResult, SourceFile } from '../parser.js';
import { Budget, BudgetExceeded } from '../kit/eval-budget.js';
import { readAksPools } from './aks-pools.js';
import type { PoolsFound } from './aks-pools.js';
import { BicepUnknown, evaluate } from './evaluate.js';
import type { BicepScope, BicepValue } from './evaluate.js';
import { parseBicep } from './grammar.js';

const isBicep = (path: string): boolean => path.endsWith('.bicep');
const isParams = (path: string): boolean => path.endsWith('.bicepparam');
const MARKERS = /Microsoft\.ContainerService\/managedClusters|container-service\/managed-cluster/;
// `param nodeCount = 3` in a parameter file: literal values only.
const PARAM_LINE = /^\s*param\s+([A-Za-z_]\w*)\s*=\s*(.+?)\s*(?:\/\/.*)?$/;

/**
 * AKS GPU node pools in Bicep (see aks-pools.ts). A template is read with the parameter files
 * beside it, whose values win over the parameters' defaults; a parameter with neither, or an
 * expression this tool does not evaluate, is a warning at its line, never a guess.
 */
export const bicepParser: CapacityParser = {
  id: 'bicep',
  acceptsPath: (path) => isBicep(path) || isParams(path),
  mightContain: (path, text) => (isBicep(path) && MARKERS.test(text)) || (isParams(path) && /^\s*param\s/m.test(text)),
  parse: (path, text) => parseBicepSet([{ path, text }]),
  parseSet: parseBicepSet,
};

export function parseBicepSet(files: readonly SourceFile[]): ParseResult {
  const result: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };
  const values = new Map<string, BicepValue>();
  for (const f of files.filter((x) => isParams(x.path))) {
    for (const l of f.text.split('\n')) {
      const m = PARAM_LINE.exec(l);
      const literal = m?.[2] === undefined ? undefined : paramLiteral(m[2]);
      if (m?.[1] !== undefined && literal !== undefined) values.set(m[1], literal);
    }
  }
  for (const f of files) {
    if (!isBicep(f.path) || !MARKERS.test(f.text)) continue;
    const parsed = parseBicep(f.text);
    if ('error' in parsed) {
      result.diagnostics.push(diagnostic(f.path, null, 'warning', `${parsed.error}: its AKS node pools are not read`));
      continue;
    }
    const root = parsed.tree.rootNode;
    if (root.hasError) {
      const bad = firstError(root);
      result.diagnostics.push(
        diagnostic(
          f.path,
          bad === null ? null : clampLine(bad.startPosition.row + 1, f.text),
          'warning',
          'Bicep syntax this tool cannot read here; the pools it declares may not all be read',
        ),
      );
    }
    const budget = new Budget();
    const found: PoolsFound = { decls: [], unresolved: [], diagnostics: [] };
    try {
      readAksPools(f.path, root, fileScope(root, values, budget), found);
    } catch (err) {
      if (!(err instanceof BudgetExceeded)) throw err;
      // Cut short: nothing read is trusted, and the pools found so far are kept as count unknown.
      found.unresolved.push(...found.decls.map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name })));
      found.decls = [];
      found.diagnostics.push(
        diagnostic(
          f.path,
          null,
          'error',
          `evaluating this template's expressions went over gpu-justify's budget (${err.message}); its AKS node pools are not read`,
        ),
      );
    } finally {
      parsed.tree.delete();
    }
    result.decls.push(...found.decls);
    result.unresolved.push(...found.unresolved);
    result.diagnostics.push(...found.diagnostics);
  }
  return result;
}

/** Parameters (the parameter file's value, else the default) and variables of one template. */
function fileScope(root: Node, values: ReadonlyMap<string, BicepValue>, budget: Budget): BicepScope {
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
    if (values.has(name)) return values.get(name) ?? null;
    const node = defaults.get(name) ?? variables.get(name);
    if (node === undefined || node === null) {
      throw new BicepUnknown(
        defaults.has(name)
          ? `parameter ${name} has no default and no value in a parameter file beside it`
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

function paramLiteral(text: string): BicepValue | undefined {
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  const quoted = /^'((?:[^'\\]|\\.)*)'$/.exec(text);
  return quoted?.[1] !== undefined && !quoted[1].includes('${') ? quoted[1].replace(/\\(.)/g, '$1') : undefined;
}

function firstError(node: Node): Node | null {
  if (node.type === 'ERROR' || node.isMissing) return node;
  for (const c of node.children) {
    if (c?.hasError) return firstError(c);
  }
  return null;
}
