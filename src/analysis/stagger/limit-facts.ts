import type { ArcEnergy } from './arc-energy.js';
import { energeticTest, type ArcTest } from './energy.js';
import { slotCaps } from './slot-caps.js';

/** Energetic tests re-checked at every node: the tightest at the root. */
const NODE_TESTS = 8;

/** What the search needs to know about one limit: each slot's cap and the energetic tests. */
export interface LimitFacts {
  limit: number;
  caps: Int32Array;
  /** An energetic test no schedule within the limit passes, if the root already finds one. */
  violated: ArcTest | null;
  tests: ArcTest[];
}

export function limitFacts(arcs: ArcEnergy, limit: number, tests = NODE_TESTS): LimitFacts {
  const caps = slotCaps(arcs.model, limit);
  const energy = energeticTest(arcs, limit, caps, tests);
  return { limit, caps, violated: energy.violated, tests: energy.tightest };
}
