import type { CapacityDecl } from '../../domain/index.js';
import type { UnresolvedDecl } from '../parser.js';
import { evaluatePartly, Unk } from './expr-eval.js';
import type { PValue, Scope } from './expr-eval.js';
import { withBound } from './expr-scope.js';
import { isMap } from './expr-values.js';

/** Copies of one block (`for_each` keys, `count` indexes) read one by one; past this, the block's count is unknown. */
export const MAX_COPIES = 256;

/** One copy of a block: its key (`"a"`, `0`) and the scope that binds `each` or `count`. */
export interface Copy {
  key: string | number;
  scope: Scope;
}

/**
 * The copies a `for_each` or `count` makes of a block, as Terraform makes them: a map's keys (in
 * order), a set's strings, `count` indexes. Null when the block has neither (one copy, no key);
 * `culprit` when how many cannot be told, or they are more than `MAX_COPIES`. The collection's
 * values may hold unknown parts (a subnet id): only what reads them is unknown.
 */
export function copiesOf(raw: Record<string, unknown>, scope: Scope): Copy[] | { culprit: string; what: 'for_each' | 'count' } | null {
  if (raw.for_each !== undefined) {
    const r = evaluatePartly(raw.for_each, scope);
    if (!r.ok) return { culprit: r.error, what: 'for_each' };
    const pairs = keyed(r.value);
    if ('culprit' in pairs) return { culprit: pairs.culprit, what: 'for_each' };
    if (pairs.length > MAX_COPIES)
      return { culprit: `${pairs.length} copies, more than the ${MAX_COPIES} read one by one`, what: 'for_each' };
    return pairs.map(([key, value]) => ({ key, scope: withBound(scope, ['each', { key, value }]) }));
  }
  if (raw.count === undefined) return null;
  const r = evaluatePartly(raw.count, scope);
  if (!r.ok) return { culprit: r.error, what: 'count' };
  const n = typeof r.value === 'number' ? r.value : typeof r.value === 'string' && /^\s*\d+\s*$/.test(r.value) ? Number(r.value) : NaN;
  if (!Number.isInteger(n) || n < 0) return { culprit: `a count of ${JSON.stringify(r.value)}`, what: 'count' };
  if (n > MAX_COPIES) return { culprit: `count = ${n}, more than the ${MAX_COPIES} copies read one by one`, what: 'count' };
  return Array.from({ length: n }, (_, index) => ({ key: index, scope: withBound(scope, ['count', { index }]) }));
}

/** A for_each collection's (key, value) pairs: a map's keys in order, or a set's strings; keys must be known. */
function keyed(v: PValue): [string, PValue][] | { culprit: string } {
  if (Array.isArray(v)) {
    const out: [string, PValue][] = [];
    for (const x of v) {
      if (x instanceof Unk) return { culprit: x.culprit };
      if (typeof x !== 'string') return { culprit: 'a for_each over a list that is not of strings' };
      out.push([x, x]);
    }
    return [...new Map(out)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  if (isMap(v))
    return Object.keys(v)
      .sort()
      .map((k) => [k, v[k] as PValue]);
  if (v === null) return { culprit: 'a for_each of null' };
  return { culprit: 'a for_each over a value that is neither a map nor a set' };
}

/** What one copy of a block declares. */
export interface CopyReading {
  key: string | number;
  decls: CapacityDecl[];
  unresolved: UnresolvedDecl[];
}

/** `["a"]`, `[0]`: a copy as Terraform addresses it. */
export function keyLabel(key: string | number): string {
  return `[${JSON.stringify(key)}]`;
}

/**
 * The copies of a block, counted: those that name the same pool (a literal name, or one that does
 * not change with the key: each in another cluster) are one declaration of their summed GPUs, a
 * part per copy labelled by its key; a name unknown in any copy is unknown as a whole.
 */
export function groupCopies(copies: readonly CopyReading[]): { decls: CapacityDecl[]; unresolved: UnresolvedDecl[] } {
  const keyOf = (x: { kind: string; name: string }) => `${x.kind}\u0000${x.name}`;
  const unknown = new Map<string, UnresolvedDecl>();
  for (const c of copies) for (const u of c.unresolved) if (!unknown.has(keyOf(u))) unknown.set(keyOf(u), u);
  const known = new Map<string, { key: string | number; decl: CapacityDecl }[]>();
  for (const c of copies)
    for (const d of c.decls) if (!unknown.has(keyOf(d))) known.set(keyOf(d), [...(known.get(keyOf(d)) ?? []), { key: c.key, decl: d }]);
  const decls = [...known.values()].map((list) => {
    const [first, ...rest] = list as [{ key: string | number; decl: CapacityDecl }, ...{ key: string | number; decl: CapacityDecl }[]];
    if (rest.length === 0) return copies.length === 1 ? first.decl : labelled(first.decl, [first]);
    return labelled(first.decl, list);
  });
  return { decls, unresolved: [...unknown.values()] };
}

function labelled(first: CapacityDecl, list: readonly { key: string | number; decl: CapacityDecl }[]): CapacityDecl {
  const same = <T>(f: (d: CapacityDecl) => T): boolean => list.every((x) => JSON.stringify(f(x.decl)) === JSON.stringify(f(first)));
  const { gpuStep, sharing, address, ...common } = first;
  return {
    ...common,
    // Several copies are no one copy's address: the caller gives the resource's own.
    ...(address !== undefined && list.length === 1 ? { address } : {}),
    gpuModel: same((d) => d.gpuModel) ? first.gpuModel : null,
    gpus: list.reduce((sum, x) => sum + x.decl.gpus, 0),
    // One more node in one copy adds a step; copies that differ in it leave it unknown.
    ...(gpuStep !== undefined && same((d) => d.gpuStep) ? { gpuStep } : {}),
    ...(sharing !== undefined && same((d) => (d.sharing?.state === 'shared' ? [d.sharing.factor, d.sharing.mode] : d.sharing))
      ? {
          sharing:
            sharing.state === 'shared'
              ? {
                  ...sharing,
                  schedulable: list.reduce((n, x) => n + (x.decl.sharing?.state === 'shared' ? x.decl.sharing.schedulable : 0), 0),
                }
              : sharing,
        }
      : {}),
    parts: list.flatMap((x) => x.decl.parts.map((p) => ({ ...p, label: `${keyLabel(x.key)} ${p.label}` }))),
  };
}
