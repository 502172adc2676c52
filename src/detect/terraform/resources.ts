import type { CapacityDecl, CapacityKind } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { sharingOnPool } from '../kit/pool-sharing.js';
import type { Scope, Value } from './expr-eval.js';
import { readAksDefaultPool, readAksPool, readEksNodeGroup } from './eks-aks.js';
import type { PoolReading } from './gpu-shape.js';
import { entries, readGkePool } from './gke.js';
import type { Locator } from './locator.js';
import { asRecord } from './module-scope.js';
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
};

/** Every node pool resource of one file, one decl per instance (`for_each` key or `count`). */
export function readResources(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  const resources = asRecord(body.resource);
  for (const [type, { kind, read, nameOf }] of Object.entries(RESOURCE_KINDS)) {
    for (const [label, blocks] of Object.entries(asRecord(resources[type]))) {
      const block = loc.path(loc.file(), [['resource', type, label]]);
      if (!block || !Array.isArray(blocks)) continue;
      const raw = asRecord(blocks[blocks.length - 1]);
      const base = new PoolContext(file, loc, block, scope, `${type}.${label}`);
      const record = (ctx: PoolContext, name: string, reading: () => (PoolReading & { copies?: number; each?: PoolReading[] }) | null) => {
        try {
          const r = reading();
          if (r?.each) out.decls.push(...countedDecls(file, kind, r.each));
          else if (r) out.decls.push(toDecl(file, kind, r, r.copies ?? 1));
        } catch (err) {
          if (!(err instanceof Unknown)) throw err;
          out.unresolved.push({ file, line: block.line, kind, name });
        }
        out.diagnostics.push(...ctx.diagnostics);
      };

      let instances: { key: string | number; value: Value }[] | null = null;
      if (raw.for_each !== undefined) {
        try {
          instances = entries(base.value(raw.for_each, 'for_each', ['for_each'])).map(([key, value]) => ({ key, value }));
        } catch (err) {
          if (!(err instanceof Unknown)) throw err;
          out.unresolved.push({ file, line: block.line, kind, name: literalName(raw, nameOf) ?? label });
          out.diagnostics.push(...base.diagnostics);
          continue;
        }
      }

      if (instances === null) {
        const at = (index: number) => new PoolContext(file, loc, block, withBound(scope, 'count', { index }), `${type}.${label}`);
        const ctx = at(0);
        // count is read only for pools with GPUs: a CPU pool's count is not this tool's business.
        record(ctx, literalName(raw, nameOf) ?? label, () => {
          const r = read(ctx, raw, label);
          const copies = r === null || raw.count === undefined ? 1 : (ctx.count(raw.count, 'count', ['count']) ?? 1);
          if (r === null || copies === 0) return null;
          if (copies === 1 || copies > MAX_COUNT_READS) return { ...r, copies };
          // Each copy read with its own count.index: `pow(2, count.index)` GPUs per node differ.
          const each = [r];
          for (let i = 1; i < copies; i++) {
            const other = at(i);
            try {
              const ri = read(other, raw, label);
              if (ri) each.push(ri);
            } finally {
              ctx.diagnostics.push(...other.diagnostics);
            }
          }
          return each.every((x) => sameReading(x, r)) ? { ...r, copies } : { ...r, each };
        });
        continue;
      }
      for (const { key, value } of instances) {
        const address = `${type}.${label}[${JSON.stringify(key)}]`;
        const ctx = new PoolContext(file, loc, block, withBound(scope, 'each', { key, value }), address);
        const fallback = typeof key === 'string' ? key : `${label}[${String(key)}]`;
        record(ctx, fallback, () => read(ctx, raw, fallback));
      }
    }
  }
  return out;
}

export function withBound(scope: Scope, name: string, value: Value): Scope {
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
