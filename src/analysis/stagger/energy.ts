import type { PackingRule } from '../../domain/index.js';
import type { ArcEnergy } from './arc-energy.js';
import { packingWeights } from './packing.js';

// Indexed reads here keep `?? 0` (never taken: every array is sized by the model's slots and runs)
// rather than util/indexed.ts's `itemAt`: this is the planner's hot loop, and with the helper the
// planner benchmark's one day of 2,000 runs took 1,000 ms against 248 ms (BENCHMARKS §3).

/** One energetic test: in the arc, the runs' weighted mandatory work against the weighted room. */
export interface ArcTest {
  a: number;
  m: number;
  /** Weight of a run per GPU size (the sizes of `sizesOf`), and the room the arc offers. */
  weights: number[];
  room: number;
  /** Mandatory weighted work at the root. */
  need: number;
  /** Null for the plain GPU count against the slots' caps, else what the packing weight expresses. */
  packing: PackingRule | null;
}

export interface EnergyResult {
  /** A test the runs fail: no schedule keeps every slot within the limit. */
  violated: ArcTest | null;
  /** The tests with the least slack, tightest first, for the search to re-check as runs are placed. */
  tightest: ArcTest[];
}

/**
 * Energetic reasoning against `limit`: for every arc, the work the runs must do there (whatever
 * their starts) against the room, counted in GPUs with each slot's cap (slot-caps.ts), and
 * again under each packing weight (packing.ts). Any arc with more work than room proves that
 * no schedule stays within the limit. The mandatory parts do not depend on the limit, so they
 * are measured once (arc-energy.ts) and reused for every limit tried.
 */
export function energeticTest(arcs: ArcEnergy, limit: number, caps: Int32Array, keep: number): EnergyResult {
  const n = arcs.model.slots;
  const { sizes, energy } = arcs;
  const width = sizes.length;
  const count = arcs.arcs.length;
  const arcList = arcs.arcs;
  const prefix = new Float64Array(2 * n + 1);
  for (let t = 0; t < 2 * n; t++) prefix[t + 1] = (prefix[t] ?? 0) + (caps[t % n] ?? 0);

  // Pass 1: GPU-slots against the slots' caps.
  const room = new Float64Array(count);
  const need = new Float64Array(count);
  for (let x = 0; x < count; x++) {
    const [a, m] = arcList[x] as [number, number];
    const base = x * width;
    let total = 0;
    for (let i = 0; i < width; i++) total += (sizes[i] ?? 0) * (energy[base + i] ?? 0);
    need[x] = total;
    room[x] = (prefix[a + m] ?? 0) - (prefix[a] ?? 0);
    if (total > (room[x] ?? 0)) return { violated: { a, m, weights: sizes, room: room[x] ?? 0, need: total, packing: null }, tightest: [] };
  }

  // Pass 2: the same energies under each packing weight.
  const weighted = packingWeights(limit, sizes);
  const wNeed = new Float64Array(count * weighted.length);
  for (let w = 0; w < weighted.length; w++) {
    const pw = weighted[w] as (typeof weighted)[number];
    const weights = pw.weights;
    for (let x = 0; x < count; x++) {
      const base = x * width;
      let total = 0;
      for (let i = 0; i < width; i++) total += (weights[i] ?? 0) * (energy[base + i] ?? 0);
      wNeed[w * count + x] = total;
      const m = (arcList[x] as [number, number])[1];
      if (total > pw.capacity * m) {
        return {
          violated: { a: (arcList[x] as [number, number])[0], m, weights, room: pw.capacity * m, need: total, packing: pw.label },
          tightest: [],
        };
      }
    }
  }

  if (keep === 0) return { violated: null, tightest: [] };
  // The `keep` tests with the least relative slack, for the search to re-check at each node:
  // a sorted list of at most `keep`, filled by insertion (keep is small).
  const topX = new Int32Array(keep);
  const topW = new Int32Array(keep);
  const topSlack = new Float64Array(keep);
  let size = 0;
  const offer = (x: number, w: number, slack: number): void => {
    if (keep === 0 || (size === keep && (topSlack[size - 1] ?? 0) <= slack)) return;
    let i = size < keep ? size++ : keep - 1;
    while (i > 0 && (topSlack[i - 1] ?? 0) > slack) {
      topX[i] = topX[i - 1] ?? 0;
      topW[i] = topW[i - 1] ?? 0;
      topSlack[i] = topSlack[i - 1] ?? 0;
      i--;
    }
    topX[i] = x;
    topW[i] = w;
    topSlack[i] = slack;
  };
  for (let x = 0; x < count; x++) {
    const m = (arcList[x] as [number, number])[1];
    if ((need[x] ?? 0) > 0) offer(x, -1, 1 - (need[x] ?? 0) / ((room[x] ?? 0) || 1));
    for (let w = 0; w < weighted.length; w++) {
      const v = wNeed[w * count + x] ?? 0;
      if (v > 0) offer(x, w, 1 - v / ((weighted[w]?.capacity ?? 1) * m));
    }
  }
  const tightest: ArcTest[] = [];
  for (let i = 0; i < size; i++) {
    const x = topX[i] ?? 0;
    const [a, m] = arcList[x] as [number, number];
    const pw = weighted[topW[i] ?? -1];
    tightest.push(
      pw === undefined
        ? { a, m, weights: sizes, room: room[x] ?? 0, need: need[x] ?? 0, packing: null }
        : { a, m, weights: pw.weights, room: pw.capacity * m, need: wNeed[(topW[i] ?? 0) * count + x] ?? 0, packing: pw.label },
    );
  }
  return { violated: null, tightest };
}
