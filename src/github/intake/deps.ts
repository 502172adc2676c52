import type { AppMetrics } from '../metrics.js';
import type { WorkRuntime } from '../work/runtime.js';

/** What every webhook handler shares: where jobs go, and the App's metrics. */
export interface IntakeDeps {
  work: WorkRuntime;
  metrics: AppMetrics;
}
