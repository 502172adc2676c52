/** One run of a job as the planner sees it; times in minutes on a repeating 24-hour day. */
export interface StaggerJob {
  workload: string;
  /** 1-based index of the run within the day. */
  run: number;
  gpus: number;
  duration: number;
  /** Earliest start, minutes after 00:00 (0 ≤ release < 1440). */
  release: number;
  /** Latest end, minutes after 00:00 of the release day (release < deadline ≤ release + 1440). */
  deadline: number;
  /** May be split into pieces (checkpointing). */
  interruptible: boolean;
}

/** One placed run. `start`/`end` are minutes after 00:00 of the release day (end may exceed 1440). */
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
  /** How the lower bound was found, for the evidence line. */
  boundReason: string;
}
