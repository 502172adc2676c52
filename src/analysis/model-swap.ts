import type { CapacityChange, ChangeReview, ModelSwap, ModelSwapCode } from '../domain/index.js';

// Prices are list prices to the cent; a difference below this is the same price.
const SAME_PRICE = 1e-9;

/**
 * What a change of GPU model asks for. The base's GPUs of another model do not serve demand on the
 * head's: a swap to a dearer model, to one without a known price, or one that costs more a month
 * asks for every GPU of the head side, whatever the count does. A swap to a cheaper (or as dear)
 * model that costs no more asks for nothing beyond what its count adds. Null without a swap.
 */
export function modelSwapOf(change: CapacityChange): ModelSwap | null {
  if (change.kind === 'gpu-sharing' || change.gpuModelBefore === undefined || change.gpuModel === null) return null;
  const before = change.usdPerGpuHourBefore ?? null;
  const after = change.usdPerGpuHour ?? null;
  const month = change.usdPerMonthDelta ?? null;
  const code = swapCode(before, after, month);
  const asks = code === 'dearer-model' || code === 'unpriced-model' || code === 'cost-rises';
  return {
    code,
    asks,
    modelBefore: change.gpuModelBefore,
    modelAfter: change.gpuModel,
    gpusBefore: change.gpusBefore,
    gpusAfter: change.gpusAfter,
    gpusAsked: asks ? change.gpusAfter : 0,
    usdPerGpuHourBefore: before,
    usdPerGpuHourAfter: after,
    usdPerMonthDelta: month,
  };
}

function swapCode(before: number | null, after: number | null, month: number | null): ModelSwapCode {
  if (before === null || after === null || month === null) return 'unpriced-model';
  if (after > before + SAME_PRICE) return 'dearer-model';
  if (month > 0) return 'cost-rises';
  return after < before - SAME_PRICE ? 'cheaper-model' : 'same-price';
}

/**
 * The change as its judgement sees it when the swap asks: the head's GPUs, none of them there
 * before (the base's are another model), so the need and the GPUs to add count from 0.
 */
export function asNewModel(change: CapacityChange): CapacityChange {
  const { before: _otherModel, ...rest } = change;
  return { ...rest, gpusBefore: 0, delta: change.gpusAfter };
}

/**
 * The GPUs a reviewed change asks to justify: a swap that asks, every GPU of the head side;
 * otherwise what it adds. GPU sharing re-divides GPUs already there and asks for none.
 */
export function gpusAskedBy(review: ChangeReview): number {
  if (review.change.kind === 'gpu-sharing') return 0;
  if (review.modelSwap?.asks === true) return review.modelSwap.gpusAsked;
  return Math.max(0, review.change.delta);
}
