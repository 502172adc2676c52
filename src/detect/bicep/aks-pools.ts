import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, Diagnostic } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import type { AccountedLines, Unfollowed, UnresolvedDecl } from '../parser.js';
import { groupCopies } from '../terraform/copies.js';
import type { CopyReading } from '../terraform/copies.js';
import { bindScope, evaluate, loopItems, loopParts } from './evaluate.js';
import { BicepUnknown } from './values.js';
import type { BicepScope, BicepValue } from './values.js';

const KIND = 'aks-node-pool' as const;
const CLUSTER = 'Microsoft.ContainerService/managedClusters@';
const AGENT_POOL = 'Microsoft.ContainerService/managedClusters/agentPools@';
// Azure Verified Modules' AKS module (`br/public:avm/res/container-service/managed-cluster:…`).
const AVM_CLUSTER = /container-service\/managed-cluster/;
const AVM_POOL_PARAMS = ['primaryAgentPoolProfile', 'primaryAgentPoolProfiles', 'agentPools'];

export interface PoolsFound {
  decls: CapacityDecl[];
  unresolved: UnresolvedDecl[];
  diagnostics: Diagnostic[];
  notFollowed: Unfollowed[];
  /** Lines of the templates read whole (accounting.ts). */
  accounted: AccountedLines[];
}

export const noPools = (): PoolsFound => ({ decls: [], unresolved: [], diagnostics: [], notFollowed: [], accounted: [] });

/** A `module` declaration other than the verified AKS module's, one copy of it: read by modules.ts. */
export interface ModuleCall {
  file: string;
  symbol: string;
  /** The module's path or registry reference, as written. */
  target: string;
  body: Node;
  scope: BicepScope;
  line: number;
}

export type ModuleReader = (call: ModuleCall) => PoolsFound;

const line = (n: Node): number => n.startPosition.row + 1;

/** `{ key: value }` → the value node of `key`, or null. */
function property(obj: Node | null, key: string): Node | null {
  if (obj?.type !== 'object') return null;
  for (const prop of obj.namedChildren) {
    if (prop?.type !== 'object_property') continue;
    const [k, v] = prop.namedChildren;
    const name = k?.type === 'string' ? k.text.slice(1, -1) : k?.text;
    if (name === key) return v ?? null;
  }
  return null;
}

/**
 * GPU node pools of AKS clusters in one Bicep file: a managedClusters resource's
 * `properties.agentPoolProfiles`, managedClusters/agentPools resources, and the pools handed
 * to Azure Verified Modules' AKS module. Each pool's GPUs are its node count (maxCount when it
 * autoscales) × its VM size's GPUs. Other modules are `readModule`'s. A declaration copied by a
 * loop (`[for p in pools: {…}]`) is read once per copy; copies that name a pool alike are one pool.
 */
export function readAksPools(file: string, root: Node, scope: BicepScope, out: PoolsFound, readModule: ModuleReader): Node[] {
  const read: Node[] = [];
  for (const decl of root.namedChildren) {
    if (decl === null) continue;
    const [symbol, target, value] = decl.namedChildren.filter((c): c is Node => c !== null && c.type !== 'decorators');
    if (!symbol || !target || !value) continue;
    const type = target.text.slice(1, -1);
    const isModule = decl.type === 'module_declaration';
    const where = `${isModule ? 'module' : 'resource'} ${symbol.text}`;
    let reader: ((body: Node, s: BicepScope, into: PoolsFound) => void) | null = null;
    if (decl.type === 'resource_declaration' && type.startsWith(CLUSTER)) {
      reader = (body, s, into) => {
        const pools = property(property(body, 'properties'), 'agentPoolProfiles');
        for (const pool of poolItems(file, where, 'agentPoolProfiles', pools, s, into))
          readPool(file, where, pool.node, pool.node, pool.scope, into);
      };
    } else if (decl.type === 'resource_declaration' && type.startsWith(AGENT_POOL)) {
      reader = (body, s, into) => readPool(file, where, body, property(body, 'properties'), s, into);
    } else if (isModule && AVM_CLUSTER.test(type)) {
      reader = (body, s, into) => {
        const params = property(body, 'params');
        for (const key of AVM_POOL_PARAMS) {
          const v = property(params, key);
          const pools = v?.type === 'object' ? [{ node: v, scope: s }] : poolItems(file, where, key, v, s, into);
          for (const pool of pools) readPool(file, where, pool.node, pool.node, pool.scope, into);
        }
      };
    } else if (isModule) {
      reader = (body, s, into) => add(into, readModule({ file, symbol: symbol.text, target: type, body, scope: s, line: line(decl) }));
    }
    if (reader === null) continue;
    read.push(decl);
    if (value.type === 'for_statement') readCopies(file, where, value, scope, out, reader);
    else {
      const body = bodyOf(file, where, value, scope, out);
      if (body !== null) reader(body, scope, out);
    }
  }
  return read;
}

