import type { Node } from 'web-tree-sitter';
import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, Diagnostic } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import type { AccountedLines, Unfollowed, UnresolvedDecl } from '../parser.js';
import { groupCopies } from '../terraform/copies.js';
import type { CopyReading } from '../terraform/copies.js';
import { bindScope, evaluate, loopItems, loopParts } from './evaluate.js';
import { arrayItemFields, fieldsOf, literalFields, property, valueFields } from './fields.js';
import type { Field, Fields } from './fields.js';
import { unreadList, unreadObject } from './unread-pools.js';
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
    // Each reader says whether it read the declaration whole: one it could not (properties built by an
    // expression it cannot evaluate) is left out of what is accounted for, so the floor names its GPU lines.
    let reader: ((body: Node, s: BicepScope, into: PoolsFound) => boolean) | null = null;
    if (decl.type === 'resource_declaration' && type.startsWith(CLUSTER)) {
      reader = (body, s, into) => {
        const props = fieldsOf(property(body, 'properties'), s);
        if (props instanceof BicepUnknown) return unreadObject(file, where, 'properties', body, into, props.culprit);
        const pools = poolItems(file, where, 'agentPoolProfiles', props?.get('agentPoolProfiles') ?? null, s, into);
        return pools !== null && readPools(file, where, pools, into);
      };
    } else if (decl.type === 'resource_declaration' && type.startsWith(AGENT_POOL)) {
      reader = (body, s, into) => {
        const props = fieldsOf(property(body, 'properties'), s);
        if (props instanceof BicepUnknown) return unreadObject(file, where, 'properties', body, into, props.culprit);
        return readPool(file, where, literalFields(body, s), props, into);
      };
    } else if (isModule && AVM_CLUSTER.test(type)) {
      reader = (body, s, into) => {
        const params = fieldsOf(property(body, 'params'), s);
        if (params instanceof BicepUnknown) return unreadObject(file, where, 'params', body, into, params.culprit);
        let whole = true;
        for (const key of AVM_POOL_PARAMS) {
          const pools = poolItems(file, where, key, params?.get(key) ?? null, s, into);
          whole = pools !== null && readPools(file, where, pools, into) && whole;
        }
        return whole;
      };
    } else if (isModule) {
      reader = (body, s, into) => {
        add(into, readModule({ file, symbol: symbol.text, target: type, body, scope: s, line: line(decl) }));
        return true;
      };
    }
    if (reader === null) continue;
    let whole = true;
    if (value.type === 'for_statement') whole = readCopies(file, where, value, scope, out, reader);
    else {
      const body = bodyOf(file, where, value, scope, out);
      if (body !== null) whole = reader(body, scope, out);
    }
    if (whole) read.push(decl);
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
  read: (body: Node, s: BicepScope, into: PoolsFound) => boolean,
): boolean {
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
    if (all.length === 0 && probe.diagnostics.length === 0) return true;
    out.unresolved.push(...all.map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name })));
    out.notFollowed.push(...probe.notFollowed);
    out.accounted.push(...probe.accounted);
    out.diagnostics.push(
      diagnostic(file, line(loop), 'warning', `${where}: its copies come from ${err.culprit}: cannot tell how many GPU pools it declares`),
    );
    return true;
  }
  const readings: CopyReading[] = [];
  const seen = new Set<string>();
  let whole = true;
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
    whole = read(body, copy.scope, found) && whole;
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
  return whole;
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
 * The pools of a pool list, each read in its scope: the items of an array (each an object literal or
 * an expression that builds one), the copies of `[for p in pools: {…}]`, or the items of a list an
 * expression builds (a variable, `concat(…)`, `array(union(…))`); AVM's single-pool parameters are
 * one object. Null when the list cannot be told: said when it, or the list a loop runs over, names a
 * GPU VM size, and never read as no pools.
 */
