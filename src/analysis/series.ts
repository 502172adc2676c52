import type { TakenMeasurement } from '../domain/index.js';
import { itemAt } from '../util/indexed.js';

/** A level over time: unix seconds → value, the answer's series summed at each time. */
export type Timeline = Map<number, number>;

/** The answer's series added up at each timestamp (range answers of one source share their times). */
export function timeline(answer: TakenMeasurement): Timeline {
  const out: Timeline = new Map();
  for (const s of answer.series) for (const p of s.samples) out.set(p.t, (out.get(p.t) ?? 0) + p.v);
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

/** Each series of the answer by one label's value (`cluster_queue`, `flavor`). */
export function timelinesBy(answer: TakenMeasurement, label: string): Map<string, Timeline> {
  const out = new Map<string, Timeline>();
  for (const s of answer.series) {
    const key = s.labels[label] ?? '';
    const t = out.get(key) ?? new Map<number, number>();
    for (const p of s.samples) t.set(p.t, (t.get(p.t) ?? 0) + p.v);
    out.set(key, t);
  }
  return out;
}

/**
 * Seconds each point stands for: the answer's step, else the most common gap between points.
 * A lone point stands for nothing measurable, so 0.
 */
export function stepOf(answer: TakenMeasurement, line: Timeline = timeline(answer)): number {
  if (answer.stepSeconds !== undefined && answer.stepSeconds > 0) return answer.stepSeconds;
  const times = [...line.keys()];
  const gaps = new Map<number, number>();
  for (let i = 1; i < times.length; i++) {
    const gap = itemAt(times, i, 'i-within-the-loop') - itemAt(times, i - 1, 'i-within-the-loop');
    gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [gap, count] of gaps) if (count > bestCount) [best, bestCount] = [gap, count];
  return best;
}

/** The integral of a level over the window, in value-hours (GPUs → GPU-hours). */
export function hoursOf(line: Timeline, stepSeconds: number): number {
  let sum = 0;
  for (const v of line.values()) sum += v;
  return (sum * stepSeconds) / 3600;
}

export function maxOf(line: Timeline): number | null {
  return line.size === 0 ? null : Math.max(...line.values());
}

export function minOf(line: Timeline): number | null {
  return line.size === 0 ? null : Math.min(...line.values());
}

/** One number from an instant answer: the series summed; null when it holds no sample. */
export function scalarOf(answer: TakenMeasurement): number | null {
  const line = timeline(answer);
  if (line.size === 0) return null;
  let sum = 0;
  for (const v of line.values()) sum += v;
  return sum;
}

/** `a(t) × b(t)` at the times both have a point. */
export function product(a: Timeline, b: Timeline): Timeline {
  const out: Timeline = new Map();
  for (const [t, v] of a) {
    const w = b.get(t);
    if (w !== undefined) out.set(t, v * w);
  }
  return out;
}

/** Over the sample times at which a pod held GPUs: how many, the GPUs summed, and `busy` summed. */
export function holding(
  held: ReadonlyMap<number, number>,
  busy: ReadonlyMap<number, number>,
): { points: number; gpus: number; busy: number } {
  let points = 0;
  let gpus = 0;
  let busySum = 0;
  for (const [t, g] of held) {
    if (g <= 0) continue;
    points += 1;
    gpus += g;
    busySum += busy.get(t) ?? 0;
  }
  return { points, gpus, busy: busySum };
}
