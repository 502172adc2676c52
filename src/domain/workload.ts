import type { Diagnostic } from './diagnostic.js';

/**
 * Where one value of a workload was read: its catalog entry, a manifest of the repository
 * (`file:line`), or a query over a window of telemetry.
 */
export interface FieldOrigin {
  source: 'catalog' | 'manifest' | 'telemetry';
  /** `file:line`, or the PromQL asked. */
  ref: string;
  /** Telemetry only: `<minutes>m to <ISO end>`. */
  window?: string;
}

/** A point of the catalog, with its source line for evidence. */
export interface SourceRef {
  file: string;
  line: number | null;
}

/** Weekdays in week order; a weekly cycle starts on Monday 00:00 UTC. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

interface DailyWindow {
  /** Minutes after 00:00 UTC. */
  earliestStart: number;
  /** Minutes after 00:00 UTC; at or before earliestStart means the next day. */
  deadline: number;
}

export interface Outcomes {
  verified: string;
  total?: string | undefined;
  qualityThreshold?: number | undefined;
}

interface WorkloadBase {
  name: string;
  queue?: string | undefined;
  pool?: string | undefined;
  selector?: Record<string, string> | undefined;
  outcomes?: Outcomes | undefined;
  source: SourceRef;
}

/** Batch and training jobs: what the stagger planner schedules. */
export interface JobWorkload extends WorkloadBase {
  type: 'batch' | 'training';
  gpusPerJob: number;
  /** Minutes. */
  runtime: number;
  jobsPerDay: number;
  /** Weekdays it runs on, in week order from Monday; absent: every day. */
  days?: Weekday[] | undefined;
  window: DailyWindow;
  interruptible: boolean;
  /**
   * Where the fields the catalog left `unknown` were taken from (its manifest, or the runs
   * telemetry observed); absent when the catalog states every field.
   */
  filled?: Partial<Record<FillableField, FieldOrigin>> | undefined;
}

/** The fields of a batch or training entry a review may fill when the catalog says `unknown`. */
export type FillableField = 'runtime' | 'earliestStart';

/**
 * A batch or training entry of the catalog that leaves its runtime or earliest start `unknown` and
 * states its deadline: a review may take those from the workload's manifest or its observed runs.
 * Only the team can state a deadline, so an entry without one is never filled.
 */
export interface PartialJobWorkload extends Omit<JobWorkload, 'runtime' | 'window' | 'filled'> {
  /** Minutes; null when the catalog says `unknown`. */
  runtime: number | null;
  window: { earliestStart: number | null; deadline: number };
}

export interface Slo {
  p95LatencyMs: number;
  ttftP95Ms?: number | undefined;
  errorRate?: number | undefined;
}

export interface Alternative {
  name: string;
  model?: string | undefined;
  gpuType?: string | undefined;
  gpusPerReplica?: number | undefined;
  quality?: number | undefined;
  loadTest?: string | undefined;
}

export interface InferenceWorkload extends WorkloadBase {
  type: 'inference';
  model?: string | undefined;
  gpusPerReplica: number;
  replicas: number;
  slo?: Slo | undefined;
  headroom?: number | undefined;
  loadTest?: string | undefined;
  quality?: number | undefined;
  qualityThreshold?: number | undefined;
  alternatives: Alternative[];
}

export type Workload = JobWorkload | InferenceWorkload;

/** What telemetry may be asked about: the catalog's entries, those with `unknown` fields too. */
export type MeasurableWorkload = Workload | PartialJobWorkload;

export function isJobWorkload(w: Workload): w is JobWorkload {
  return w.type === 'batch' || w.type === 'training';
}

/** A mistyped field name or value of a user's file, and the one it most likely meant. */
export interface Suggestion {
  typed: string;
  meant: string;
  what: 'field' | 'value';
}

/** A catalog entry that failed validation: what it would have linked to, and its first error. */
export interface RejectedWorkload {
  name: string | null;
  queue: string | null;
  pool: string | null;
  /** The error to fix first: one with a likely correction (a typo), else the first by line. */
  problem: Diagnostic;
  /** The correction `problem` suggests, when it suggests one. */
  suggestion?: Suggestion;
  /**
   * Set when the entry's only gap is an `unknown` runtime or earliest start (its deadline stated):
   * the entry as written, and the warning of each such field, for a review to fill them.
   */
  partial?: { workload: PartialJobWorkload; unknown: { field: FillableField; path: string; warning: Diagnostic }[] };
}
