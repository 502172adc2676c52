import type { RunRef, ScheduleProblem, StaggerJob, StaggerPlan } from '../../domain/index.js';
import { usageProfile } from './profile.js';

export { usageAt, usageProfile, type UsageProfile, type UsageStep } from './profile.js';

/**
 * Every way the plan breaks the rules for these jobs; [] when it is sound.
 * Checked: each job placed once with its GPUs; pieces inside the window, not overlapping one
 * another, adding up to the duration; one piece unless interruptible; the stated peak equal to
 * the schedule's real peak on the plan's cycle (a day or a week); the lower bound not above the peak.
 */
export function checkSchedule(jobs: StaggerJob[], plan: StaggerPlan): ScheduleProblem[] {
  const problems: ScheduleProblem[] = [];
  const ref = (r: RunRef): RunRef => ({ workload: r.workload, run: r.run });
  const key = (r: { workload: string; run: number }): string => `${r.workload}\u0000${r.run}`;
  const placed = new Map<string, StaggerPlan['schedule'][number]>();
  for (const run of plan.schedule) {
    if (placed.has(key(run))) problems.push({ code: 'run-scheduled-twice', ...ref(run) });
    placed.set(key(run), run);
  }
  const known = new Set(jobs.map(key));
  for (const run of plan.schedule) if (!known.has(key(run))) problems.push({ code: 'run-unknown', ...ref(run) });

  for (const job of jobs) {
    const label = ref(job);
    const run = placed.get(key(job));
    if (!run) {
      problems.push({ code: 'run-not-scheduled', ...label });
      continue;
    }
    if (run.gpus !== job.gpus) problems.push({ code: 'run-gpus', gpus: run.gpus, expected: job.gpus, ...label });
    if (run.pieces.length === 0) problems.push({ code: 'run-no-pieces', ...label });
    if (!job.interruptible && run.pieces.length > 1) problems.push({ code: 'run-split-not-interruptible', ...label });
    const pieces = [...run.pieces].sort((a, b) => a.start - b.start);
    let total = 0;
    let lastEnd = -Infinity;
    for (const p of pieces) {
      if (!Number.isFinite(p.start) || !Number.isFinite(p.end) || p.end <= p.start) {
        problems.push({ code: 'piece-malformed', start: p.start, end: p.end, ...label });
        continue;
      }
      if (p.start < job.release) problems.push({ code: 'piece-before-release', start: p.start, release: job.release, ...label });
      if (p.end > job.deadline) problems.push({ code: 'piece-after-deadline', end: p.end, deadline: job.deadline, ...label });
      if (p.start < lastEnd) problems.push({ code: 'pieces-overlap', ...label });
      lastEnd = Math.max(lastEnd, p.end);
      total += p.end - p.start;
    }
    if (total !== job.duration) problems.push({ code: 'run-duration', total, duration: job.duration, ...label });
  }

  const peak = usageProfile(plan.schedule, plan.cycle).peakGpus;
  if (peak !== plan.peakGpus) problems.push({ code: 'peak-misstated', stated: plan.peakGpus, actual: peak });
  if (plan.lowerBound > plan.peakGpus) problems.push({ code: 'bound-above-peak', lowerBound: plan.lowerBound, peak: plan.peakGpus });
  return problems;
}
