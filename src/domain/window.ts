/**
 * Minutes a window spans; a deadline at or before the start means the next day (a deadline
 * given as `+Nd` is past the start already).
 */
export function windowLength(window: { earliestStart: number; deadline: number }): number {
  const span = window.deadline - window.earliestStart;
  return span > 0 ? span : span + 1440;
}