function poolItems(file: string, where: string, key: string, field: Field | null, scope: BicepScope, out: PoolsFound): Fields[] | null {
  if (field === null) return [];
  const node = field.node;
  if (node?.type === 'array') {
    const items: Fields[] = [];
    for (const fields of arrayItemFields(node, scope)) {
      if (fields instanceof BicepUnknown) return unreadList(file, where, key, node, scope, out, fields.culprit);
      if (fields !== null) items.push(fields);
    }
    return items;
  }
  if (node?.type === 'for_statement') {
    try {
      const items: Fields[] = [];
      for (const copy of loopItems(node, scope)) {
        let body = copy.body;
        if (body?.type === 'if_statement') {
          if (evaluate(body.namedChildren[0] ?? null, copy.scope) !== true) continue;
          body = body.namedChildren[1] ?? null;
        }
        const fields = fieldsOf(body, copy.scope);
        if (fields instanceof BicepUnknown) throw fields;
        if (fields !== null) items.push(fields);
      }
      return items;
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      return unreadList(file, where, key, node, scope, out, err.culprit);
    }
  }
  if (node?.type === 'object') return [literalFields(node, scope)];
  let listed: BicepValue;
  try {
    listed = field.value();
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    return unreadList(file, where, key, field.at, scope, out, err.culprit);
  }
  const values = Array.isArray(listed) ? listed : [listed];
  return values.flatMap((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? [valueFields(field.at, v)] : []));
}

function readPools(file: string, where: string, pools: readonly Fields[], out: PoolsFound): boolean {
  let whole = true;
  for (const pool of pools) whole = readPool(file, where, pool, pool, out) && whole;
  return whole;
}

/** One pool; false when its VM size cannot be told (the declaration is then not read whole). */
function readPool(file: string, where: string, pool: Fields, props: Fields | null, out: PoolsFound): boolean {
  let name = `${where.split(' ')[1] ?? 'pool'}`;
  try {
    const v = pool.get('name')?.value() ?? null;
    // `cluster/pool`, the older way to name a child resource.
    if (typeof v === 'string' && v !== '') name = v.split('/').pop() ?? v;
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
  }
  const label = `${where}, pool ${name}`;
  const warn = (at: Node, why: string) =>
    out.diagnostics.push(diagnostic(file, line(at), 'warning', `${label}: ${why}; its GPUs are not counted`));
  const sizeField = props?.get('vmSize') ?? null;
  if (sizeField === null) return true;
  let size: BicepValue;
  try {
    size = sizeField.value();
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    // A system pool's size from a parameter is almost always a CPU size: only a pool that says GPU is warned about.
    if (/gpu/i.test(pool.text)) warn(sizeField.at, `vmSize = ${sizeField.text}: ${err.culprit}`);
    return false;
  }
  if (typeof size !== 'string') return true;
  const row = lookupInstanceType(size);
  if (row === null) {
    if (!looksLikeGpuType(size)) return true;
    warn(sizeField.at, `VM size ${size} is not in the GPU catalog`);
    return false;
  }
  const counted = nodeCount(props);
  if ('unknown' in counted) {
    warn(counted.at ?? pool.at, counted.unknown);
    out.unresolved.push({ file, line: line(counted.at ?? pool.at), kind: KIND, name });
    return true;
  }
  const at = counted.at ?? pool.at;
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
  return true;
}

type Counted = { nodes: number; at: Node | null; note?: string } | { unknown: string; at: Node | null };

/** maxCount when the pool autoscales, else count (1 when not set, as AKS creates one node). */
function nodeCount(props: Fields | null): Counted {
  const flag = props?.get('enableAutoScaling') ?? null;
  let autoscaled: boolean;
  try {
    autoscaled = flag !== null && flag.value() === true;
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    return { unknown: `enableAutoScaling = ${flag?.text ?? ''}: ${err.culprit}`, at: flag?.at ?? null };
  }
  const key = autoscaled ? 'maxCount' : 'count';
  const field = props?.get(key) ?? null;
  if (field === null)
    return autoscaled
      ? { unknown: 'autoscales but maxCount is not set', at: flag?.at ?? null }
      : { nodes: 1, at: null, note: 'count not set: 1' };
  try {
    const v = field.value();
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return { nodes: v, at: field.at };
    return { unknown: `${key} is ${JSON.stringify(v)}, not a whole number`, at: field.at };
  } catch (err) {
    if (!(err instanceof BicepUnknown)) throw err;
    return { unknown: `${key} = ${field.text}: ${err.culprit}`, at: field.at };
  }
}
