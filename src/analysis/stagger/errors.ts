import { GpuJustifyError, type JobProblem, type StaggerJob, type StaggerProblem } from '../../domain/index.js';
import { DAY, cycleWord } from './circle.js';

export type StaggerErrorKind = StaggerProblem['kind'];

/** The codes of a problem, for the message; report/ words `problem` for readers. */
function codesOf(p: StaggerProblem): string {
  switch (p.kind) {
    case 'invalid-job':
      return `${p.workload} run ${p.run}: ${p.problem.code}`;
    case 'invalid-option':
      return p.problem.code;
    case 'unsound-plan':
      return `unsound-plan: ${p.violations.map((v) => v.code).join(', ')}`;
  }
}

/** The planner was given something it cannot plan, or (a bug) produced a schedule that breaks a rule. */
export class StaggerError extends GpuJustifyError {
  override readonly kind: StaggerErrorKind;
  readonly problem: StaggerProblem;

  constructor(problem: StaggerProblem) {
    super(codesOf(problem));
    this.name = 'StaggerError';
    this.kind = problem.kind;
    this.problem = problem;
  }
}

const isWhole = (x: number): boolean => Number.isInteger(x);

/**
 * Rejects jobs the planner's model does not cover. Whole minutes and whole GPUs matter: the
 * optimality argument (grid of the gcd) and the bound's rounding both rely on integer data.
 */
export function validateJobs(jobs: readonly StaggerJob[], cycle: number = DAY): void {
  const seen = new Set<string>();
  for (const job of jobs) {
    const fail = (problem: JobProblem): never => {
      throw new StaggerError({ kind: 'invalid-job', workload: job.workload, run: job.run, problem });
    };
    const key = `${job.workload}\u0000${job.run}`;
    if (seen.has(key)) fail({ code: 'appears-twice' });
    seen.add(key);
    if (!isWhole(job.gpus) || job.gpus <= 0) fail({ code: 'gpus-not-whole', gpus: job.gpus });
    if (!isWhole(job.duration) || job.duration <= 0) fail({ code: 'duration-not-whole', duration: job.duration });
    if (!isWhole(job.release) || job.release < 0 || job.release >= cycle)
      fail({ code: 'release-out-of-range', release: job.release, cycle });
    if (!isWhole(job.deadline) || job.deadline <= job.release || job.deadline > job.release + cycle) {
      fail({ code: 'deadline-out-of-range', deadline: job.deadline, cycle: cycleWord(cycle) });
    }
    if (job.duration > job.deadline - job.release) {
      fail({ code: 'duration-over-window', duration: job.duration, window: job.deadline - job.release });
    }
  }
}
