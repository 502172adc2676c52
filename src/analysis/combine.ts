import type { Lever } from '../domain/index.js';
import { DAY_SLOTS, flatDay, type DayProfile } from './supply/day-profile.js';
import { itemAt } from '../util/indexed.js';

/** Day profiles (flatDay) hold one item per slot of the day. */
const SIZED = 'a-day-profile-has-day-slots-items';

/** One way to meet a part of the need: with no lever (`lever: null`), or with one lever applied. */
export interface TermOption {
  lever: Lever | null;
  /** Other levers the option applies too (a plan without the idle jobs, staggered); all must be allowed. */
  also?: readonly Lever[];
  /** GPUs at its busiest. */
  gpus: number;
  /**
   * Headroom for bursts and failures on top of `gpus`: the policy's for jobs, a service's own
   * where the catalog gives one; 0 for a size that already includes it (a service sized at its peak).
   */
  headroom: number;
  /** GPUs at each slot of the day (a plan of runs); absent: `gpus` all day. */
  profile?: DayProfile;
  /** A service sized at its observed peak rather than as declared. */
  sized?: boolean;
}

/**
 * A part of the need that levers act on as a whole: the linked jobs together (one staggered
 * peak), or one service. `baseline` is the part as the catalog declares it, with no lever;
 * `options` are the sizes the evidence supports, the smallest of which counts. A measured size
 * replaces the declared one rather than competing with it: a service measured to need more
 * than it declares needs more.
 */
export interface DemandTerm {
  label: string;
  baseline: TermOption;
  options: TermOption[];
}

/** Quota the change may borrow at each slot of the day, once the review's other changes drew theirs. */
export interface Borrowable {
  lever: Lever;
  free: DayProfile;
}

/** The levers a combination may use: every one, or a set. */
export type Allowed = 'all' | ReadonlySet<Lever>;

const allows = (allowed: Allowed, lever: Lever | null): boolean => lever === null || allowed === 'all' || allowed.has(lever);
const allowsAll = (allowed: Allowed, o: TermOption): boolean => allows(allowed, o.lever) && (o.also ?? []).every((l) => allows(allowed, l));
const contribution = (o: TermOption): number => o.gpus * (1 + o.headroom);

/**
 * For each term, the option needing the fewest GPUs among those the levers allow. Levers that act
 * on the same GPUs are alternatives, not additions: staggering and reclaiming an idle job both
 * lower the same peak, so the jobs' term is the lower of the two plans (the plan without the idle
 * jobs is itself staggered); batching, a cheaper model, MIG slices and reclaiming an idle service
 * all resize the same replicas, so the smallest size counts. Terms are disjoint sets of GPUs.
 */
function chooseOptions(terms: readonly DemandTerm[], allowed: Allowed): TermOption[] {
  return terms.map((t) => {
    const usable = t.options.filter((o) => allowsAll(allowed, o));
    let best = usable[0] ?? t.baseline;
    for (const o of usable.slice(1)) if (contribution(o) < contribution(best) - 1e-9) best = o;
    return best;
  });
}

/** GPUs the chosen options need together, each part with its own headroom, rounded up once. */
export function needOf(chosen: readonly TermOption[]): number {
  return Math.max(0, Math.ceil(chosen.reduce((s, o) => s + contribution(o), 0) - 1e-9));
}

/** The need at each slot of the day: what a queue is short of at each hour, beyond what it has. */
export function needByDay(chosen: readonly TermOption[]): number[] {
  const out = flatDay(0);
  for (let s = 0; s < DAY_SLOTS; s++) {
    const at = chosen.reduce((sum, o) => sum + (o.profile?.[s] ?? o.gpus) * (1 + o.headroom), 0);
    out[s] = Math.max(0, Math.ceil(at - 1e-9));
  }
  return out;
}

export interface Outcome {
  /** GPUs needed with the chosen options, headroom included. */
  need: number;
  chosen: TermOption[];
  /** GPUs borrowed at the worst slot (0 without borrowing). */
  borrowed: number;
  /** The fewest added GPUs over `before` that meet the need (0 for a decrease), capped at the increase asked. */
  gpusNeeded: number;
}

/**
 * What the allowed levers leave to add. Borrowed quota brings GPUs the need does not hold, so it
 * is independent of every demand lever: it covers, hour by hour, what the need exceeds `before`
 * by, as far as the quota left at that hour reaches; what it leaves at the worst hour is added.
 */
export function outcome(terms: readonly DemandTerm[], allowed: Allowed, before: number, delta: number, supply: Borrowable | null): Outcome {
  const chosen = chooseOptions(terms, allowed);
  const need = needOf(chosen);
  const short = Math.max(0, need - before);
  let left = short;
  if (supply !== null && short > 0 && allows(allowed, supply.lever)) {
    const byDay = needByDay(chosen);
    left = 0;
    for (let s = 0; s < DAY_SLOTS; s++) left = Math.max(left, itemAt(byDay, s, SIZED) - before - itemAt(supply.free, s, SIZED));
    left = Math.min(short, Math.max(0, left));
  }
  return { need, chosen, borrowed: short - left, gpusNeeded: delta <= 0 ? 0 : Math.min(delta, left) };
}

/**
 * The fewest levers that leave as few GPUs to add as all of them together, the one combination a
 * verdict rests on; [] when no lever lowers it. Among sets of that size the one whose `need` is
 * smallest wins (the stronger lever), then the first in the order `candidates` lists the levers.
 */
export function smallestCombination(
  candidates: readonly Lever[],
  gpusNeededWith: (levers: ReadonlySet<Lever>) => number,
  need: (levers: ReadonlySet<Lever>) => number = () => 0,
): Lever[] {
  const target = gpusNeededWith(new Set(candidates));
  if (gpusNeededWith(new Set()) <= target) return [];
  const n = candidates.length;
  const subsets: Lever[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) subsets.push(candidates.filter((_, i) => (mask & (1 << i)) !== 0));
  subsets.sort((a, b) => a.length - b.length);
  let best: { levers: Lever[]; need: number } | null = null;
  for (const s of subsets) {
    if (best !== null && s.length > best.levers.length) break;
    if (gpusNeededWith(new Set(s)) > target) continue;
    const size = need(new Set(s));
    if (best === null || size < best.need) best = { levers: s, need: size };
  }
  return best?.levers ?? [...candidates];
}
