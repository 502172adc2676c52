import type { ObjectAddress } from '../../domain/index.js';
import { asRecord } from './module-scope.js';

/*
 * Terraform tracks a resource by its address in the configuration, not by the name the cloud gives
 * it: `google_container_node_pool.gpu`, `module.gke["a"].google_container_node_pool.gpu`. A pool
 * whose `name` comes from a variable that changed is the same resource (replaced, same size), and
 * a `moved` block gives an address a new one without touching the resource. Pairing the two sides
 * by address (match-decls.ts) follows that; a rename without `moved` is a destroy and a create, and
 * stays a removal and an addition.
 */

/** A `moved` block: the address an object had (`from`), and the one it has now (`to`). */
export interface Move {
  from: string;
  to: string;
}

/** Addresses one object may have had through chains of `moved` blocks, at most. */
const MAX_FORMER = 32;

/** `name`, `name[0]`, `name["key"]`, joined by dots: an address as a `moved` block writes it. */
const ADDRESS = /^[A-Za-z_][\w-]*(?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])?(?:\.[A-Za-z_][\w-]*(?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])?)*$/;

/** An address of a `moved` block as hcl2json gives it (`${module.a}`) or JSON syntax writes it (`module.a`); null when not one. */
function reference(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const inner = /^\$\{([^{}]*)\}$/.exec(raw.trim())?.[1] ?? raw;
  const address = inner.replace(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/g, '');
  return ADDRESS.test(address) ? address : null;
}

/** The `moved` blocks of a module's parsed files whose two addresses can be read. */
export function movesIn(bodies: readonly Record<string, unknown>[]): Move[] {
  const out: Move[] = [];
  for (const body of bodies) {
    const blocks = body.moved;
    if (!Array.isArray(blocks)) continue;
    for (const block of blocks) {
      const raw = asRecord(block);
      const from = reference(raw.from);
      const to = reference(raw.to);
      if (from !== null && to !== null && from !== to) out.push({ from, to });
    }
  }
  return out;
}

/** `prefix` is `address` or a part of it that Terraform moves as a whole (a module call, every instance of a resource). */
function covers(prefix: string, address: string): boolean {
  return address === prefix || address.startsWith(`${prefix}.`) || address.startsWith(`${prefix}[`);
}

/** `address` with every address the `moves` say it had before (a → b then b → c: c had b and a). */
export function withMoves(address: ObjectAddress, moves: readonly Move[]): ObjectAddress {
  if (moves.length === 0) return address;
  const known = [address.at, ...address.formerly];
  for (let i = 0; i < known.length && known.length < MAX_FORMER; i++) {
    const now = known[i] ?? '';
    for (const m of moves) {
      if (!covers(m.to, now)) continue;
      const before = m.from + now.slice(m.to.length);
      if (!known.includes(before)) known.push(before);
    }
  }
  return { at: address.at, formerly: known.slice(1, MAX_FORMER) };
}

/** An address inside a module call (`module.gke["a"]`), as the caller's configuration names it. */
export function inModule(address: ObjectAddress, call: string): ObjectAddress {
  return { at: `${call}.${address.at}`, formerly: address.formerly.map((a) => `${call}.${a}`) };
}

/** The address of a module call's instance: `module.gke`, `module.gke[0]`, `module.gke["a"]`. */
export function callAddress(label: string, key: string | number | null): string {
  return key === null ? `module.${label}` : `module.${label}[${JSON.stringify(key)}]`;
}

/** What a declaration found in a module's files carries, its address (if any) moved by `f`. */
export function mapAddress<T extends { address?: ObjectAddress }>(x: T, f: (a: ObjectAddress) => ObjectAddress): T {
  return x.address === undefined ? x : { ...x, address: f(x.address) };
}
