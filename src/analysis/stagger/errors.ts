import type { StaggerJob } from '../../domain/index.js';
import { DAY, cycleWord } from './circle.js';

export type StaggerErrorKind = 'invalid-job' | 'invalid-option' | 'unsound-plan';

/** The planner was given something it cannot plan, or (a bug) produced a schedule that breaks a rule. */
export class StaggerError extends Error {
  readonly kind: StaggerErrorKind;

  constructor(kind: StaggerErrorKind, message: string) {
    super(message);
    this.name = 'StaggerError';
    this.kind = kind;
  }
}

export function jobLabel(job: { workload: string; run: number }): string {
  return `${job.workload} run ${job.run}`;
}

const isWhole = (x: number): boolean => Number.isInteger(x);

/**
 * Rejects jobs the planner's model does not cover. Whole minutes and whole GPUs matter: the
 * optimality argument (grid of the gcd) and the bound's rounding both rely on integer data.
 */
export function validateJobs(jobs: readonly StaggerJob[], cycle: number = DAY): void {
  const seen = new Set<string>();
  for (const job of jobs) {
    const label = jobLabel(job);
    const fail = (why: string): never => {
      throw new StaggerError('invalid-job', `${label}: ${why}`);
    };
    const key = `${job.workload}\u0000${job.run}`;
    if (seen.has(key)) fail('appears twice');
    seen.add(key);
    if (!isWhole(job.gpus) || job.gpus <= 0) fail(`gpus must be a positive whole number, got ${job.gpus}`);
    if (!isWhole(job.duration) || job.duration <= 0) fail(`duration must be a positive whole number of minutes, got ${job.duration}`);
    if (!isWhole(job.release) || job.release < 0 || job.release >= cycle)
      fail(`release must be a whole minute in [0, ${cycle}), got ${job.release}`);
    if (!isWhole(job.deadline) || job.deadline <= job.release || job.deadline > job.release + cycle) {
      fail(`deadline must be a whole minute after the release and at most a ${cycleWord(cycle)} later, got ${job.deadline}`);
    }
    if (job.duration > job.deadline - job.release) {
      fail(`duration ${job.duration} min is longer than its window (${job.deadline - job.release} min)`);
    }
  }
}
