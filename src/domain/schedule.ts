import type { BoundProof } from './bound-proof.js';
import type { SourceRef } from './workload.js';

/**
 * One run of a job as the planner sees it; times in minutes on the plan's repeating cycle: a
 * 24-hour day, or a week from Monday 00:00 UTC when some workload runs on chosen weekdays or
 * has a window longer than a day.
 */
export interface StaggerJob {
  workload: string;
  /** 1-based index of the run within the cycle. */
  run: number;
  gpus: number;
  duration: number;
  /** Earliest start, minutes after the cycle's start (0 ≤ release < cycle). */
  release: number;
  /** Latest end, minutes after the cycle's start (release < deadline ≤ release + cycle). */
  deadline: number;
  /** May be split into pieces (checkpointing). */
  interruptible: boolean;
}

/** One placed run. `start`/`end` are minutes after the cycle's start (end may run past the cycle). */
export interface PlacedRun {
  workload: string;
  run: number;
  gpus: number;
  /**
   * The run's window, minutes as in StaggerJob; optional because only the planner knows it.
   * The report draws today's starts (every run at its window's opening) from `release`.
   */
  release?: number;
  deadline?: number;
  /** Pieces of the run; one piece unless the job is interruptible and was split. */
  pieces: { start: number; end: number }[];
}

export interface StaggerPlan {
  peakGpus: number;
  /** Proven: no schedule meeting every deadline has a lower peak. */
  lowerBound: number;
  optimal: boolean;
  schedule: PlacedRun[];
  /** Peak when every run starts as soon as its window opens: what happens with no staggering. */
  naivePeakGpus: number;
  /** How the lower bound was found; report/ words it (the JSON's `boundReason`). */
  boundProof: BoundProof;
  /** Minutes in the repeating cycle: 1440 (a day) or 10080 (a week from Monday 00:00 UTC). */
  cycle: number;
  /**
   * Where the workloads whose runs the plan moves are declared in the repository's manifests, for
   * the edit it asks: only those one manifest of that name declares. Absent when none was looked for.
   */
  manifests?: PlannedManifest[];
}

/** A planned workload's manifest: its kind and where it is, and its schedule's line for a CronJob. */
export interface PlannedManifest {
  workload: string;
  kind: string;
  source: SourceRef;
  schedule: SourceRef | null;
}

/** The runs a plan starts other than at their window's opening: the ones someone has to move. */
export function movedRuns(plan: StaggerPlan): PlacedRun[] {
  return plan.schedule.filter((r) => r.release !== undefined && (r.pieces.length > 1 || r.pieces[0]?.start !== r.release));
}
