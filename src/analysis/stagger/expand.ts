import { WEEKDAYS, type JobWorkload, type StaggerJob } from '../../domain/index.js';
import { DAY, WEEK } from './circle.js';
import { windowLength } from '../../domain/index.js';
import { formatClock } from './cron.js';

export interface ExpandProblem {
  workload: string;
  message: string;
}

const isWholeIn = (x: number, lo: number, hi: number): boolean => Number.isInteger(x) && x >= lo && x < hi;

/**
 * One planner job per run of each batch or training workload, on the cycle the plan needs: a
 * day, or a week (from Monday 00:00 UTC) as soon as one workload runs on chosen weekdays only
 * or has a window longer than a day; on a week, a workload with no `days` runs every day.
 * `cycle` forces one, to compare two plans of overlapping sets on the same cycle (forced to a
 * day, a workload's `days` are not honoured: it is planned as running daily, which needs no
 * less). A workload the planner cannot schedule (its runtime does not fit its window, say) is
 * left out and reported, so the caller can say which evidence is missing instead of planning on
 * invented numbers.
 */
export function jobsFromWorkloads(
  workloads: JobWorkload[],
  cycle: number = workloads.some((w) => w.days !== undefined || windowLength(w.window) > DAY) ? WEEK : DAY,
): { jobs: StaggerJob[]; problems: ExpandProblem[]; cycle: number } {
  const jobs: StaggerJob[] = [];
  const problems: ExpandProblem[] = [];
  for (const w of workloads) {
    const problem = (message: string): void => {
      problems.push({ workload: w.name, message });
    };
    const { earliestStart, deadline } = w.window;
    if (!isWholeIn(earliestStart, 0, DAY) || !isWholeIn(deadline, 0, WEEK + DAY)) {
      problem(
        `window.earliestStart must be a whole minute of the day and window.deadline at most a week later, got ${earliestStart} and ${deadline}`,
      );
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
    const length = windowLength(w.window);
    const end = earliestStart + length;
    if (length > cycle) {
      problem(`its window (${length} min) is longer than the ${cycle === DAY ? 'day' : 'week'} the plan repeats over`);
      continue;
    }
    if (duration > length) {
      problem(
        `runtime ${duration} min is longer than its window ${formatClock(earliestStart)}–${formatClock(end)} ` +
          `(${length} min), so no start time meets the deadline`,
      );
      continue;
    }
    const days = cycle === DAY ? [0] : (w.days ?? WEEKDAYS).map((d) => WEEKDAYS.indexOf(d));
    let run = 0;
    for (const day of days) {
      for (let k = 1; k <= w.jobsPerDay; k++) {
        run += 1;
        jobs.push({
          workload: w.name,
          run,
          gpus: w.gpusPerJob,
          duration,
          release: day * DAY + earliestStart,
          deadline: day * DAY + end,
          interruptible: w.interruptible,
        });
      }
    }
  }
  return { jobs, problems, cycle };
}
