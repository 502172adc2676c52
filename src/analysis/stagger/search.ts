import { arcEnergy, type ArcEnergy } from './arc-energy.js';
import { fitWithin } from './fit-within.js';
import type { GridModel } from './grid.js';
import { limitFacts, type LimitFacts } from './limit-facts.js';

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
      usage[t] = (usage[t] ?? 0) + job.gpus;
      peak = Math.max(peak, usage[t] ?? 0);
    }
  });
  return peak;
}

/**
 * Exact search over unsplit start slots for a peak below `incumbent`: asks fitWithin for
 * incumbent − 1, then for one below each schedule it finds, until it proves a limit
 * impossible, reaches `lowerBound`, or spends `budget` (nodes, plus slot scans / 256).
 * The caller may pass the arcs' energy and the facts for incumbent − 1 when it has them.
 */
export function searchStarts(
  model: GridModel,
  incumbent: number,
  lowerBound: number,
  budget: number,
  prepared: { arcs?: ArcEnergy; first?: LimitFacts } = {},
): SearchResult {
  const first = prepared.first;
  let arcs = prepared.arcs;
  let peak = incumbent;
  let best: number[] | null = null;
  let spent = 0;
  let nodes = 0;
  while (peak > lowerBound) {
    if (spent >= budget) return { starts: best, peak, proved: false, nodes };
    arcs ??= arcEnergy(model);
    const facts = first !== undefined && first.limit === peak - 1 ? first : limitFacts(arcs, peak - 1);
    const result = fitWithin(model, facts, budget - spent);
    spent += result.work;
    nodes += result.nodes;
    if (result.starts === null) return { starts: best, peak, proved: result.finished, nodes };
    best = result.starts;
    peak = peakOf(model, best);
  }
  return { starts: best, peak, proved: true, nodes };
}
