import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, CapacityKind } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { sharingOnPool } from '../kit/pool-sharing.js';
import type { PValue, Scope } from './expr-eval.js';
import { readAksDefaultPool, readAksPool, readEksNodeGroup } from './eks-aks.js';
import type { PoolReading } from './gpu-shape.js';
import { readGkePool } from './gke.js';
import { readCivoClusterPool, readCivoPool } from './civo-pools.js';
import { readCrusoePool, readNebiusNodeGroup, readOciPool } from './neocloud-pools.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { copiesOf, groupCopies, keyLabel } from './copies.js';
import type { CopyReading } from './copies.js';
import { evaluate, Unk } from './expr-eval.js';
import { PoolContext, single, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';

type Reader = (ctx: PoolContext, body: Record<string, unknown>, label: string) => PoolReading | null;

interface ResourceKind {
  kind: CapacityKind;
  read: Reader;
  /** Where the pool's literal name is, when not the resource's own `name` (or `node_group_name`). */
  nameOf?: (raw: Record<string, unknown>) => unknown;
}

export const RESOURCE_KINDS: Readonly<Record<string, ResourceKind>> = {
  google_container_node_pool: { kind: 'gke-node-pool', read: readGkePool },
  aws_eks_node_group: { kind: 'eks-node-group', read: readEksNodeGroup },
  azurerm_kubernetes_cluster_node_pool: { kind: 'aks-node-pool', read: readAksPool },
  // The cluster's name is not its default pool's.
  azurerm_kubernetes_cluster: { kind: 'aks-node-pool', read: readAksDefaultPool, nameOf: (raw) => single(raw.default_node_pool).name },
  nebius_mk8s_v1_node_group: { kind: 'nebius-node-group', read: readNebiusNodeGroup },
  crusoe_kubernetes_node_pool: { kind: 'crusoe-node-pool', read: readCrusoePool },
  oci_containerengine_node_pool: { kind: 'oci-node-pool', read: readOciPool },
  civo_kubernetes_node_pool: { kind: 'civo-node-pool', read: readCivoPool, nameOf: (raw) => raw.label },
  civo_kubernetes_cluster: { kind: 'civo-node-pool', read: readCivoClusterPool, nameOf: (raw) => single(raw.pools).label },
};

/** Every node pool resource of one file: one decl per pool, its copies (`count`, `for_each`) counted. */
export function readResources(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  const resources = asRecord(body.resource);
  for (const [type, { kind, read, nameOf }] of Object.entries(RESOURCE_KINDS)) {
    for (const [label, blocks] of Object.entries(asRecord(resources[type]))) {
      const block = loc.path(loc.file(), [['resource', type, label]]);
      if (!Array.isArray(blocks)) continue;
      if (!block) {
        // Parsed but not found in the text: its values cannot be placed, so the pool is not read, never skipped.
        out.diagnostics.push(
          diagnostic(file, null, 'error', `resource "${type}" "${label}" could not be located in the file's text; this pool was not read`),
        );
        continue;
      }
      const raw = asRecord(blocks[blocks.length - 1]);
      const found = readResource({ file, loc, block, scope, type, label, kind, read, raw, name: literalName(raw, nameOf) ?? label });
      out.decls.push(...found.decls);
      out.unresolved.push(...found.unresolved);
      out.diagnostics.push(...found.diagnostics);
    }
  }
  return out;
}

interface Resource {
  file: string;
  loc: Locator;
  block: Span;
  scope: Scope;
  type: string;
  label: string;
  kind: CapacityKind;
  read: Reader;
  raw: Record<string, unknown>;
  /** The pool's name when it is a literal, else the label: what an unknown copy is called. */
  name: string;
}

type Reading = (PoolReading & { copies?: number; each?: PoolReading[] }) | null;

/** One resource block, read as many times as it is copied. */
function readResource(r: Resource): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  const context = (scope: Scope, address: string) => new PoolContext(r.file, r.loc, r.block, scope, address);
  const address = `${r.type}.${r.label}`;
  /** A reading, or null for a pool of no GPUs, or 'unknown' (its warning in the context). */
  const attempt = (ctx: PoolContext, reading: () => Reading): Reading | 'unknown' => {
    try {
      return reading();
    } catch (err) {
      if (!(err instanceof Unknown)) throw err;
      return 'unknown';
    } finally {
      out.diagnostics.push(...ctx.diagnostics);
    }
  };
  // Copies counted apart under one name are one declaration of several addresses: the resource's own.
  const addressed = (key?: string | number) => ({
    address: { at: key === undefined ? address : `${address}${keyLabel(key)}`, formerly: [] },
  });
  const collect = (reading: Reading | 'unknown', key?: string | number): CopyReading['decls'] | 'unknown' => {
    if (reading === 'unknown') return 'unknown';
    if (reading === null) return [];
    const decls = reading.each ? countedDecls(r.file, r.kind, reading.each) : [toDecl(r.file, r.kind, reading, reading.copies ?? 1)];
    return decls.length === 1 ? decls.map((d) => ({ ...d, ...addressed(key) })) : decls;
  };

  if (r.raw.for_each === undefined) {
    const at = (index: number) => context(withBound(r.scope, 'count', { index }), address);
    const ctx = at(0);
    // count is read only for pools with GPUs: a CPU pool's count is not this tool's business.
    const reading = attempt(ctx, () => {
      const first = r.read(ctx, r.raw, r.label);
      const copies = first === null || r.raw.count === undefined ? 1 : (ctx.count(r.raw.count, 'count', ['count']) ?? 1);
      if (first === null || copies === 0) return null;
      if (copies === 1 || copies > MAX_COUNT_READS) return { ...first, copies };
      // Each copy read with its own count.index: `pow(2, count.index)` GPUs per node differ.
      const each = [first];
      for (let i = 1; i < copies; i++) {
        const other = at(i);
        try {
          const ri = r.read(other, r.raw, r.label);
          if (ri) each.push(ri);
        } finally {
          ctx.diagnostics.push(...other.diagnostics);
        }
      }
      return each.every((x) => sameReading(x, first)) ? { ...first, copies } : { ...first, each };
    });
    // One copy by `count` is Terraform's `[0]`; more, counted as one, stand at the resource's address.
    const one = r.raw.count !== undefined && reading !== 'unknown' && reading !== null && reading.copies === 1;
    const decls = collect(reading, one ? 0 : undefined);
    if (decls === 'unknown') out.unresolved.push({ file: r.file, line: r.block.line, kind: r.kind, name: r.name, ...addressed() });
    else out.decls.push(...decls);
    return out;
  }

  const copies = copiesOf(r.raw, r.scope);
  if (copies === null || 'culprit' in copies) {
    // How many copies is unknown: a pool that has no GPUs whatever its key is no business of this tool's.
    const probe = context(withBound(r.scope, 'each', { key: new Unk('each.key'), value: new Unk('each.value') }), address);
    const reading = attempt(probe, () => r.read(probe, r.raw, r.label));
    out.diagnostics.length = 0;
    if (reading === null) return out;
    const ctx = context(r.scope, address);
    const why = copies === null ? 'for_each' : copies.culprit;
    ctx.warn(ctx.line(['for_each']), `for_each comes from ${why}: cannot tell how many copies of the pool there are, nor their GPUs`);
    out.diagnostics.push(...ctx.diagnostics);
    out.unresolved.push({ file: r.file, line: r.block.line, kind: r.kind, name: r.name, ...addressed() });
    return out;
  }
  const readings: CopyReading[] = [];
  for (const { key, scope } of copies) {
    const ctx = context(scope, `${address}${keyLabel(key)}`);
    const fallback = typeof key === 'string' ? key : `${r.label}[${String(key)}]`;
    const decls = collect(
      attempt(ctx, () => r.read(ctx, r.raw, fallback)),
      key,
    );
    const unknown = { file: r.file, line: r.block.line, kind: r.kind, name: copyName(r.raw, scope, fallback), ...addressed(key) };
    readings.push(decls === 'unknown' ? { key, decls: [], unresolved: [unknown] } : { key, decls, unresolved: [] });
  }
  const grouped = groupCopies(readings);
  // Copies grouped under one name stand at the resource's address.
  out.decls.push(...grouped.decls.map((d) => (d.address === undefined ? { ...d, ...addressed() } : d)));
  out.unresolved.push(...grouped.unresolved);
  return out;
}

