import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { looksLikeGpuType } from '../kit/gpu-types/index.js';
import type { UnresolvedDecl } from '../parser.js';
import { evaluate } from './evaluate.js';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';

// What the pool readers could not read: said only where a GPU size may hide, so CPU-only templates stay quiet.

const KIND = 'aks-node-pool' as const;
const line = (n: Node): number => n.startPosition.row + 1;

/** Where the notes go (a PoolsFound). */
interface Notes {
  diagnostics: Diagnostic[];
  unresolved: UnresolvedDecl[];
}

/** A pool list this tool cannot read: said when it, or the list a loop runs over, names a GPU VM size. */
export function unreadList(file: string, where: string, key: string, node: Node, scope: BicepScope, out: Notes, culprit: string): null {
  // `[for item in list: {…}]`: the initializer, the list, the body, in that order.
  const iterable = node.type === 'for_statement' ? node.namedChildren[1] : null;
  let listed: BicepValue = null;
  try {
    listed = evaluate(iterable ?? node, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
  }
  if (!/gpu|standard_n[cdv]/i.test(node.text) && !namesGpuSize(listed) && !readsGpuSize(node, scope)) return null;
  out.diagnostics.push(
    diagnostic(
      file,
      line(node),
      'warning',
      `${where}: ${key} is built by an expression (${node.type.replace(/_/g, ' ')}) this tool does not evaluate (${culprit}); the GPUs of its pools are not counted`,
    ),
  );
  // One unknown for the whole list: a pool the other side read there is unknown now, never removed.
  out.unresolved.push({ file, line: line(node), kind: KIND, name: `${where.split(' ')[1] ?? 'pools'}.${key}`, wholeList: true });
  return null;
}

/** A name the expression reads (a variable, a parameter) whose value names a GPU VM size: `concat(gpuPools, extra)`. */
function readsGpuSize(node: Node, scope: BicepScope): boolean {
  const names = new Set<string>();
  const walk = (n: Node): void => {
    if (n.type === 'identifier') names.add(n.text);
    for (const c of n.namedChildren) if (c !== null) walk(c);
  };
  walk(node);
  return [...names].some((name) => {
    try {
      return namesGpuSize(scope.lookup(name));
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      return false;
    }
  });
}

/** An object holding pools (a cluster's properties, a module's params) built by an expression that cannot be told. */
export function unreadObject(file: string, where: string, key: string, body: Node, out: Notes, culprit: string): false {
  if (/gpu|standard_n[cdv]/i.test(body.text))
    out.diagnostics.push(
      diagnostic(
        file,
        line(body),
        'warning',
        `${where}: ${key} is built by an expression this tool cannot evaluate (${culprit}); the GPUs of its pools are not counted`,
      ),
    );
  return false;
}

function namesGpuSize(v: BicepValue): boolean {
  if (typeof v === 'string') return looksLikeGpuType(v);
  if (Array.isArray(v)) return v.some(namesGpuSize);
  return v !== null && typeof v === 'object' && Object.values(v).some(namesGpuSize);
}
