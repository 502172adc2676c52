// telemetry/'s API: the sources (live, recorded, replayed), the review's collection of answers and
// what it makes of them. Other stages import telemetry/ through this file.
export {
  collectTelemetry,
  DEFAULT_RATE_WINDOW_MINUTES,
  REVIEW_STEP_SECONDS,
  type ReviewTelemetry,
  type TelemetryInput,
} from './collect.js';
export { telemetryFromEnv, type TelemetryProvider } from './from-env.js';
export { isSourceFailure } from './gather.js';
export { askGpuJobs } from './gpu-jobs.js';
export { toMeasurements } from './measure/to-measurements.js';
export { observationsFor } from './observations.js';
export { type AllocationQuery, fetchAllocation, openCostSettings } from './opencost/client.js';
export { inferredQueries } from './queries/jobs.js';
export type { NamedQuery, Scope } from './queries/named-query.js';
export { recordSnapshot, replayAllocation } from './record.js';
export { openSource } from './registry.js';
export { POOL_LABELS, scopeForChange } from './scopes.js';
export { parseSnapshot, readSnapshot, type Snapshot, SnapshotSource, writeSnapshot } from './snapshot.js';
export type { TelemetrySource } from './source.js';
