import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, Diagnostic } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import type { UnresolvedDecl } from '../parser.js';
import { BicepUnknown, evaluate } from './evaluate.js';
import type { BicepScope, BicepValue } from './evaluate.js';

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
}

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
 * autoscales) × its VM size's GPUs.
 */
export function readAksPools(file: string, root: Node, scope: BicepScope, out: PoolsFound): void {
  for (const decl of root.namedChildren) {
    if (decl === null) continue;
    const [symbol, target, value] = decl.namedChildren.filter((c): c is Node => c !== null && c.type !== 'decorators');
    if (!symbol || !target || !value) continue;
    const type = target.text.slice(1, -1);
    const body = bodyOf(file, `${decl.type === 'module_declaration' ? 'module' : 'resource'} ${symbol.text}`, value, scope, out);
    if (body === null) continue;
    if (decl.type === 'resource_declaration' && type.startsWith(CLUSTER)) {
      const pools = property(property(body, 'properties'), 'agentPoolProfiles');
      unreadList(file, `resource ${symbol.text}`, 'agentPoolProfiles', pools, scope, out);
      for (const pool of arrayItems(pools)) readPool(file, `resource ${symbol.text}`, pool, pool, scope, out);
    } else if (decl.type === 'resource_declaration' && type.startsWith(AGENT_POOL)) {
      readPool(file, `resource ${symbol.text}`, body, property(body, 'properties'), scope, out);
    } else if (decl.type === 'module_declaration' && AVM_CLUSTER.test(type)) {
      const params = property(body, 'params');
      for (const key of AVM_POOL_PARAMS) {
        const v = property(params, key);
        unreadList(file, `module ${symbol.text}`, key, v, scope, out);
        for (const pool of v?.type === 'array' ? arrayItems(v) : v ? [v] : [])
          readPool(file, `module ${symbol.text}`, pool, pool, scope, out);
      }
    }
  }
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
 * A pool list built by a loop or a function is not read: said when it, or the list a loop runs
 * over, names a GPU VM size.
 */
function unreadList(file: string, where: string, key: string, node: Node | null, scope: BicepScope, out: PoolsFound): void {
  if (node === null || node.type === 'array' || node.type === 'object') return;
  // `[for item in list: {…}]`: the initializer, the list, the body, in that order.
  const iterable = node.type === 'for_statement' ? node.namedChildren[1] : null;
  let listed: BicepValue = null;
  try {
    if (iterable) listed = evaluate(iterable, scope);
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
  }
  if (!/gpu|standard_n[cdv]/i.test(node.text) && !namesGpuSize(listed)) return;
  out.diagnostics.push(
    diagnostic(
      file,
      line(node),
      'warning',
      `${where}: ${key} is built by an expression (${node.type.replace(/_/g, ' ')}) this tool does not evaluate; the GPUs of its pools are not counted`,
    ),
  );
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
