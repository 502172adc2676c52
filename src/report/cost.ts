import type { CapacityChange } from '../domain/index.js';

/**
 * The price fields the detector adds to a change when it knows the GPU's price. Read through this
 * type so the report works whether or not a given change carries them.
 */
type PricedChange = CapacityChange & { usdPerGpuHour?: number; usdPerMonthDelta?: number };

const known = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** What the change adds to the monthly bill, USD; null when its price is unknown. */
export function monthlyUsd(change: CapacityChange): number | null {
  const value = (change as PricedChange).usdPerMonthDelta;
  return known(value) ? value : null;
}

/**
 * The monthly cost of the GPUs a pull request adds: the sum over its growing changes, or null
 * unless every one of them carries a price (a partial sum would understate the request).
 */
export function requestedMonthlyUsd(changes: CapacityChange[]): number | null {
  const growing = changes.filter((c) => c.delta > 0);
  if (growing.length === 0) return null;
  let sum = 0;
  for (const c of growing) {
    const usd = monthlyUsd(c);
    if (usd === null) return null;
    sum += usd;
  }
  return sum;
}

/** Whole dollars with thousands separators; `signed` puts a + before increases. */
export function usd(amount: number, signed = false): string {
  const text = `$${Math.round(Math.abs(amount)).toLocaleString('en-US')}`;
  if (Math.round(amount) === 0) return text;
  return amount < 0 ? `−${text}` : signed ? `+${text}` : text;
}
