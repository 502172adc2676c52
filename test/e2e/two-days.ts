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

/**
 * A real Prometheus holding a test's own series for the last two whole days at 5-minute steps:
 * `series(start, end, stepSeconds)` gives the families; `at` is the end of the window.
 */
export async function startTwoDaysOf(
  series: (start: number, end: number, step: number) => Family[],
): Promise<{ prom: RunningPrometheus; at: Date }> {
  const end = Math.floor(Date.now() / 1000 / DAY) * DAY;
  const prom = await startPrometheus(toOpenMetrics(series(end - 2 * DAY, end, 300)));
  return { prom, at: new Date(end * 1000) };
}
