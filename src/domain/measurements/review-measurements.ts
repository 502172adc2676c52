import type { MissingEvidence } from '../verdict.js';
import type { CostMeasurement } from './cost.js';
import type { LoadTestImport } from './load-test.js';
import type { MeasureKey } from './measure.js';
import type { Measurement } from './measurement.js';

/**
 * Whether the cluster has MIG devices, which decided whether the MIG measures were taken:
 * `found` (taken), `none` (not taken, nothing lacks), `not-recorded` (a snapshot from before the
 * probe: taken as none), `failed` (unknown: taken all the same, to find out).
 */
export type MigPresenceState = 'found' | 'none' | 'not-recorded' | 'failed';

/** Everything telemetry measured for one review, by measure, each with its evidence. Data only. */
export interface ReviewMeasurements {
  /** Which source answered, credentials removed. */
  source: string;
  /** End of the window, ISO-8601. */
  at: string;
  windowMinutes: number;
  /** Every measure asked, taken or missing; a measure not asked is absent. */
  measurements: ReadonlyMap<MeasureKey, Measurement>;
  /** The source answered at least one question (any, not only these measures). */
  answeredAny: boolean;
  /** Null when the review had no MIG measure to take. */
  migPresence: MigPresenceState | null;
  /** Load tests named by the catalog (`loadTest:` of workloads and alternatives), by path. */
  loadTests: ReadonlyMap<string, LoadTestImport>;
  /** Null when OpenCost is not configured. */
  cost: CostMeasurement | null;
  /** Everything that could not be measured, as the report lists it. */
  missing: readonly MissingEvidence[];
}
