import type { PatchTarget } from './kustomization.js';
import { isObject, jsonText } from './patch-apply.js';
import type { JsonObject } from './patch-apply.js';
import { isLiteral, targetMatches } from './patches.js';

interface Held {
  obj: JsonObject;
  /** The name the object was loaded with, which targets may still name. */
  origin?: { name: string };
}

/**
 * A render's objects by kind and name, kept as patches change them, so that a patch naming its
 * target finds it without scanning every object: thousands of patches over thousands of objects
 * cost what they touch, not their product. A target given as a pattern scans the objects of its
 * kind (or all), and says how many it scanned so the render can count them against its budget.
 * An object is found by its current name and by the one it was loaded with, as kustomize finds it.
 */
export class ObjectIndex<T extends Held> {
  private readonly byKind = new Map<string, Map<string, Set<T>>>();
  private readonly keys = new Map<T, { kind: string; names: string[]; seq: number }>();
  private seq = 0;

  constructor(objects: Iterable<T>) {
    for (const o of objects) this.add(o);
  }

  get size(): number {
    return this.keys.size;
  }

  add(o: T): void {
    const kind = jsonText(o.obj.kind);
    const names = namesOf(o);
    this.keys.set(o, { kind, names, seq: this.seq++ });
    let byName = this.byKind.get(kind);
    if (!byName) this.byKind.set(kind, (byName = new Map<string, Set<T>>()));
    for (const name of names) {
      let set = byName.get(name);
      if (!set) byName.set(name, (set = new Set()));
      set.add(o);
    }
  }

  remove(o: T): void {
    const key = this.keys.get(o);
    if (!key) return;
    this.keys.delete(o);
    const byName = this.byKind.get(key.kind);
    for (const name of key.names) {
      const set = byName?.get(name);
      set?.delete(o);
      if (set?.size === 0) byName?.delete(name);
    }
    if (byName?.size === 0) this.byKind.delete(key.kind);
  }

  /** After a patch or a rename changed `o`: moved when its kind or name changed, keeping its place in the order. */
  update(o: T): void {
    const key = this.keys.get(o);
    if (!key || (key.kind === jsonText(o.obj.kind) && key.names.join('\0') === namesOf(o).join('\0'))) return;
    this.remove(o);
    this.add(o);
    const moved = this.keys.get(o);
    if (moved) moved.seq = key.seq;
  }

  /** The objects of this kind with this name, now or as loaded. */
  named(kind: string, name: string): T[] {
    return this.order([...(this.byKind.get(kind)?.get(name) ?? [])]);
  }

  /** The objects of any kind with this name, now or as loaded. */
  withName(name: string): T[] {
    return this.order([...this.byKind.values()].flatMap((byName) => [...(byName.get(name) ?? [])]));
  }

  /** The objects a patch target selects, in the order they were loaded, and how many were looked at. */
  select(target: PatchTarget): { objects: T[]; scanned: number } {
    const kind = target.kind !== undefined && target.kind !== '' && isLiteral(target.kind) ? target.kind : null;
    const name = target.name !== undefined && target.name !== '' && isLiteral(target.name) ? target.name : null;
    let pool: Iterable<T>;
    if (kind !== null && name !== null) pool = this.byKind.get(kind)?.get(name) ?? [];
    else if (kind !== null) pool = new Set([...(this.byKind.get(kind)?.values() ?? [])].flatMap((s) => [...s]));
    else if (name !== null) pool = new Set([...this.byKind.values()].flatMap((names) => [...(names.get(name) ?? [])]));
    else pool = this.keys.keys();
    let scanned = 0;
    const objects: T[] = [];
    for (const o of pool) {
      scanned++;
      if (targetMatches(o.obj, target, o.origin?.name)) objects.push(o);
    }
    return { objects: this.order(objects), scanned };
  }

  private order(objects: T[]): T[] {
    return objects.sort((a, b) => (this.keys.get(a)?.seq ?? 0) - (this.keys.get(b)?.seq ?? 0));
  }

  /** Every object, in the order they were loaded. */
  all(): T[] {
    return [...this.keys.entries()].sort((a, b) => a[1].seq - b[1].seq).map(([o]) => o);
  }
}

function namesOf(o: Held): string[] {
  const meta = o.obj.metadata;
  const name = isObject(meta) ? jsonText(meta.name) : '';
  return o.origin === undefined || o.origin.name === name ? [name] : [name, o.origin.name];
}
