import type { ExpandProblem } from '../../analysis/index.js';
import { expandProblemWords } from '../../report/index.js';
import type { RejectedWorkload } from '../../workloads/index.js';

/** A catalog entry of the chosen queue or pool that the plan does not hold, and why. */
export interface LeftOutEntry {
  /** The entry's name; null when the entry names none that can be read. */
  workload: string | null;
  file: string;
  line: number | null;
  message: string;
}

export interface StaggerScope {
  queue?: string | undefined;
  pool?: string | undefined;
}

/**
 * Entries the plan had to leave out: catalog entries rejected for their errors that name the
 * chosen queue or pool (every rejected entry when none is chosen), and jobs the planner could not
 * expand. As in a review, a peak planned without them is known to be too low, never a result.
 */
export function leftOutEntries(
  file: string,
  rejected: readonly RejectedWorkload[],
  problems: readonly ExpandProblem[],
  scope: StaggerScope,
): LeftOutEntry[] {
  const inScope = rejected.filter(
    (w) => (scope.queue === undefined || w.queue === scope.queue) && (scope.pool === undefined || w.pool === scope.pool),
  );
  return [
    ...inScope.map((w) => ({ workload: w.name, file: w.problem.file, line: w.problem.line, message: w.problem.message })),
    ...problems.map((p) => ({ workload: p.workload, file, line: null, message: expandProblemWords(p) })),
  ];
}

/** One line for stderr naming what was left out and where to fix it. */
export function leftOutMessage(entries: readonly LeftOutEntry[], scope: StaggerScope): string {
  const where = scope.queue !== undefined ? ` of queue ${scope.queue}` : scope.pool !== undefined ? ` of pool ${scope.pool}` : '';
  const names = entries.map((e) => `${e.workload ?? 'an unnamed entry'} (${e.file}${e.line === null ? '' : `:${e.line}`})`);
  return (
    `the plan is incomplete: ${entries.length} catalog ${entries.length === 1 ? 'entry' : 'entries'}${where} left out for ` +
    `${entries.length === 1 ? 'its errors' : 'their errors'}: ${names.join(', ')}; the peak may be higher once ${entries.length === 1 ? 'it is' : 'they are'} fixed`
  );
}
