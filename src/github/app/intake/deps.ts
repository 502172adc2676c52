import type { AppMetrics } from '../metrics.js';
import type { WorkRuntime } from '../work/runtime.js';
import type { Instance } from '../../publish/index.js';

/** What every webhook handler shares: where jobs go, and the App's metrics. */
export interface IntakeDeps {
  work: WorkRuntime;
  metrics: AppMetrics;
  /** Our check run's name: a re-run of another instance's is not ours. */
  instance: Instance;
}
