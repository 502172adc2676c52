import { cycleWord } from './circle.js';
import { formatWhen } from './cron.js';
import type { ArcTest } from './energy.js';
import type { GridModel } from './grid.js';

const gpuWord = (n: number): string => `${n} GPU${n === 1 ? '' : 's'}`;

/** Why no schedule stays within `limit` GPUs, from the energetic test it fails, in a sentence. */
export function refutationReason(model: GridModel, limit: number, test: ArcTest): string {
  const where =
    test.m >= model.slots
      ? `over the whole ${cycleWord(model.cycle)}`
      : `between ${formatWhen(test.a * model.step, model.cycle)} and ${formatWhen((test.a + test.m) * model.step, model.cycle)}`;
  if (test.packing === null) {
    return (
      `${where} the runs must do ${test.need * model.step} GPU-minutes of work, and with at most ${gpuWord(limit)} in use ` +
      `only ${test.room * model.step} fit there (at some moments the runs able to be there add up to less than ${gpuWord(limit)}): at least ${gpuWord(limit + 1)}`
    );
  }
  return (
    `${where} the runs cannot be packed into ${gpuWord(limit)}: ${test.packing}, and counted that way they need ` +
    `${test.need * model.step} of the ${test.room * model.step} places there: at least ${gpuWord(limit + 1)}`
  );
}

/** The search's proof, with the bound it went beyond. */
export function searchReason(model: GridModel, peak: number, before: string): string {
  return (
    `no choice of start times on the ${model.step}-minute grid keeps every run within ${gpuWord(peak - 1)} ` +
    `(an exhaustive search; without it: ${before})`
  );
}

/**
 * The dual bound's reason: the weights it found, described by the stretch of the day that
 * carries most of them, and what they add up to.
 */
export function dualReason(model: GridModel, value: number, weights: Float64Array, bound: number): string {
  const n = model.slots;
  // The shortest arc holding at least half the weight: where the crowd is.
  let at = 0;
  let length = n;
  for (let a = 0; a < n; a++) {
    let sum = 0;
    for (let m = 1; m <= n && m < length; m++) {
      sum += weights[(a + m - 1) % n] ?? 0;
      if (sum >= 0.5) {
        at = a;
        length = m;
        break;
      }
    }
  }
  const where =
    length >= n
      ? `over the whole ${cycleWord(model.cycle)}`
      : `mostly between ${formatWhen(at * model.step, model.cycle)} and ${formatWhen((at + length) * model.step, model.cycle)}`;
  return (
    `weighing the ${model.step}-minute slots of the ${cycleWord(model.cycle)} by how crowded they are (${where}), every run must cover a share ` +
    `of that weight wherever it starts, and the shares add up to ${value.toFixed(2)} GPUs (the linear-programming bound): at least ${gpuWord(bound)}`
  );
}
