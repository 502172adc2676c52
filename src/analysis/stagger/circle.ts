/** Minutes in a day: the planner's cycle unless some workload needs a week (see WEEK). */
export const DAY = 1440;
/**
 * Minutes in a week: the cycle, from Monday 00:00 UTC, of a catalog with weekday-only workloads
 * or windows longer than a day.
 */
export const WEEK = 7 * DAY;

/** The cycles the planner plans on: a repeating day, or a repeating week. */
export const isCycle = (minutes: number): boolean => minutes === DAY || minutes === WEEK;

/** `day` or `week`, for sentences about the cycle. */
export const cycleWord = (cycle: number): 'day' | 'week' => (cycle === DAY ? 'day' : 'week');

/** `x` modulo `m`, always in [0, m). */
export function mod(x: number, m: number): number {
  return ((x % m) + m) % m;
}

export function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** Smallest integer ≥ a / b, exact for integers (no floating-point rounding at whole quotients). */
export function ceilDiv(a: number, b: number): number {
  const q = Math.floor(a / b);
  return q * b < a ? q + 1 : q;
}
