import type { Lever } from '../domain/index.js';
import { withHeadroom } from './need.js';

/** One way to meet a part of the need: with no lever (`lever: null`), or with one lever applied. */
export interface TermOption {
  lever: Lever | null;
  gpus: number;
  /** Already sized with headroom (a service sized at its peak × (1 + headroom)). */
  headroomIncluded: boolean;
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

/** A lever that adds capacity rather than lowering demand: cohort quota to borrow. */
export interface SupplyLever {
  lever: Lever;
  gpus: number;
}

export interface Combination {
  /** GPUs needed with the demand levers applied, headroom included. */
  need: number;
  needWithoutLevers: number;
  /** The fewest added GPUs over `before` that meet the need with every lever (0 for a decrease). */
  gpusNeeded: number;
  /** The option chosen for each term, in term order. */
  chosen: TermOption[];
  /** GPUs each supply lever actually contributes (no more than the need left over). */
  supplied: Map<Lever, number>;
  /** Levers the combination relies on. */
  credited: Set<Lever>;
}

const contribution = (o: TermOption, headroom: number): number => (o.headroomIncluded ? o.gpus : o.gpus * (1 + headroom));

function needOf(options: readonly TermOption[], headroom: number): number {
  const bare = options.filter((o) => !o.headroomIncluded).reduce((s, o) => s + o.gpus, 0);
  const sized = options.filter((o) => o.headroomIncluded).reduce((s, o) => s + o.gpus, 0);
  return withHeadroom(bare, headroom) + sized;
}

/**
 * Combines the levers without double counting.
 *
 * Levers that act on the same GPUs are alternatives, not additions: for each term (the jobs, or
 * one service) only the option needing the fewest GPUs counts — staggering and reclaiming an
 * idle job both lower the same peak, so the jobs' term is the lower of the two plans (the plan
 * without the idle jobs is itself staggered); batching, a cheaper model and reclaiming an idle
 * service all resize the same replicas, so the smallest size counts. Terms are disjoint sets of
 * GPUs, so their chosen sizes add up. Headroom is added once, to the parts not already sized
 * with it.
 *
 * Supply levers (quota borrowed from the cohort) bring GPUs the need does not hold, so they are
 * independent of every demand lever: need after levers = max(0, need − before − borrowable),
 * capped at the increase asked for.
 */
export function combine(
  terms: readonly DemandTerm[],
  headroom: number,
  supply: readonly SupplyLever[],
  before: number,
  delta: number,
): Combination {
  const chosen: TermOption[] = [];
  const baseline: TermOption[] = [];
  for (const t of terms) {
    baseline.push(t.baseline);
    const [first, ...rest] = t.options;
    let best = first ?? t.baseline;
    for (const o of rest) if (contribution(o, headroom) < contribution(best, headroom) - 1e-9) best = o;
    chosen.push(best);
  }
  const need = needOf(chosen, headroom);
  const credited = new Set<Lever>(chosen.flatMap((o) => (o.lever === null ? [] : [o.lever])));
  let short = Math.max(0, need - before);
  const supplied = new Map<Lever, number>();
  for (const s of supply) {
    const used = Math.min(short, Math.max(0, s.gpus));
    if (used > 0) {
      supplied.set(s.lever, (supplied.get(s.lever) ?? 0) + used);
      credited.add(s.lever);
      short -= used;
    }
  }
  return {
    need,
    needWithoutLevers: needOf(baseline, headroom),
    gpusNeeded: delta <= 0 ? 0 : Math.min(delta, short),
    chosen,
    supplied,
    credited,
  };
}
