import { DAY_SLOTS, flatDay, type DayProfile } from './day-profile.js';
import { itemAt } from '../../util/indexed.js';

/** Day profiles (flatDay) hold one item per slot of the day. */
const SIZED = 'a-day-profile-has-day-slots-items';

/** What one change asks of a shared supply: the GPUs it is short of at each slot of the day. */
export interface SupplyRequest {
  /** The change's key; requests are taken in this key's order when nothing else decides. */
  key: string;
  short: DayProfile;
  /** Most it may draw at once (a queue's borrowingLimit); Infinity when unbounded. */
  limit: number;
  /** GPUs the change adds: drawing helps only while it leaves fewer than these to add. */
  delta: number;
  /** Only a draw that covers the whole shortfall counts (a review with no catalog). */
  allOrNothing: boolean;
}

/** What each change draws at each slot; a change that draws nothing has no entry. */
export type Allocation = Map<string, number[]>;

/** GPUs still to add after drawing `drawn`: the shortfall left at its worst slot. */
function leftShort(r: SupplyRequest, drawn: DayProfile): number {
  let worst = 0;
  for (let s = 0; s < DAY_SLOTS; s++) worst = Math.max(worst, itemAt(r.short, s, SIZED) - itemAt(drawn, s, SIZED));
  return worst;
}

/** GPUs the change still adds (never more than it asked for): what the allocation minimises. */
const toAdd = (r: SupplyRequest, drawn: DayProfile): number => Math.max(0, Math.min(r.delta, leftShort(r, drawn)));

/**
 * One pass in the given order: each change draws, from what is left at each slot, the least
 * that lowers its shortfall as far as it can go — to its worst slot's `short − min(limit, left)` —
 * and only if that lowers what it adds.
 */
function pass(free: DayProfile, order: readonly SupplyRequest[]): { drawn: Allocation; total: number } {
  const left = [...free];
  const drawn: Allocation = new Map();
  let total = 0;
  for (const r of order) {
    let floor = 0;
    for (let s = 0; s < DAY_SLOTS; s++)
      floor = Math.max(floor, itemAt(r.short, s, SIZED) - Math.min(r.limit, Math.max(0, itemAt(left, s, SIZED))));
    const draw = flatDay(0);
    for (let s = 0; s < DAY_SLOTS; s++) draw[s] = Math.max(0, itemAt(r.short, s, SIZED) - floor);
    const helps = r.allOrNothing ? floor === 0 && leftShort(r, draw) === 0 : toAdd(r, draw) < toAdd(r, flatDay(0));
    if (!helps || draw.every((v) => v === 0)) {
      total += toAdd(r, flatDay(0));
      continue;
    }
    for (let s = 0; s < DAY_SLOTS; s++) left[s] = itemAt(left, s, SIZED) - itemAt(draw, s, SIZED);
    drawn.set(r.key, draw);
    total += toAdd(r, draw);
  }
  return { drawn, total };
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Past this many changes drawing on one supply, they draw in key order rather than in the best order. */
const MAX_ORDERED = 6;

/**
 * Shares one supply (a cohort's free quota at each hour) among the changes of a review that are
 * short at those hours, so no GPU is lent twice. Every order in which the changes could draw is
 * tried and the one leaving the fewest GPUs to add over all of them wins (the first in key order
 * among equals), so neither the order of the files nor how the demand is split between changes
 * decides the total.
 */
export function allocate(free: DayProfile, requests: readonly SupplyRequest[]): Allocation {
  const sorted = [...requests].sort((a, b) => a.key.localeCompare(b.key));
  const orders = sorted.length <= MAX_ORDERED ? permutations(sorted) : [sorted];
  let best: { drawn: Allocation; total: number } | null = null;
  for (const order of orders) {
    const p = pass(free, order);
    if (best === null || p.total < best.total) best = p;
  }
  return best?.drawn ?? new Map<string, number[]>();
}

/** What is left for one change to draw at each slot once the others have drawn theirs. */
export function leftFor(free: DayProfile, drawn: Allocation, key: string, limit: number): number[] {
  const out = flatDay(0);
  for (let s = 0; s < DAY_SLOTS; s++) {
    let left = itemAt(free, s, SIZED);
    for (const [k, d] of drawn) if (k !== key) left -= itemAt(d, s, SIZED);
    out[s] = Math.max(0, Math.min(limit, left));
  }
  return out;
}
