import type { PackingRule } from '../../domain/index.js';
import { itemAt } from '../../util/indexed.js';
import type { ArcEnergy } from './arc-energy.js';
import { packingWeights } from './packing.js';

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

/**
 * What the reads below rely on: `caps` has a slot per slot of the cycle and `prefix` one per slot
 * of two cycles and one more; `energy` has one row of `sizes.length` per arc, as do `room`/`need`
 * one item and `wNeed` one per arc and weighting; a packing weighs each size.
 */
const SIZED = 'arrays-sized-by-the-slots-the-arcs-and-the-gpu-sizes-of-the-model';
/** The sorted list of the tightest tests holds `size` of at most `keep` items. */
const KEPT = 'the-tightest-tests-are-read-below-their-count';

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
  for (let t = 0; t < 2 * n; t++) prefix[t + 1] = itemAt(prefix, t, SIZED) + itemAt(caps, t % n, SIZED);

  // Pass 1: GPU-slots against the slots' caps.
  const room = new Float64Array(count);
  const need = new Float64Array(count);
  for (let x = 0; x < count; x++) {
    const [a, m] = arcList[x] as [number, number];
    const base = x * width;
    let total = 0;
    for (let i = 0; i < width; i++) total += itemAt(sizes, i, SIZED) * itemAt(energy, base + i, SIZED);
    need[x] = total;
    const roomX = itemAt(prefix, a + m, SIZED) - itemAt(prefix, a, SIZED);
    room[x] = roomX;
    if (total > roomX) return { violated: { a, m, weights: sizes, room: roomX, need: total, packing: null }, tightest: [] };
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
      for (let i = 0; i < width; i++) total += itemAt(weights, i, SIZED) * itemAt(energy, base + i, SIZED);
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
    if (keep === 0 || (size === keep && itemAt(topSlack, size - 1, KEPT) <= slack)) return;
    let i = size < keep ? size++ : keep - 1;
    while (i > 0 && itemAt(topSlack, i - 1, KEPT) > slack) {
      topX[i] = itemAt(topX, i - 1, KEPT);
      topW[i] = itemAt(topW, i - 1, KEPT);
      topSlack[i] = itemAt(topSlack, i - 1, KEPT);
      i--;
    }
    topX[i] = x;
    topW[i] = w;
    topSlack[i] = slack;
  };
  for (let x = 0; x < count; x++) {
    const m = (arcList[x] as [number, number])[1];
    const needX = itemAt(need, x, SIZED);
    if (needX > 0) offer(x, -1, 1 - needX / (itemAt(room, x, SIZED) || 1));
    for (let w = 0; w < weighted.length; w++) {
      const v = itemAt(wNeed, w * count + x, SIZED);
      if (v > 0) offer(x, w, 1 - v / ((weighted[w]?.capacity ?? 1) * m));
    }
  }
  const tightest: ArcTest[] = [];
  for (let i = 0; i < size; i++) {
    const x = itemAt(topX, i, KEPT);
    const [a, m] = arcList[x] as [number, number];
    const w = itemAt(topW, i, KEPT);
    // −1 marks the plain GPU count, which has no packing weight.
    const pw = weighted[w];
    tightest.push(
      pw === undefined
        ? { a, m, weights: sizes, room: itemAt(room, x, SIZED), need: itemAt(need, x, SIZED), packing: null }
        : { a, m, weights: pw.weights, room: pw.capacity * m, need: itemAt(wNeed, w * count + x, SIZED), packing: pw.label },
    );
  }
  return { violated: null, tightest };
}
