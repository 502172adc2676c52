import type { Diagnostic } from './diagnostic.js';

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
  total?: string;
  qualityThreshold?: number;
}

interface WorkloadBase {
  name: string;
  queue?: string;
  pool?: string;
  selector?: Record<string, string>;
  outcomes?: Outcomes;
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
  days?: Weekday[];
  window: DailyWindow;
  interruptible: boolean;
}

export interface Slo {
  p95LatencyMs: number;
  ttftP95Ms?: number;
  errorRate?: number;
}

export interface Alternative {
  name: string;
  model?: string;
  gpuType?: string;
  gpusPerReplica?: number;
  quality?: number;
  loadTest?: string;
}

export interface InferenceWorkload extends WorkloadBase {
  type: 'inference';
  model?: string;
  gpusPerReplica: number;
  replicas: number;
  slo?: Slo;
  headroom?: number;
  loadTest?: string;
  quality?: number;
  qualityThreshold?: number;
  alternatives: Alternative[];
}

export type Workload = JobWorkload | InferenceWorkload;

export function isJobWorkload(w: Workload): w is JobWorkload {
  return w.type === 'batch' || w.type === 'training';
}

/** A catalog entry that failed validation: what it would have linked to, and its first error. */
export interface RejectedWorkload {
  name: string | null;
  queue: string | null;
  pool: string | null;
  /** The first error reported for the entry. */
  problem: Diagnostic;
}
