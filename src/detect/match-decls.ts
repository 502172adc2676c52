import type { CapacityDecl, CapacityKind, ObjectAddress } from '../domain/index.js';
import type { ParseResult } from './parser.js';

/** One declaration on one side; `decl` is absent when its GPU count could not be read. */
interface SideEntry {
  kind: CapacityKind;
  name: string;
  file: string;
  line: number;
  decl?: CapacityDecl;
  /** Unknown because unbounded: the GPU resource no limit is set for. */
  unboundedBy?: string;
  address?: ObjectAddress;
  /** Stands for a whole list whose items could not be told (UnresolvedDecl.wholeList). */
  wholeList?: true;
}

/** The same declaration at base and head; a side is absent when it was added or removed. */
export interface DeclPair {
  before?: SideEntry;
  after?: SideEntry;
}

function entries(result: ParseResult): SideEntry[] {
  const known: SideEntry[] = result.decls.map((d) => ({
    kind: d.kind,
    name: d.name,
    file: d.file,
    line: d.line,
    decl: d,
    ...(d.address ? { address: d.address } : {}),
  }));
  const unknown: SideEntry[] = (result.unresolved ?? []).map((u) => ({ ...u }));
  return [...known, ...unknown].sort(byPosition);
}

interface Positioned {
  file: string;
  line: number;
  name: string;
  kind?: string;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** File, then line, then name and kind: a total order, so output never depends on input order. */
export function byPosition(a: Positioned, b: Positioned): number {
  return cmp(a.file, b.file) || a.line - b.line || cmp(a.name, b.name) || cmp(a.kind ?? '', b.kind ?? '');
}

const keyOf = (e: SideEntry) => `${e.kind}\u0000${e.name}`;

const folderOf = (file: string) => (file.lastIndexOf('/') < 0 ? '' : file.slice(0, file.lastIndexOf('/')));

/**
 * What is left unpaired by name, paired by the address the applying tool tracks it by (Terraform's,
 * in one folder): a pool whose name comes from a value that changed is the same resource, and one a
 * `moved` block renames is too. The head's address, or one it had before, is the base's.
 */
function pairByAddress(
  before: readonly SideEntry[],
  after: readonly SideEntry[],
  usedBefore: Set<SideEntry>,
  usedAfter: Set<SideEntry>,
  pairs: DeclPair[],
): void {
  const addressKey = (e: SideEntry, at: string) => `${e.kind}\u0000${folderOf(e.file)}\u0000${at}`;
  const byAddress = new Map<string, SideEntry>();
  for (const b of before) {
    if (usedBefore.has(b) || !b.address) continue;
    const key = addressKey(b, b.address.at);
    // Two of one address on one side (an unreadable reading beside a read one) pair by name alone.
    byAddress.set(key, byAddress.has(key) ? DUPLICATE : b);
  }
  for (const a of after) {
    if (usedAfter.has(a) || !a.address) continue;
    for (const at of [a.address.at, ...a.address.formerly]) {
      const b = byAddress.get(addressKey(a, at));
      if (!b || b === DUPLICATE || usedBefore.has(b)) continue;
      usedBefore.add(b);
      usedAfter.add(a);
      pairs.push({ before: b, after: a });
      break;
    }
  }
}

/**
 * What is left of one side in a file where the other side could not tell a list's items (a pool
 * list built by an expression) pairs with that list's unknown: the declaration may be in it, so
 * its count is unknown there, never added or removed. One list's unknown may stand for several.
 */
function pairWithLists(
  before: readonly SideEntry[],
  after: readonly SideEntry[],
  usedBefore: Set<SideEntry>,
  usedAfter: Set<SideEntry>,
  pairs: DeclPair[],
): void {
  const listIn = (side: readonly SideEntry[], used: Set<SideEntry>, e: SideEntry) =>
    side.find((x) => x.wholeList === true && !used.has(x) && x.kind === e.kind && x.file === e.file);
  const found: [SideEntry, SideEntry][] = [];
  for (const b of before) {
    const list = usedBefore.has(b) || b.wholeList ? undefined : listIn(after, usedAfter, b);
    if (list) found.push([b, list]);
  }
  for (const a of after) {
    const list = usedAfter.has(a) || a.wholeList ? undefined : listIn(before, usedBefore, a);
    if (list) found.push([list, a]);
  }
  for (const [b, a] of found) {
    usedBefore.add(b);
    usedAfter.add(a);
    pairs.push({ before: b, after: a });
  }
}

const DUPLICATE: SideEntry = { kind: 'gpu-sharing', name: '', file: '', line: 0 };

/**
 * Pairs declarations by kind and name. Same-file pairs come first, because one queue name
 * often exists once per cluster overlay (clusters/prod/…, clusters/staging/…); what is left
 * pairs across files, which is how a queue moved between files is recognised; what is left then
 * pairs by address (pairByAddress). Leftovers on either side are additions or removals. Pairing follows (file, line) order, so it is stable.
 */
export function pairDecls(base: ParseResult, head: ParseResult): DeclPair[] {
  const before = entries(base);
  const after = entries(head);
  const pairs: DeclPair[] = [];
  const usedBefore = new Set<SideEntry>();
  const usedAfter = new Set<SideEntry>();

  // Candidates by key, in (file, line) order: a lookup per declaration, not a scan of all of them.
  const byKey = new Map<string, SideEntry[]>();
  for (const b of before) {
    const list = byKey.get(keyOf(b));
    if (list) list.push(b);
    else byKey.set(keyOf(b), [b]);
  }
  const pairWhere = (same: (b: SideEntry, a: SideEntry) => boolean) => {
    for (const a of after) {
      if (usedAfter.has(a)) continue;
      const b = byKey.get(keyOf(a))?.find((x) => !usedBefore.has(x) && same(x, a));
      if (!b) continue;
      usedBefore.add(b);
      usedAfter.add(a);
      pairs.push({ before: b, after: a });
    }
  };
  pairWhere((b, a) => b.file === a.file);
  pairWhere(() => true);
  pairByAddress(before, after, usedBefore, usedAfter, pairs);
  pairWithLists(before, after, usedBefore, usedAfter, pairs);

  for (const b of before) if (!usedBefore.has(b)) pairs.push({ before: b });
  for (const a of after) if (!usedAfter.has(a)) pairs.push({ after: a });
  return pairs;
}
