import type { PlacedRun } from '../../domain/index.js';
import { DAY, mod } from './circle.js';

/** GPUs in use from minute `from` to minute `to` of the day (0 ≤ from < to ≤ 1440). */
export interface UsageStep {
  from: number;
  to: number;
  gpus: number;
}

/** Demand over one repeating day: a step function covering [0, 1440) with no two equal neighbours. */
export interface UsageProfile {
  steps: UsageStep[];
  peakGpus: number;
  /** First minute of the day at which the peak is reached. */
  peakAt: number;
  /** Total work over the day, GPU × minutes. */
  gpuMinutes: number;
}

/**
 * GPUs in use at each minute of the day when the schedule repeats daily. A piece that runs
 * past midnight (start or end beyond 1440) counts at the start of the day, where it overlaps
 * the next day's early runs.
 */
export function usageProfile(schedule: readonly PlacedRun[]): UsageProfile {
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
      // A piece longer than a day covers every minute once per full day it spans.
      base += run.gpus * Math.floor(length / DAY);
      const rest = length % DAY;
      if (rest === 0) continue;
      const a = mod(piece.start, DAY);
      bump(a, run.gpus);
      if (a + rest <= DAY) bump(a + rest, -run.gpus);
      else {
        bump(DAY, -run.gpus);
        bump(0, run.gpus);
        bump(a + rest - DAY, -run.gpus);
      }
    }
  }
  const points = [...new Set([0, DAY, ...delta.keys()])].sort((x, y) => x - y);
  const steps: UsageStep[] = [];
  let level = base;
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i] ?? 0;
    const to = points[i + 1] ?? DAY;
    level += delta.get(from) ?? 0;
    const last = steps[steps.length - 1];
    if (last && last.gpus === level) last.to = to;
    else steps.push({ from, to, gpus: level });
  }
  let peak = steps[0] ?? { from: 0, to: DAY, gpus: base };
  for (const step of steps) if (step.gpus > peak.gpus) peak = step;
  return { steps, peakGpus: peak.gpus, peakAt: peak.from, gpuMinutes };
}

/** GPUs in use at a minute of the day (taken modulo the day). */
export function usageAt(profile: UsageProfile, minute: number): number {
  const m = mod(minute, DAY);
  return profile.steps.find((s) => s.from <= m && m < s.to)?.gpus ?? 0;
}
