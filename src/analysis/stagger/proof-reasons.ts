import type { BoundProof, CycleSpan } from '../../domain/index.js';
import type { ArcTest } from './energy.js';
import type { GridModel } from './grid.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'the-dual-weights-have-one-item-per-slot-of-the-cycle';

/** The span of `m` slots from slot `a`, in minutes; the whole cycle when it covers every slot. */
export function spanOf(model: GridModel, a: number, m: number): CycleSpan {
  return m >= model.slots
    ? { whole: true, cycle: model.cycle }
    : { whole: false, cycle: model.cycle, from: a * model.step, to: (a + m) * model.step };
}

/** Why no schedule stays within `limit` GPUs, from the energetic test it fails. */
export function refutationProof(model: GridModel, limit: number, test: ArcTest): BoundProof {
  return {
    code: 'energy',
    value: limit + 1,
    span: spanOf(model, test.a, test.m),
    limit,
    needMinutes: test.need * model.step,
    roomMinutes: test.room * model.step,
    packing: test.packing,
  };
}

/** The search's proof, with the bound it went beyond. */
export function searchProof(model: GridModel, peak: number, before: BoundProof): BoundProof {
  return { code: 'search', value: peak, step: model.step, before };
}

/**
 * The dual bound's proof: the weights it found, described by the stretch of the cycle that
 * carries most of them, and what they add up to.
 */
export function dualProof(model: GridModel, value: number, weights: Float64Array, bound: number): BoundProof {
  const n = model.slots;
  // The shortest arc holding at least half the weight: where the crowd is.
  let at = 0;
  let length = n;
  for (let a = 0; a < n; a++) {
    let sum = 0;
    for (let m = 1; m <= n && m < length; m++) {
      sum += itemAt(weights, (a + m - 1) % n, SIZED);
      if (sum >= 0.5) {
        at = a;
        length = m;
        break;
      }
    }
  }
  return { code: 'dual', value: bound, step: model.step, cycle: model.cycle, span: spanOf(model, at, length), total: value };
}
