import { getHeapStatistics } from 'node:v8';

/** Milliseconds from a monotonic clock. */
export const now = (): number => performance.now();

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = now();
  const value = await fn();
  return { value, ms: now() - start };
}

/** The q-quantile (0…1) of the samples, nearest-rank. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Deterministic pseudo-random numbers (mulberry32): the same instances on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
export const intIn = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

/**
 * Peak heap used, sampled on a timer and at explicit checkpoints. A timer cannot fire inside a
 * long synchronous stretch, so callers also call `mark()` after each phase; the figure is a
 * floor on the true peak, while getrusage's maxRSS (see `memoryReport`) is exact for RSS.
 */
export class HeapSampler {
  peakHeapUsed = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(intervalMs = 5) {
    this.mark();
    this.#timer = setInterval(() => this.mark(), intervalMs);
    this.#timer.unref();
  }

  mark(): void {
    const used = getHeapStatistics().used_heap_size;
    if (used > this.peakHeapUsed) this.peakHeapUsed = used;
  }

  stop(): void {
    this.mark();
    clearInterval(this.#timer);
  }
}

export interface MemoryFigures {
  /** Peak resident set size of the process, MiB (getrusage). */
  maxRssMiB: number;
  /** Peak V8 heap used, MiB (sampled): garbage not yet collected included. */
  peakHeapMiB: number;
  /** Heap still reachable at the end, after a full collection; null without --expose-gc. */
  retainedHeapMiB: number | null;
}

/** Heap used after a full collection, MiB; null when the process was started without --expose-gc. */
export function retainedHeapMiB(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  return round(getHeapStatistics().used_heap_size / 2 ** 20, 1);
}

export function memoryReport(sampler: HeapSampler): MemoryFigures {
  sampler.stop();
  return {
    maxRssMiB: round(process.resourceUsage().maxRSS / 1024, 1),
    peakHeapMiB: round(sampler.peakHeapUsed / 2 ** 20, 1),
    retainedHeapMiB: retainedHeapMiB(),
  };
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A number for a table cell: fixed digits, thousands separated. */
export function fmt(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return String(x);
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
