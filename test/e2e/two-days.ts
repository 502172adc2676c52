import { afterAll, beforeAll } from 'vitest';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { DAY, startPrometheus, startSimulatedPrometheus } from '../helpers/prometheus/index.js';
import type { RunningPrometheus, SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { toOpenMetrics, type Family } from '../helpers/prometheus/openmetrics.js';

export interface TwoDays {
  prom: SimulatedPrometheus;
  source: PrometheusSource;
  /** The end of the window: midnight today (UTC). */
  at: Date;
}

/** The review window that covers the two days. */
export const TWO_DAYS_MINUTES = 2 * 24 * 60;

/**
 * The simulated cluster's last two whole days in a real Prometheus, at 2-minute resolution:
 * rate() over the review's 5-minute window needs two samples. No retries, so a failure shows.
 */
export async function startTwoDays(sourceOptions: { minStepSeconds?: number } = {}): Promise<TwoDays> {
  const end = Math.floor(Date.now() / 1000 / DAY) * DAY;
  const prom = await startSimulatedPrometheus({ start: end - 2 * DAY, end, step: 120 });
  const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), sourceOptions);
  return { prom, source, at: new Date(prom.window.end * 1000) };
}

/** A real Prometheus of `startTwoDaysOf`, and when its window ends. */
export interface TwoDaysOf {
  prom: RunningPrometheus;
  at: Date;
}

/**
 * A real Prometheus holding a test's own series for the last two whole days at 5-minute steps:
 * `series(start, end, stepSeconds)` gives the families; `at` is the end of the window.
 */
export async function startTwoDaysOf(series: (start: number, end: number, step: number) => Family[]): Promise<TwoDaysOf> {
  const end = Math.floor(Date.now() / 1000 / DAY) * DAY;
  const prom = await startPrometheus(toOpenMetrics(series(end - 2 * DAY, end, 300)));
  return { prom, at: new Date(end * 1000) };
}

/** The real Prometheus servers of one test file, from `twoDaysPerFile`. */
export interface TwoDaysPerFile {
  /** The one with the series as written, started before the file's tests. */
  readonly started: TwoDaysOf;
  /** The one with every hour of the series moved `shift` later, started on first use. */
  shifted(shift: number): Promise<TwoDaysOf>;
}

/**
 * The Prometheus servers of one test file, holding `series` (its hours moved `shift` later): call at
 * the file's top level. The unshifted one starts before the file's tests, so the first test's time is
 * its own; all stop after the file.
 */
export function twoDaysPerFile(series: (start: number, end: number, step: number, shift: number) => Family[]): TwoDaysPerFile {
  const servers = new Map<number, Promise<TwoDaysOf>>();
  const shifted = (shift: number): Promise<TwoDaysOf> => {
    let p = servers.get(shift);
    if (p === undefined) {
      p = startTwoDaysOf((start, end, step) => series(start, end, step, shift));
      servers.set(shift, p);
    }
    return p;
  };
  let first: TwoDaysOf | undefined;
  beforeAll(async () => {
    first = await shifted(0);
  }, 120_000);
  afterAll(async () => {
    // One that failed to start has nothing to stop; its failure is the test's.
    const running = await Promise.allSettled([...servers.values()]);
    await Promise.all(running.flatMap((r) => (r.status === 'fulfilled' ? [r.value.prom.stop()] : [])));
  });
  return {
    get started(): TwoDaysOf {
      if (first === undefined) throw new Error('the Prometheus of this file is read before its beforeAll started it');
      return first;
    },
    shifted,
  };
}
