/** Prometheus refuses range queries of more than 11,000 points per series. */
export const MAX_POINTS = 11_000;

const NICE_STEPS = [15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400];

/**
 * The smallest "nice" step (seconds) of at least `minStep` that keeps a range query from
 * `start` to `end` (seconds) within MAX_POINTS points.
 */
export function chooseStep(start: number, end: number, minStep = 60): number {
  const span = Math.max(0, end - start);
  // points = floor(span / step) + 1 ≤ MAX_POINTS
  const needed = Math.max(minStep, span / (MAX_POINTS - 1));
  const nice = NICE_STEPS.find((s) => s >= needed);
  return nice ?? Math.ceil(needed);
}

export function pointsFor(start: number, end: number, step: number): number {
  return Math.floor(Math.max(0, end - start) / step) + 1;
}