function add(into: PoolsFound, found: PoolsFound): void {
  into.decls.push(...found.decls);
  into.unresolved.push(...found.unresolved);
  into.diagnostics.push(...found.diagnostics);
  into.notFollowed.push(...found.notFollowed);
  into.accounted.push(...found.accounted);
}

/**
 * A declaration copied by a loop, read copy by copy (an `if` in the loop keeps the copies it holds
 * for). Copies whose number cannot be told leave what the declaration would hold as count unknown.
 */
function readCopies(
  file: string,
  where: string,
  loop: Node,
  scope: BicepScope,
  out: PoolsFound,
  read: (body: Node, s: BicepScope, into: PoolsFound) => void,
): void {
  let copies: ReturnType<typeof loopItems>;
  try {
    copies = loopItems(loop, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    // What one copy would declare, its loop variables unknown: GPU pools there have an unknown count.
    const { item, index } = loopParts(loop);
    const unknown = new BicepUnknown(`${item}, a copy of a loop over ${err.culprit}`);
    const probe = noPools();
    const body = loopParts(loop).body;
    const object = body?.type === 'if_statement' ? (body.namedChildren[1] ?? null) : body;
    if (object !== null) {
      const vars = new Map<string, BicepUnknown>([[item, unknown], ...(index === null ? [] : [[index, unknown] as const])]);
      read(object, bindScope(scope, vars), probe);
    }
    const all = [...probe.decls, ...probe.unresolved];
    if (all.length === 0 && probe.diagnostics.length === 0) return;
    out.unresolved.push(...all.map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name })));
    out.notFollowed.push(...probe.notFollowed);
    out.accounted.push(...probe.accounted);
    out.diagnostics.push(
      diagnostic(file, line(loop), 'warning', `${where}: its copies come from ${err.culprit}: cannot tell how many GPU pools it declares`),
    );
    return;
  }
  const readings: CopyReading[] = [];
  const seen = new Set<string>();
  for (const copy of copies) {
    let body = copy.body;
    if (body?.type === 'if_statement') {
      const [condition, then] = body.namedChildren;
      let holds: BicepValue;
      try {
        holds = evaluate(condition ?? null, copy.scope);
      } catch (err) {
        if (!(err instanceof BicepUnknown)) throw err;
        holds = true;
        out.diagnostics.push(
          diagnostic(file, line(body), 'warning', `${where}: cannot tell whether copy ${copy.key} exists (${err.culprit}); it is counted`),
        );
      }
      if (holds !== true) continue;
      body = then ?? null;
    }
    if (body === null) continue;
    const found = noPools();
    read(body, copy.scope, found);
    readings.push({ key: copy.key, decls: found.decls, unresolved: found.unresolved });
    out.notFollowed.push(...found.notFollowed);
    out.accounted.push(...found.accounted);
    for (const d of found.diagnostics) {
      const k = `${d.line ?? ''}\u0000${d.message}`;
      if (!seen.has(k)) out.diagnostics.push(d);
      seen.add(k);
    }
  }
  const grouped = groupCopies(readings);
  out.decls.push(...grouped.decls);
  out.unresolved.push(...grouped.unresolved);
}

/** The object a declaration creates: itself, or the body of `if (…)` when the condition holds. */
function bodyOf(file: string, where: string, value: Node, scope: BicepScope, out: PoolsFound): Node | null {
  if (value.type === 'object') return value;
  if (value.type !== 'if_statement') return null;
  const [condition, body] = value.namedChildren;
  if (!condition || body?.type !== 'object') return null;
  try {
    return evaluate(condition, scope) === true ? body : null;
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    if (/gpu|standard_n[cdv]/i.test(body.text))
      out.diagnostics.push(
        diagnostic(file, line(value), 'warning', `${where}: cannot tell whether it exists (${err.culprit}); its GPUs are not counted`),
      );
    return null;
  }
}

/**
 * The pools of a pool list, each with the scope it is read in: the items of an array, or the
 * copies of `[for p in pools: {…}]`. A list built otherwise (a function, a variable) is evaluated
 * and its pools read as values. A list that cannot be told is said, when it or the list a loop runs
 * over names a GPU VM size.
 */
function poolItems(
  file: string,
  where: string,
  key: string,
  node: Node | null,
  scope: BicepScope,
  out: PoolsFound,
): { node: Node; scope: BicepScope }[] {
  if (node === null) return [];
  if (node.type === 'array') return arrayItems(node).map((n) => ({ node: n, scope }));
  if (node.type === 'for_statement') {
    try {
      const items: { node: Node; scope: BicepScope }[] = [];
      for (const copy of loopItems(node, scope)) {
        let body = copy.body;
        if (body?.type === 'if_statement') {
          if (evaluate(body.namedChildren[0] ?? null, copy.scope) !== true) continue;
          body = body.namedChildren[1] ?? null;
        }
        if (body?.type === 'object') items.push({ node: body, scope: copy.scope });
      }
      return items;
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      unreadList(file, where, key, node, scope, out, err.culprit);
      return [];
    }
  }
  unreadList(file, where, key, node, scope, out, null);
  return [];
}

