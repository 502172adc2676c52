import type { JobWorkload, StaggerJob } from '../../domain/index.js';
import { DAY } from './circle.js';
import { formatClock } from './cron.js';

export interface ExpandProblem {
  workload: string;
  message: string;
}

const isWholeIn = (x: number, lo: number, hi: number): boolean => Number.isInteger(x) && x >= lo && x < hi;

/**
 * One planner job per daily run of each batch or training workload. A workload the planner
 * cannot schedule (its runtime does not fit its window, say) is left out and reported, so the
 * caller can say which evidence is missing instead of planning on invented numbers.
 */
export function jobsFromWorkloads(workloads: JobWorkload[]): { jobs: StaggerJob[]; problems: ExpandProblem[] } {
  const jobs: StaggerJob[] = [];
  const problems: ExpandProblem[] = [];
  for (const w of workloads) {
    const problem = (message: string): void => {
      problems.push({ workload: w.name, message });
    };
    const { earliestStart, deadline } = w.window;
    if (!isWholeIn(earliestStart, 0, DAY) || !isWholeIn(deadline, 0, DAY + 1)) {
      problem(`window.earliestStart and window.deadline must be whole minutes of the day, got ${earliestStart} and ${deadline}`);
      continue;
    }
    if (!Number.isInteger(w.gpusPerJob) || w.gpusPerJob <= 0) {
      problem(`gpusPerJob must be a positive whole number to plan start times, got ${w.gpusPerJob}`);
      continue;
    }
    if (!Number.isInteger(w.jobsPerDay) || w.jobsPerDay < 0) {
      problem(`jobsPerDay must be a whole number, got ${w.jobsPerDay}`);
      continue;
    }
    if (!(w.runtime > 0) || !Number.isFinite(w.runtime)) {
      problem(`runtime must be positive to plan start times, got ${w.runtime} min`);
      continue;
    }
    // A part-minute still holds the GPUs for that minute.
    const duration = Math.ceil(w.runtime);
    // The catalog's rule: a deadline at or before the earliest start falls on the next day.
    const end = deadline <= earliestStart ? deadline + DAY : deadline;
    const windowLength = end - earliestStart;
    if (duration > windowLength) {
      problem(
        `runtime ${duration} min is longer than its window ${formatClock(earliestStart)}–${formatClock(end)} ` +
          `(${windowLength} min), so no start time meets the deadline`,
      );
      continue;
    }
    for (let run = 1; run <= w.jobsPerDay; run++) {
      jobs.push({
        workload: w.name,
        run,
        gpus: w.gpusPerJob,
        duration,
        release: earliestStart,
        deadline: end,
        interruptible: w.interruptible,
      });
    }
  }
  return { jobs, problems };
}
