import type { CapacityChange, CohortQueue } from '../../domain/index.js';
import type { Measured } from '../measured.js';
import { allocate, leftFor, type SupplyRequest } from './allocate.js';
import { borrowingLimitOf, cohortSupply, type CohortSupply } from './cohort-supply.js';
import { DAY_SLOTS } from './day-profile.js';
import { itemAt } from '../../util/indexed.js';

/** Day profiles (flatDay) hold one item per slot of the day. */
const SIZED = 'a-day-profile-has-day-slots-items';

export type BorrowRequest = SupplyRequest;

/** What one queue may borrow of its cohort's supply. */
export interface BorrowShare {
  supply: CohortSupply;
  /** GPUs it may borrow at each slot of the day once the review's other queues drew theirs, within its borrowingLimit. */
  free: readonly number[];
  /** GPUs it can borrow at every hour it is short (all day when it is not). */
  reach: number;
  /** The same without its borrowingLimit: what raising the limit would let it borrow. */
  reachWithoutLimit: number;
  /** GPUs the verdict borrows at the worst hour (0 when it borrows none). */
  borrowed: number;
  /** The borrowingLimit borrowing is bounded by; null when unset. */
  limit: number | null;
  /** The PR's other queues drawing on the same cohort. */
  sharedWith: string[];
}

/** One change of the review as the cohort sharing sees it. */
export interface ShareItem {
  index: number;
  change: CapacityChange;
  m: Measured | null;
  /** What it is short of at each hour; null when it asks nothing of a cohort. */
  request: Omit<SupplyRequest, 'key' | 'limit'> | null;
  files: readonly CohortQueue[];
}

const cohortOf = (c: CapacityChange): string | undefined => c.after?.cohort ?? c.before?.cohort;
const keyOf = (c: CapacityChange): string => `${c.name}\u0000${c.file}:${c.line}`;

/**
 * For each growing ClusterQueue in a cohort, what it may borrow: the cohort's free quota at each
 * hour (cohortSupply), allocated once across the review's queues of that cohort (allocate), within
 * the queue's borrowingLimit. Queues the PR grows lend nothing: they are short themselves.
 */
export function shareCohorts(items: readonly ShareItem[]): Map<number, BorrowShare> {
  const out = new Map<number, BorrowShare>();
  const byCohort = new Map<string, ShareItem[]>();
  for (const it of items) {
    const cohort = cohortOf(it.change);
    if (it.request === null || it.m === null || cohort === undefined) continue;
    byCohort.set(cohort, [...(byCohort.get(cohort) ?? []), it]);
  }
  for (const [cohort, group] of byCohort) {
    const sorted = [...group].sort((a, b) => keyOf(a.change).localeCompare(keyOf(b.change)));
    const first = itemAt(sorted, 0, 'a-cohort-group-holds-the-item-that-made-it');
    const supply = cohortSupply(
      {
        cohort,
        via: first.change.name,
        borrowers: new Set(items.filter((i) => i.change.delta > 0 && i.change.kind === 'kueue-cluster-queue').map((i) => i.change.name)),
        changes: items.map((i) => i.change),
        files: first.files,
      },
      first.m as Measured,
    );
    if (supply === null) continue;
    const limits = new Map(sorted.map((it) => [keyOf(it.change), borrowingLimitOf(it.change, it.m as Measured)]));
    const requests: SupplyRequest[] = sorted.map((it) => ({
      ...(it.request as NonNullable<ShareItem['request']>),
      key: keyOf(it.change),
      limit: limits.get(keyOf(it.change)) ?? Infinity,
    }));
    const drawn = allocate(supply.free, requests);
    for (const it of sorted) {
      const key = keyOf(it.change);
      const limit = limits.get(key) ?? null;
      const free = leftFor(supply.free, drawn, key, limit ?? Infinity);
      const short = it.request?.short ?? [];
      const shortSlots = [...Array(DAY_SLOTS).keys()].filter((s) => itemAt(short, s, SIZED) > 0);
      const slots = shortSlots.length > 0 ? shortSlots : [...Array(DAY_SLOTS).keys()];
      const unbounded = leftFor(supply.free, drawn, key, Infinity);
      out.set(it.index, {
        supply,
        free,
        reach: Math.min(...slots.map((s) => itemAt(free, s, SIZED))),
        reachWithoutLimit: Math.min(...slots.map((s) => itemAt(unbounded, s, SIZED))),
        borrowed: 0,
        limit,
        sharedWith: sorted.filter((o) => o !== it).map((o) => o.change.name),
      });
    }
  }
  return out;
}
