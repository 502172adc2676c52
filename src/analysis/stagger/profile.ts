import type { PlacedRun } from '../../domain/index.js';
import { DAY, mod } from './circle.js';
import { itemAt } from '../../util/indexed.js';

/** GPUs in use from minute `from` to minute `to` of the cycle (0 ≤ from < to ≤ cycle). */
export interface UsageStep {
  from: number;
  to: number;
  gpus: number;
}

/** Demand over one repeating cycle (a day, or a week): a step function covering it with no two equal neighbours. */
export interface UsageProfile {
  steps: UsageStep[];
  peakGpus: number;
  /** First minute of the cycle at which the peak is reached. */
  peakAt: number;
  /** Total work over the cycle, GPU × minutes. */
  gpuMinutes: number;
}

/**
 * GPUs in use at each minute of the cycle when the schedule repeats (daily unless `cycle` says
 * a week). A piece that runs past the cycle's end counts at its start, where it overlaps the
 * next cycle's early runs.
 */
export function usageProfile(schedule: readonly PlacedRun[], cycle: number = DAY): UsageProfile {
  const delta = new Map<number, number>();
  const bump = (at: number, gpus: number): void => {
    delta.set(at, (delta.get(at) ?? 0) + gpus);
  };
  let base = 0;
  let gpuMinutes = 0;
  for (const run of schedule) {
    for (const piece of run.pieces) {
      const length = piece.end - piece.start;
      if (!(length > 0)) continue;
      gpuMinutes += run.gpus * length;
      // A piece longer than the cycle covers every minute once per full cycle it spans.
      base += run.gpus * Math.floor(length / cycle);
      const rest = length % cycle;
      if (rest === 0) continue;
      const a = mod(piece.start, cycle);
      bump(a, run.gpus);
      if (a + rest <= cycle) bump(a + rest, -run.gpus);
      else {
        bump(cycle, -run.gpus);
        bump(0, run.gpus);
        bump(a + rest - cycle, -run.gpus);
      }
    }
  }
  const points = [...new Set([0, cycle, ...delta.keys()])].sort((x, y) => x - y);
  const steps: UsageStep[] = [];
  let level = base;
  for (let i = 0; i + 1 < points.length; i++) {
    const from = itemAt(points, i, 'i-and-the-next-within-the-loop');
    const to = itemAt(points, i + 1, 'i-and-the-next-within-the-loop');
    level += delta.get(from) ?? 0;
    const last = steps[steps.length - 1];
    if (last && last.gpus === level) last.to = to;
    else steps.push({ from, to, gpus: level });
  }
  let peak = steps[0] ?? { from: 0, to: cycle, gpus: base };
  for (const step of steps) if (step.gpus > peak.gpus) peak = step;
  return { steps, peakGpus: peak.gpus, peakAt: peak.from, gpuMinutes };
}

/** GPUs in use at a minute of the cycle (taken modulo the cycle). */
export function usageAt(profile: UsageProfile, minute: number, cycle: number = DAY): number {
  const m = mod(minute, cycle);
  return profile.steps.find((s) => s.from <= m && m < s.to)?.gpus ?? 0;
}
