import type { CapacityChange } from '../domain/index.js';
import { HOURS_PER_MONTH, pricePerGpuHour } from './kit/gpu-types/index.js';

export interface ChangeCost {
  usdPerGpuHour: number | null;
  usdPerMonthDelta: number | null;
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
  if (usdPerGpuHour === null) return { usdPerGpuHour: null, usdPerMonthDelta: null };
  const month = (usdPerHour: number) => Math.round(usdPerHour * HOURS_PER_MONTH * 100) / 100;
  // Another model: the head's GPUs at their price less the base's at theirs, never the delta alone.
  if (change.gpuModelBefore !== undefined && change.gpusBefore !== undefined && change.gpusAfter !== undefined) {
    const before = pricePerGpuHour(change.gpuModelBefore, prices);
    if (before === null) return { usdPerGpuHour, usdPerMonthDelta: null };
    return { usdPerGpuHour, usdPerMonthDelta: month(change.gpusAfter * usdPerGpuHour - change.gpusBefore * before) };
  }
  return { usdPerGpuHour, usdPerMonthDelta: month(change.delta * usdPerGpuHour) };
}

/** The change with its cost fields filled in from `prices` (and the catalog defaults). */
export function withCost(change: CapacityChange, prices: Readonly<Record<string, number>> = {}): CapacityChange {
  return { ...change, ...costOf(change, prices) };
}
