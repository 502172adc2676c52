import type { Node } from 'web-tree-sitter';
import type { Diagnostic } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import type { Unfollowed } from '../parser.js';
import { noPools } from './aks-pools.js';
import type { ModuleCall, ModuleReader, PoolsFound } from './aks-pools.js';
import { evaluate } from './evaluate.js';
import type { Given, ReadContext, TemplateReader } from './reading.js';
import { BicepUnknown } from './values.js';
import type { BicepValue } from './values.js';

// Modules calling modules: followed this deep.
const MAX_DEPTH = 4;

/** A registry reference (`br:…`, `br/public:…`, `ts:…`, `ts/alias:…`), not a file of this repository. */
const REGISTRY = /^(br|ts)[:/]/;

/**
 * Public registry modules that create no compute (networks, identities, storage, monitoring): what
 * they are handed sizes no GPU pool. Azure Verified Modules are `avm/res/<provider>/<type>`; those
 * of the providers below may run GPU machines (VMs, scale sets, AKS, Azure ML compute, Batch pools,
 * container instances and apps), and so do pattern modules (`avm/ptn/…`), which compose them.
 */
const COMPUTE_PROVIDERS =
  /^(compute|container-service|machine-learning-services|batch|container-instance|app|web|hybrid-container-service|kubernetes-runtime|desktop-virtualization)\//;
const PUBLIC = /^br(?:\/public:|:mcr\.microsoft\.com\/bicep\/)(?:avm\/(res|ptn|utl)\/)?([^:]+)/;

function mayDeclareCompute(target: string): boolean {
  const m = PUBLIC.exec(target);
  if (m === null) return true;
  if (m[1] === 'utl') return false;
  if (m[1] === 'ptn') return true;
  return COMPUTE_PROVIDERS.test(m[2] ?? '');
}

/** `a/b` + `../c.bicep` → `a/c.bicep`; null when it leaves the repository. */
function join(dir: string, rel: string): string | null {
  const out = dir === '' ? [] : dir.split('/');
  for (const step of rel.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(step);
  }
  return out.join('/');
}

/** The repository path of a local module (`./modules/aks.bicep`, `modules/aks.bicep`); null for a registry's. */
export function localModulePath(file: string, target: string): string | null {
  return REGISTRY.test(target) || /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? null : join(dirOf(file), target);
}

const line = (n: Node): number => n.startPosition.row + 1;

/** `{ key: value }` → its properties' names and value nodes. */
function properties(obj: Node | null): [string, Node][] {
  if (obj?.type !== 'object') return [];
  const out: [string, Node][] = [];
  for (const prop of obj.namedChildren) {
    if (prop?.type !== 'object_property') continue;
    const [k, v] = prop.namedChildren;
    if (!k || !v) continue;
    out.push([k.type === 'string' ? k.text.slice(1, -1) : k.text, v]);
  }
  return out;
}

/**
 * Module calls: a module of this repository is read with the parameters the call gives it, and
 * what it declares is reported at the call; a module that is not in the tree, or from a registry
 * (other than those that create no compute), makes each parameter a note that a review raises when
 * its value changes: its defaults may be GPU machines.
 */
export function moduleReader(ctx: ReadContext, read: TemplateReader): ModuleReader {
  return (call) => {
    const path = localModulePath(call.file, call.target);
    if (path !== null && ctx.templates.has(path) && !ctx.chain.includes(path) && ctx.chain.length <= MAX_DEPTH) {
      return placed(read(path, givenBy(call), `from module ${call.symbol} in ${call.file}`, ctx), call);
    }
    if (path === null && !mayDeclareCompute(call.target)) return noPools();
    return { ...noPools(), notFollowed: callNotes(call, path === null ? 'remote-module' : 'local-module') };
  };
}

/** The parameters a call gives, each evaluated where the call is (unknown ones stay unknown). */
function givenBy(call: ModuleCall): Given {
  const params = properties(call.body).find(([k]) => k === 'params')?.[1] ?? null;
  const given = new Map<string, BicepValue | BicepUnknown>();
  if (params === null) return (name) => given.get(name);
  if (params.type !== 'object') {
    // `params: settings`: an object built elsewhere; when it cannot be told, neither can any parameter.
    try {
      const v = evaluate(params, call.scope);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) given.set(k, x);
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      return () => err;
    }
    return (name) => given.get(name);
  }
  for (const [name, node] of properties(params)) {
    try {
      given.set(name, evaluate(node, call.scope));
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      given.set(name, err);
    }
  }
  return (name) => given.get(name);
}

/** A module's findings moved to the call that asked for them. */
function placed(found: PoolsFound, call: ModuleCall): PoolsFound {
  const at = call.line;
  const where = `module ${call.symbol} (${call.target})`;
  return {
    decls: found.decls.map((d) => ({ ...d, file: call.file, line: at, parts: d.parts.map((p) => ({ ...p, line: at })) })),
    unresolved: found.unresolved.map((u) => ({ ...u, file: call.file, line: at })),
    diagnostics: found.diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d): Diagnostic => ({ ...d, file: call.file, line: at, message: `${where}: ${d.message}` })),
    notFollowed: found.notFollowed.map((n) => ({ ...n, file: call.file, line: at })),
    accounted: found.accounted,
  };
}

/** One note per parameter of a call whose module is not read, and one for the module itself, each fingerprinted by its value. */
function callNotes(call: ModuleCall, reason: 'local-module' | 'remote-module'): Unfollowed[] {
  const subject = `module ${call.symbol}`;
  const notes: Unfollowed[] = [
    { file: call.file, line: call.line, reason, subject, needs: call.target, inputs: ['source'], fingerprint: call.target },
  ];
  const params = properties(call.body).find(([k]) => k === 'params')?.[1] ?? null;
  const inputs: [string, Node][] = params === null ? [] : params.type === 'object' ? properties(params) : [['params', params]];
  for (const [name, node] of inputs) {
    let value: string;
    try {
      value = JSON.stringify(evaluate(node, call.scope));
    } catch (err) {
      if (!(err instanceof BicepUnknown)) throw err;
      value = `unknown: ${node.text}`;
    }
    notes.push({
      file: call.file,
      line: line(node),
      reason,
      subject,
      needs: call.target,
      inputs: [name],
      fingerprint: JSON.stringify([name, value]),
    });
  }
  return notes;
}
