import { filledWorkload } from '../analysis/index.js';
import type { Diagnostic, DraftEntry, JobWorkload, ObservedJobRuns, PartialJobWorkload, RejectedWorkload } from '../domain/index.js';
import { diagnostic } from '../domain/index.js';
import { filledFieldNote } from '../report/index.js';

export interface FilledCatalog {
  /** The entries whose `unknown` fields were all filled, ready for the planner. */
  workloads: JobWorkload[];
  /** The entries still left out of the need. */
  rejected: RejectedWorkload[];
  /** The warning of each filled field, and the note that replaces it. */
  replaced: Map<Diagnostic, Diagnostic>;
}

/**
 * Catalog entries that leave a runtime or earliest start `unknown`, those fields taken from the
 * workload's manifest or its observed runs (`runsOf` gives the runs of the change an entry links
 * to). An entry is filled whole or not at all: one field still unknown keeps it out of the need.
 */
export function fillUnknownFields(
  rejected: readonly RejectedWorkload[],
  declared: readonly DraftEntry[],
  runsOf: (p: PartialJobWorkload) => ObservedJobRuns | null,
  windowDays: number,
): FilledCatalog {
  const workloads: JobWorkload[] = [];
  const left: RejectedWorkload[] = [];
  const replaced = new Map<Diagnostic, Diagnostic>();
  for (const r of rejected) {
    const w = r.partial ? filledWorkload(r.partial.workload, declared, runsOf(r.partial.workload), windowDays) : null;
    if (r.partial === undefined || w === null) {
      left.push(r);
      continue;
    }
    workloads.push(w);
    for (const u of r.partial.unknown) {
      const origin = w.filled?.[u.field];
      if (origin === undefined) continue;
      const minutes = u.field === 'runtime' ? w.runtime : w.window.earliestStart;
      const { file, line } = u.warning;
      replaced.set(u.warning, diagnostic(file, line, 'info', filledFieldNote(u.path, u.field, minutes, origin)));
    }
  }
  return { workloads, rejected: left, replaced };
}
