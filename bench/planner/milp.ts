import type { StaggerJob } from '../../src/domain/index.js';

const DAY = 1440;

const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));

export interface Milp {
  lp: string;
  step: number;
  slots: number;
  binaries: number;
  rows: number;
}

/**
 * The time-indexed MILP of the same problem, in CPLEX LP text for HiGHS:
 *   minimise P
 *   Σ_s x[j,s] = 1                                   every run starts once, within its window
 *   Σ_{j,s covering t} gpus_j · x[j,s] − P ≤ 0       every slot t of the day (wrap-around)
 * with x[j,s] binary for the start slots s on the gcd grid (the planner's grid) between the
 * run's release and its deadline minus its duration. Runs are not split: the instances have
 * no interruptible jobs, so the two solve the same problem.
 */
export function timeIndexedMilp(jobs: readonly StaggerJob[]): Milp {
  if (jobs.some((j) => j.interruptible)) throw new Error('the MILP models unsplit runs only');
  const step = jobs.reduce((g, j) => gcd(gcd(gcd(g, j.release), j.deadline), j.duration), DAY);
  const slots = DAY / step;
  const assign: string[] = [];
  const usage: string[][] = Array.from({ length: slots }, () => []);
  const binaries: string[] = [];
  jobs.forEach((job, j) => {
    const len = job.duration / step;
    const lo = job.release / step;
    const hi = (job.deadline - job.duration) / step;
    const vars: string[] = [];
    for (let s = lo; s <= hi; s++) {
      const x = `x${j}_${s}`;
      vars.push(x);
      binaries.push(x);
      for (let k = 0; k < len; k++) usage[(s + k) % slots]?.push(`${job.gpus} ${x}`);
    }
    // One term per line keeps every line short for the LP reader.
    assign.push(` a${j}: ${vars.join('\n  + ')} = 1`);
  });
  const cap = usage.flatMap((terms, t) => (terms.length === 0 ? [] : [` u${t}: ${terms.join('\n  + ')}\n  - P <= 0`]));
  const lp = [
    'Minimize',
    ' obj: P',
    'Subject To',
    ...assign,
    ...cap,
    'Bounds',
    ' P >= 0',
    'Binaries',
    ...binaries.map((b) => ` ${b}`),
    'End',
  ].join('\n');
  return { lp, step, slots, binaries: binaries.length, rows: assign.length + cap.length };
}
