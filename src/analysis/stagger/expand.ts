import { WEEKDAYS, type ExpandProblem, type ExpandProblemCode, type JobWorkload, type StaggerJob } from '../../domain/index.js';
import { DAY, WEEK } from './circle.js';
import { windowLength } from '../../domain/index.js';

export type { ExpandProblem } from '../../domain/index.js';

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
    const problem = (p: ExpandProblemCode): void => {
      problems.push({ workload: w.name, ...p });
    };
    const { earliestStart, deadline } = w.window;
    if (!isWholeIn(earliestStart, 0, DAY) || !isWholeIn(deadline, 0, WEEK + DAY)) {
      problem({ code: 'window-out-of-range', earliestStart, deadline });
      continue;
    }
    if (!Number.isInteger(w.gpusPerJob) || w.gpusPerJob <= 0) {
      problem({ code: 'gpus-per-job-not-whole', gpusPerJob: w.gpusPerJob });
      continue;
    }
    if (!Number.isInteger(w.jobsPerDay) || w.jobsPerDay < 0) {
      problem({ code: 'jobs-per-day-not-whole', jobsPerDay: w.jobsPerDay });
      continue;
    }
    if (!(w.runtime > 0) || !Number.isFinite(w.runtime)) {
      problem({ code: 'runtime-not-positive', runtime: w.runtime });
      continue;
    }
    // A part-minute still holds the GPUs for that minute.
    const duration = Math.ceil(w.runtime);
    // The catalog's rule: a deadline at or before the earliest start falls on the next day.
    const length = windowLength(w.window);
    const end = earliestStart + length;
    if (length > cycle) {
      problem({ code: 'window-over-cycle', length, cycle: cycle === DAY ? 'day' : 'week' });
      continue;
    }
    if (duration > length) {
      problem({ code: 'runtime-over-window', duration, earliestStart, end, length });
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
