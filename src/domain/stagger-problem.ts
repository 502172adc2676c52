/**
 * Why the stagger planner could not plan a catalog workload, as data: report/ words it, for the
 * `schedulable-window` missing item and the CLI's `stagger` command alike. Minutes throughout.
 */
export type ExpandProblemCode =
  /** `window.earliestStart` not a minute of the day, or `window.deadline` more than a week later. */
  | { code: 'window-out-of-range'; earliestStart: number; deadline: number }
  | { code: 'gpus-per-job-not-whole'; gpusPerJob: number }
  | { code: 'jobs-per-day-not-whole'; jobsPerDay: number }
  | { code: 'runtime-not-positive'; runtime: number }
  /** The window (`length` minutes) is longer than the cycle the plan repeats over. */
  | { code: 'window-over-cycle'; length: number; cycle: 'day' | 'week' }
  /** The runtime, whole minutes, does not fit the window from `earliestStart` to `end`. */
  | { code: 'runtime-over-window'; duration: number; earliestStart: number; end: number; length: number };

/** A catalog workload left out of the plan, and why. */
export type ExpandProblem = { workload: string } & ExpandProblemCode;

/** A run of the planner's jobs, `workload run N`. */
export interface RunRef {
  workload: string;
  run: number;
}

/** One way a plan breaks the rules for its jobs (minutes, GPUs). */
export type ScheduleProblem =
  | ({ code: 'run-scheduled-twice' } & RunRef)
  | ({ code: 'run-unknown' } & RunRef)
  | ({ code: 'run-not-scheduled' } & RunRef)
  | ({ code: 'run-gpus'; gpus: number; expected: number } & RunRef)
  | ({ code: 'run-no-pieces' } & RunRef)
  | ({ code: 'run-split-not-interruptible' } & RunRef)
  | ({ code: 'piece-malformed'; start: number; end: number } & RunRef)
  | ({ code: 'piece-before-release'; start: number; release: number } & RunRef)
  | ({ code: 'piece-after-deadline'; end: number; deadline: number } & RunRef)
  | ({ code: 'pieces-overlap' } & RunRef)
  | ({ code: 'run-duration'; total: number; duration: number } & RunRef)
  | { code: 'peak-misstated'; stated: number; actual: number }
  | { code: 'bound-above-peak'; lowerBound: number; peak: number };

/** Why a job cannot be planned (whole minutes and GPUs, inside one cycle). */
export type JobProblem =
  | { code: 'appears-twice' }
  | { code: 'gpus-not-whole'; gpus: number }
  | { code: 'duration-not-whole'; duration: number }
  | { code: 'release-out-of-range'; release: number; cycle: number }
  | { code: 'deadline-out-of-range'; deadline: number; cycle: 'day' | 'week' }
  | { code: 'duration-over-window'; duration: number; window: number };

/** What the planner refused, or (a bug) the rules its own schedule broke. */
export type StaggerProblem =
  | ({ kind: 'invalid-job'; problem: JobProblem } & RunRef)
  | { kind: 'invalid-option'; problem: { code: 'option-not-whole' } | { code: 'cycle-not-day-or-week'; cycle: number } }
  | { kind: 'unsound-plan'; violations: ScheduleProblem[] };
