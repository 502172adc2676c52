import type { CapacityChange } from '../domain/index.js';
import { HOURS_PER_MONTH, pricePerGpuHour } from './kit/gpu-types/index.js';

export interface ChangeCost {
  usdPerGpuHour: number | null;
  usdPerMonthDelta: number | null;
  /** Only for a change of GPU model: the base model's price per GPU-hour (null when unknown). */
  usdPerGpuHourBefore?: number | null;
}

/**
 * What a change costs a month at list price: the policy's `prices` (by GPU model) first, then
 * the catalog default. GPU sharing buys no hardware, so it has no price.
 */
export function costOf(
  change: Pick<CapacityChange, 'kind' | 'gpuModel' | 'delta'> &
    Partial<Pick<CapacityChange, 'gpuModelBefore' | 'gpusBefore' | 'gpusAfter'>>,
  prices: Readonly<Record<string, number>> = {},
): ChangeCost {
  if (change.kind === 'gpu-sharing') return { usdPerGpuHour: null, usdPerMonthDelta: null };
  const usdPerGpuHour = pricePerGpuHour(change.gpuModel, prices);
  const swapped = change.gpuModelBefore !== undefined && change.gpusBefore !== undefined && change.gpusAfter !== undefined;
  // Both prices of a swap are kept, so analysis can tell a dearer model from a cheaper one.
  const before = swapped && change.gpuModelBefore !== undefined ? pricePerGpuHour(change.gpuModelBefore, prices) : null;
  const priceBefore = swapped ? { usdPerGpuHourBefore: before } : {};
  if (usdPerGpuHour === null) return { usdPerGpuHour: null, usdPerMonthDelta: null, ...priceBefore };
  const month = (usdPerHour: number) => Math.round(usdPerHour * HOURS_PER_MONTH * 100) / 100;
  // Another model: the head's GPUs at their price less the base's at theirs, never the delta alone.
  if (swapped && change.gpusBefore !== undefined && change.gpusAfter !== undefined) {
    if (before === null) return { usdPerGpuHour, usdPerMonthDelta: null, ...priceBefore };
    return { usdPerGpuHour, usdPerMonthDelta: month(change.gpusAfter * usdPerGpuHour - change.gpusBefore * before), ...priceBefore };
  }
  return { usdPerGpuHour, usdPerMonthDelta: month(change.delta * usdPerGpuHour) };
}

/** The change with its cost fields filled in from `prices` (and the catalog defaults). */
export function withCost(change: CapacityChange, prices: Readonly<Record<string, number>> = {}): CapacityChange {
  return { ...change, ...costOf(change, prices) };
}
