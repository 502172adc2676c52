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
  change: Pick<CapacityChange, 'kind' | 'gpuModel' | 'delta'>,
  prices: Readonly<Record<string, number>> = {},
): ChangeCost {
  if (change.kind === 'gpu-sharing') return { usdPerGpuHour: null, usdPerMonthDelta: null };
  const usdPerGpuHour = pricePerGpuHour(change.gpuModel, prices);
  if (usdPerGpuHour === null) return { usdPerGpuHour: null, usdPerMonthDelta: null };
  return { usdPerGpuHour, usdPerMonthDelta: Math.round(change.delta * usdPerGpuHour * HOURS_PER_MONTH * 100) / 100 };
}

/** The change with its cost fields filled in from `prices` (and the catalog defaults). */
export function withCost(change: CapacityChange, prices: Readonly<Record<string, number>> = {}): CapacityChange {
  return { ...change, ...costOf(change, prices) };
}