/** The name an unreadable copy goes by: its own name when that evaluates, so it pairs with the other side's. */
function copyName(raw: Record<string, unknown>, scope: Scope, fallback: string): string {
  const n = raw.name ?? raw.node_group_name;
  if (n === undefined) return fallback;
  const v = evaluate(n, scope);
  return v.ok && typeof v.value === 'string' && v.value !== '' ? v.value : fallback;
}

export function withBound(scope: Scope, name: string, value: PValue): Scope {
  return { ...scope, bound: new Map([...scope.bound, [name, value]]) };
}

function literalName(raw: Record<string, unknown>, nameOf?: (raw: Record<string, unknown>) => unknown): string | null {
  const n = nameOf ? nameOf(raw) : (raw.name ?? raw.node_group_name);
  return typeof n === 'string' && !n.includes('${') && n !== '' ? n : null;
}

// Copies of a counted resource read one by one; past this, the first copy stands for all.
const MAX_COUNT_READS = 256;

const sameReading = (a: PoolReading, b: PoolReading): boolean =>
  a.name === b.name &&
  a.gpusPerNode === b.gpusPerNode &&
  a.maxNodes === b.maxNodes &&
  a.gpuModel === b.gpuModel &&
  a.step === b.step &&
  a.mixed === b.mixed;

