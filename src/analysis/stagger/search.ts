import { arcEnergy, type ArcEnergy } from './arc-energy.js';
import { fitWithin } from './fit-within.js';
import type { GridModel } from './grid.js';
import { limitFacts, type LimitFacts } from './limit-facts.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'usage-has-one-item-per-slot-of-the-cycle';

// Far above the bound (a gap of more than JUMP_GAP), the search asks for a limit halfway
// (rounded up) rather than one below the incumbent: finding a schedule is usually quick, and
// each find or refutation then halves the gap instead of closing it by one. Such a probe gets
// 1/JUMP_SHARE of the remaining budget.
const JUMP_GAP = 2;
const JUMP_SHARE = 4;

export interface SearchResult {
  /** Unsplit start slots with a peak below the incumbent, or null when none was found. */
  starts: number[] | null;
  peak: number;
  /** The search finished: no unsplit schedule on the grid has a lower peak than `peak`. */
  proved: boolean;
  nodes: number;
}

function peakOf(model: GridModel, starts: readonly number[]): number {
  const usage = new Int32Array(model.slots);
  let peak = 0;
  model.jobs.forEach((job, i) => {
    for (let k = 0; k < job.len; k++) {
      const t = ((starts[i] ?? job.lo) + k) % model.slots;
      usage[t] = itemAt(usage, t, SIZED) + job.gpus;
      peak = Math.max(peak, itemAt(usage, t, SIZED));
    }
  });
  return peak;
}

/**
 * Exact search over unsplit start slots for a peak below `incumbent`: asks fitWithin for a
 * limit (one below the incumbent, or halfway to the bound when far above it), then again below
 * each schedule it finds, until it proves one below the incumbent impossible, reaches the
 * bound, or spends `budget` (nodes, plus slot scans / 256). The caller may pass the arcs'
 * energy, the facts for incumbent − 1 when it has them, and `settle`: called with the peak of
 * each schedule found, it returns a bound proved for it (the root facts, the LP) and the facts
 * for one below, before the search tries there itself.
 */
export function searchStarts(
  model: GridModel,
  incumbent: number,
  lowerBound: number,
  budget: number,
  prepared: { arcs?: ArcEnergy; first?: LimitFacts | undefined; settle?: (peak: number) => { floor: number; facts: LimitFacts } } = {},
): SearchResult {
  let first = prepared.first;
  let arcs = prepared.arcs;
  let peak = incumbent;
  let floor = lowerBound;
  let best: number[] | null = null;
  let spent = 0;
  let nodes = 0;
  // A halfway limit may lie below the optimum and take long to refute: it gets a share of the
  // budget, and if that runs out the search goes on one below the incumbent.
  let jump = true;
  while (peak > floor) {
    if (spent >= budget) return { starts: best, peak, proved: false, nodes };
    arcs ??= arcEnergy(model);
    const halfway = jump && peak - floor > JUMP_GAP;
    const limit = halfway ? Math.ceil((floor + peak - 1) / 2) : peak - 1;
    const facts = first !== undefined && first.limit === limit ? first : limitFacts(arcs, limit);
    const result = fitWithin(model, facts, halfway ? Math.ceil((budget - spent) / JUMP_SHARE) : budget - spent);
    spent += result.work;
    nodes += result.nodes;
    if (result.starts !== null) {
      best = result.starts;
      peak = peakOf(model, best);
      if (prepared.settle !== undefined && peak > floor) {
        const settled = prepared.settle(peak);
        floor = Math.max(floor, settled.floor);
        first = settled.facts;
      }
    } else if (!halfway) {
      return { starts: best, peak, proved: result.finished, nodes };
    } else if (result.finished) {
      floor = limit + 1;
    } else {
      jump = false;
    }
  }
  return { starts: best, peak, proved: true, nodes };
}
