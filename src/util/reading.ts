/** One reading of a text: its text, and for each of its UTF-16 units the original span `[start, end)`. */
export interface Reading {
  text: string;
  start: Int32Array;
  end: Int32Array;
  /** The text as written or plainly decoded: a secret may be found split over two of its lines. */
  lines?: boolean;
}

/** Runs shorter than this are copied unit by unit: a typed array's view costs more to make. */
const SHORT_RUN = 64;

/**
 * Copies `from[a, b)` into `to` at `at`. A dense text copies thousands of runs of a few units
 * between its escapes: a loop, not a `subarray` view per run, keeps those from the collector.
 */
export function copyRun(to: Int32Array, from: Int32Array, a: number, b: number, at: number): void {
  if (b - a >= SHORT_RUN) {
    to.set(from.subarray(a, b), at);
    return;
  }
  for (let k = a; k < b; k++) to[at + k - a] = from[k] as number;
}