/** A pool list this tool cannot read: said when it, or the list a loop runs over, names a GPU VM size. */
function unreadList(
  file: string,
  where: string,
  key: string,
  node: Node,
  scope: BicepScope,
  out: PoolsFound,
  culprit: string | null,
): void {
  if (node.type === 'object') return;
  // `[for item in list: {…}]`: the initializer, the list, the body, in that order.
  const iterable = node.type === 'for_statement' ? node.namedChildren[1] : null;
  let listed: BicepValue = null;
  try {
    listed = evaluate(iterable ?? node, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
  }
  if (!/gpu|standard_n[cdv]/i.test(node.text) && !namesGpuSize(listed)) return;
  out.diagnostics.push(
    diagnostic(
      file,
      line(node),
      'warning',
      `${where}: ${key} is built by an expression (${node.type.replace(/_/g, ' ')}) this tool does not evaluate${culprit === null ? '' : ` (${culprit})`}; the GPUs of its pools are not counted`,
    ),
  );
  out.unresolved.push({ file, line: line(node), kind: KIND, name: `${where.split(' ')[1] ?? 'pools'}.${key}` });
}

function namesGpuSize(v: BicepValue): boolean {
  if (typeof v === 'string') return looksLikeGpuType(v);
  if (Array.isArray(v)) return v.some(namesGpuSize);
  return v !== null && typeof v === 'object' && Object.values(v).some(namesGpuSize);
}

function arrayItems(node: Node | null): Node[] {
  return node?.type === 'array' ? node.namedChildren.filter((c): c is Node => c !== null && c.type === 'object') : [];
}

function readPool(file: string, where: string, pool: Node, props: Node | null, scope: BicepScope, out: PoolsFound): void {
  const nameNode = property(pool, 'name');
  let name = `${where.split(' ')[1] ?? 'pool'}`;
  try {
    const v = nameNode ? evaluate(nameNode, scope) : null;
    // `cluster/pool`, the older way to name a child resource.
    if (typeof v === 'string' && v !== '') name = v.split('/').pop() ?? v;
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
  }
  const label = `${where}, pool ${name}`;
  const warn = (at: Node, why: string) =>
    out.diagnostics.push(diagnostic(file, line(at), 'warning', `${label}: ${why}; its GPUs are not counted`));
  const sizeNode = property(props, 'vmSize');
  if (sizeNode === null) return;
  let size: BicepValue;
  try {
    size = evaluate(sizeNode, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    // A system pool's size from a parameter is almost always a CPU size: only a pool that says GPU is warned about.
    if (/gpu/i.test(pool.text)) warn(sizeNode, `vmSize = ${sizeNode.text}: ${err.culprit}`);
    return;
  }
  if (typeof size !== 'string') return;
  const row = lookupInstanceType(size);
  if (row === null) {
    if (looksLikeGpuType(size)) warn(sizeNode, `VM size ${size} is not in the GPU catalog`);
    return;
  }
  const counted = nodeCount(props, scope);
  if ('unknown' in counted) {
    warn(counted.at ?? pool, counted.unknown);
    out.unresolved.push({ file, line: line(counted.at ?? pool), kind: KIND, name });
    return;
  }
  const at = counted.at ?? pool;
  const gpus = counted.nodes * row.gpus;
  out.decls.push({
    file,
    line: line(at),
    kind: KIND,
    name,
    gpuModel: row.gpuModel,
    gpus,
    gpuStep: row.gpus,
    parts: [
      {
        label: `${name}: ${counted.nodes} node${counted.nodes === 1 ? '' : 's'} × ${row.type}${counted.note ? ` (${counted.note})` : ''}`,
        resource: PRIMARY_GPU_RESOURCE,
        gpus,
        line: line(at),
      },
    ],
  });
}

type Counted = { nodes: number; at: Node | null; note?: string } | { unknown: string; at: Node | null };

/** maxCount when the pool autoscales, else count (1 when not set, as AKS creates one node). */
function nodeCount(props: Node | null, scope: BicepScope): Counted {
  const flagNode = property(props, 'enableAutoScaling');
  let autoscaled: boolean;
  try {
    autoscaled = flagNode !== null && evaluate(flagNode, scope) === true;
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    return { unknown: `enableAutoScaling = ${flagNode?.text ?? ''}: ${err.culprit}`, at: flagNode };
  }
  const key = autoscaled ? 'maxCount' : 'count';
  const node = property(props, key);
  if (node === null)
    return autoscaled ? { unknown: 'autoscales but maxCount is not set', at: flagNode } : { nodes: 1, at: null, note: 'count not set: 1' };
  try {
    const v = evaluate(node, scope);
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return { nodes: v, at: node };
    return { unknown: `${key} is ${JSON.stringify(v)}, not a whole number`, at: node };
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    return { unknown: `${key} = ${node.text}: ${err.culprit}`, at: node };
  }
}
