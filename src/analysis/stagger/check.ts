import type { StaggerJob, StaggerPlan } from '../../domain/index.js';
import { jobLabel } from './errors.js';
import { usageProfile } from './profile.js';

export { usageAt, usageProfile, type UsageProfile, type UsageStep } from './profile.js';

/**
 * Every way the plan breaks the rules for these jobs, as sentences; [] when it is sound.
 * Checked: each job placed once with its GPUs; pieces inside the window, not overlapping one
 * another, adding up to the duration; one piece unless interruptible; the stated peak equal to
 * the schedule's real peak on the plan's cycle (a day or a week); the lower bound not above the peak.
 */
export function checkSchedule(jobs: StaggerJob[], plan: StaggerPlan): string[] {
  const problems: string[] = [];
  const key = (r: { workload: string; run: number }): string => `${r.workload}\u0000${r.run}`;
  const placed = new Map<string, StaggerPlan['schedule'][number]>();
  for (const run of plan.schedule) {
    if (placed.has(key(run))) problems.push(`${jobLabel(run)} is scheduled twice`);
    placed.set(key(run), run);
  }
  const known = new Set(jobs.map(key));
  for (const run of plan.schedule) if (!known.has(key(run))) problems.push(`${jobLabel(run)} is not one of the jobs`);

  for (const job of jobs) {
    const label = jobLabel(job);
    const run = placed.get(key(job));
    if (!run) {
      problems.push(`${label} is not scheduled`);
      continue;
    }
    if (run.gpus !== job.gpus) problems.push(`${label} is scheduled with ${run.gpus} GPUs, not ${job.gpus}`);
    if (run.pieces.length === 0) problems.push(`${label} has no pieces`);
    if (!job.interruptible && run.pieces.length > 1) problems.push(`${label} is split but is not interruptible`);
    const pieces = [...run.pieces].sort((a, b) => a.start - b.start);
    let total = 0;
    let lastEnd = -Infinity;
    for (const p of pieces) {
      if (!Number.isFinite(p.start) || !Number.isFinite(p.end) || p.end <= p.start) {
        problems.push(`${label} has an empty or malformed piece ${p.start}–${p.end}`);
        continue;
      }
      if (p.start < job.release) problems.push(`${label} starts at minute ${p.start}, before its window opens at ${job.release}`);
      if (p.end > job.deadline) problems.push(`${label} ends at minute ${p.end}, after its deadline ${job.deadline}`);
      if (p.start < lastEnd) problems.push(`${label} has overlapping pieces`);
      lastEnd = Math.max(lastEnd, p.end);
      total += p.end - p.start;
    }
    if (total !== job.duration) problems.push(`${label} runs ${total} min, not ${job.duration}`);
  }

  const peak = usageProfile(plan.schedule, plan.cycle).peakGpus;
  if (peak !== plan.peakGpus) problems.push(`the plan states a peak of ${plan.peakGpus} GPUs but the schedule reaches ${peak}`);
  if (plan.lowerBound > plan.peakGpus) problems.push(`the lower bound ${plan.lowerBound} is above the peak ${plan.peakGpus}`);
  return problems;
}