/**
 * The copies of a counted resource whose readings differ: one pool per name (copies named
 * alike, say by an unknown variable, are one pool of their summed GPUs, a part per copy, with no
 * step of one node since copies differ in it).
 */
function countedDecls(file: string, kind: CapacityKind, each: readonly PoolReading[]): CapacityDecl[] {
  const byName = new Map<string, CapacityDecl[]>();
  for (const r of each) byName.set(r.name, [...(byName.get(r.name) ?? []), toDecl(file, kind, r)]);
  return [...byName.values()].map((decls) => {
    const [first, ...rest] = decls as [CapacityDecl, ...CapacityDecl[]];
    if (rest.length === 0) return first;
    const models = new Set(decls.map((d) => d.gpuModel));
    const { gpuStep: _step, ...common } = first;
    return {
      ...common,
      gpuModel: models.size === 1 ? first.gpuModel : null,
      gpus: decls.reduce((sum, d) => sum + d.gpus, 0),
      parts: decls.flatMap((d, i) => d.parts.map((p) => ({ ...p, label: `[${i}] ${p.label}` }))),
    };
  });
}

export function toDecl(file: string, kind: CapacityKind, r: PoolReading, copies = 1): CapacityDecl {
  const gpus = r.maxNodes * r.gpusPerNode * copies;
  const mixed = r.mixed ? 'instance types differ in GPUs per node: counted at the most' : undefined;
  const extra = [r.note, mixed, copies > 1 ? `× ${copies} copies (count)` : undefined].filter(Boolean).join(', ');
  return {
    file,
    line: r.line,
    kind,
    name: r.name,
    gpuModel: r.gpuModel,
    gpus,
    // Types that differ in GPUs per node leave the step of one more node unknown.
    ...(r.mixed ? {} : { gpuStep: (r.step ?? r.gpusPerNode) * copies }),
    ...(r.sharing
      ? {
          sharing: sharingOnPool(
            { file, line: r.sharing.line, name: `${r.name} ${r.sharing.setting}` },
            r.sharing.factor,
            r.sharing.mode,
            gpus,
          ),
        }
      : {}),
    parts: [
      {
        label: `${r.name}: ${r.maxNodes} node${r.maxNodes === 1 ? '' : 's'} × ${r.gpusPerNode} GPU${r.gpusPerNode === 1 ? '' : 's'}${extra ? ` (${extra})` : ''}`,
        // The machine types and accelerators these clouds' pools name are NVIDIA's.
        resource: PRIMARY_GPU_RESOURCE,
        gpus,
        line: r.line,
      },
    ],
  };
}
