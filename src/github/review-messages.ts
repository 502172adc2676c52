import type { Result } from '../domain/result.js';
import type { ReviewResult } from '../domain/review.js';
import type { LoadedPolicy } from '../review/index.js';
import type { AllocationQuery } from '../telemetry/index.js';
import type { NamedQuery } from '../telemetry/index.js';

/**
 * What passes between the App's thread and a review worker (review-pool.ts, review-worker.ts).
 * A review's data goes as it is; its ports (the pull request's two sides, the telemetry source)
 * stay in the App's thread, where GitHub and Prometheus are asked: the worker calls them by
 * message and waits for the answer.
 */

/** One side of the pull request as the worker sees it: its label, and which listings it offers. */
interface SideShape {
  label: string;
  list: boolean;
  dirs: boolean;
  notAFile: boolean;
  contentId: boolean;
}

/** A review to run: the data of `ReviewInput`, its ports replaced by their shapes. */
export interface ReviewJob {
  policy: LoadedPolicy;
  headSha?: string;
  catalog?: { file: string; text: string };
  changes: { base: SideShape; head: SideShape; repositories?: readonly string[] };
  baseBranch?: string;
  telemetry?: {
    description: string;
    at: Date;
    windowMinutes?: number;
    rateWindowMinutes?: number;
    /** Whether OpenCost is configured: its allocation is asked through the port too. */
    allocation: boolean;
  };
}

export type Side = 'base' | 'head';

/** A call on a port the App's thread holds. */
export type PortCall =
  | { op: 'changedPaths' }
  | { op: 'read'; side: Side; path: string }
  | { op: 'list'; side: Side; dir: string }
  | { op: 'dirs'; side: Side; dir: string }
  | { op: 'notAFile'; side: Side; path: string }
  | { op: 'contentId'; side: Side; path: string }
  | { op: 'query'; query: NamedQuery; at: Date; windowMinutes: number }
  | { op: 'allocation'; query: AllocationQuery };

/**
 * An error as it crosses: its name and message, and for an error a port threw in the App's thread,
 * the number the App keeps it under, so the review's failure is that very error again.
 */
export interface ErrorShape {
  name: string;
  message: string;
  ref?: number;
  /** For a path there but no file (UnreadablePathError), what the worker rebuilds it from. */
  unreadable?: { path: string; why: string };
}

/** The review to run, or the answer to one of the worker's calls: what the port returned, or what it threw. */
export type ToWorker = { kind: 'review'; job: ReviewJob } | ({ kind: 'answer'; call: number } & Result<unknown, ErrorShape>);

/** A call to one of the review's ports, or the review done: its result, or what it threw. */
export type FromWorker = { kind: 'call'; call: number; request: PortCall } | ({ kind: 'done' } & Result<ReviewResult, ErrorShape>);
