import { formatClockDown } from '../util/clock.js';
import type { ExpandProblemCode, JobProblem, RunRef, ScheduleProblem, StaggerProblem } from '../domain/index.js';

/** Why the planner left a workload out, as the catalog's author reads it. */
export function expandProblemWords(p: ExpandProblemCode): string {
  switch (p.code) {
    case 'window-out-of-range':
      return `window.earliestStart must be a whole minute of the day and window.deadline at most a week later, got ${p.earliestStart} and ${p.deadline}`;
    case 'gpus-per-job-not-whole':
      return `gpusPerJob must be a positive whole number to plan start times, got ${p.gpusPerJob}`;
    case 'jobs-per-day-not-whole':
      return `jobsPerDay must be a whole number, got ${p.jobsPerDay}`;
    case 'runtime-not-positive':
      return `runtime must be positive to plan start times, got ${p.runtime} min`;
    case 'window-over-cycle':
      return `its window (${p.length} min) is longer than the ${p.cycle} the plan repeats over`;
    case 'runtime-over-window':
      return (
        `runtime ${p.duration} min is longer than its window ${formatClockDown(p.earliestStart)}–${formatClockDown(p.end)} ` +
        `(${p.length} min), so no start time meets the deadline`
      );
  }
}

/** `nightly run 2`. */
function runLabel(r: RunRef): string {
  return `${r.workload} run ${r.run}`;
}

/** One way a plan breaks the rules, as a sentence. */
export function scheduleProblemWords(p: ScheduleProblem): string {
  switch (p.code) {
    case 'run-scheduled-twice':
      return `${runLabel(p)} is scheduled twice`;
    case 'run-unknown':
      return `${runLabel(p)} is not one of the jobs`;
    case 'run-not-scheduled':
      return `${runLabel(p)} is not scheduled`;
    case 'run-gpus':
      return `${runLabel(p)} is scheduled with ${p.gpus} GPUs, not ${p.expected}`;
    case 'run-no-pieces':
      return `${runLabel(p)} has no pieces`;
    case 'run-split-not-interruptible':
      return `${runLabel(p)} is split but is not interruptible`;
    case 'piece-malformed':
      return `${runLabel(p)} has an empty or malformed piece ${p.start}–${p.end}`;
    case 'piece-before-release':
      return `${runLabel(p)} starts at minute ${p.start}, before its window opens at ${p.release}`;
    case 'piece-after-deadline':
      return `${runLabel(p)} ends at minute ${p.end}, after its deadline ${p.deadline}`;
    case 'pieces-overlap':
      return `${runLabel(p)} has overlapping pieces`;
    case 'run-duration':
      return `${runLabel(p)} runs ${p.total} min, not ${p.duration}`;
    case 'peak-misstated':
      return `the plan states a peak of ${p.stated} GPUs but the schedule reaches ${p.actual}`;
    case 'bound-above-peak':
      return `the lower bound ${p.lowerBound} is above the peak ${p.peak}`;
  }
}

function jobProblemWords(p: JobProblem): string {
  switch (p.code) {
    case 'appears-twice':
      return 'appears twice';
    case 'gpus-not-whole':
      return `gpus must be a positive whole number, got ${p.gpus}`;
    case 'duration-not-whole':
      return `duration must be a positive whole number of minutes, got ${p.duration}`;
    case 'release-out-of-range':
      return `release must be a whole minute in [0, ${p.cycle}), got ${p.release}`;
    case 'deadline-out-of-range':
      return `deadline must be a whole minute after the release and at most a ${p.cycle} later, got ${p.deadline}`;
    case 'duration-over-window':
      return `duration ${p.duration} min is longer than its window (${p.window} min)`;
  }
}

/** What the planner refused, or the rules its schedule broke, as the CLI states it. */
export function staggerProblemWords(p: StaggerProblem): string {
  switch (p.kind) {
    case 'invalid-job':
      return `${runLabel(p)}: ${jobProblemWords(p.problem)}`;
    case 'invalid-option':
      return p.problem.code === 'option-not-whole'
        ? 'nodeBudget, capacity and levelWork must be whole numbers ≥ 0'
        : `cycle must be a day (1440) or a week (10080) in minutes, got ${p.problem.cycle}`;
    case 'unsound-plan':
      return `stagger plan is unsound: ${p.violations.map(scheduleProblemWords).join('; ')}`;
  }
}
