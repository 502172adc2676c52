import type { CapacityChange, ChangeSet, DraftEntry, MeasurableWorkload, Policy, Diagnostic } from '../domain/index.js';
import { runsIn, servedBy } from '../domain/index.js';
import { collectTelemetry, type ReviewTelemetry, scopeForChange, type TelemetryInput } from '../telemetry/index.js';
import { declaredInTree, draftEntries, withTrustedQueries } from '../workloads/index.js';
import { partialsOf, type CatalogState } from './catalog-state.js';

/**
 * The workloads the repository's manifests declare, for what the catalog does not say. With no
 * catalog, all of them as the head has them (they never justify an increase by themselves). Else
 * only to fill entries that leave a runtime or start `unknown`, and from the manifests as the base
 * branch has them: a manifest the PR adds or edits cannot set the start (a CronJob's schedule) or
 * the namespace measured for the entry it is judged by.
 */
export async function declaredEntries(
  changes: ChangeSet,
  paths: readonly string[],
  catalog: CatalogState,
  at: Date,
): Promise<DraftEntry[]> {
  const on = catalog.kind === 'absent' ? changes.head : partialsOf(catalog).length > 0 ? changes.base : null;
  return on === null ? [] : draftEntries(await declaredInTree(on, paths), at);
}

/** The manifests' workloads that run in what the change serves. */
export function entriesServing(declared: readonly DraftEntry[], change: CapacityChange): DraftEntry[] {
  const target = servedBy(change);
  return declared.filter((e) => runsIn(target, { queue: e.workload.clusterQueue?.name ?? null, pool: e.workload.pool?.name ?? null }));
}

export interface Measuring {
  telemetry: ReviewTelemetry | null;
  /** Notes on the catalog's outcome queries (taken from the base branch). */
  diagnostics: Diagnostic[];
}

/**
 * Asks telemetry what the review needs, when there is something to judge: the catalog's workloads
 * (outcome queries from the base branch), or with none the changes themselves; and, where fields
 * are to be filled or no catalog documents the workloads, the Job runs in their namespaces.
 */
export async function measure(
  input: TelemetryInput | undefined,
  req: { changes: readonly CapacityChange[]; catalog: CatalogState; declared: readonly DraftEntry[]; policy: Policy; repo: ChangeSet },
): Promise<Measuring> {
  const { changes, catalog, declared } = req;
  if (input === undefined || changes.length === 0 || catalog.kind === 'not-read') return { telemetry: null, diagnostics: [] };
  const partials = partialsOf(catalog);
  // Entries with an `unknown` runtime or start are measured too: their runs may fill them.
  const trusted =
    catalog.kind === 'read'
      ? withTrustedQueries([...catalog.workloads, ...partials], catalog.base, catalog.file)
      : { workloads: [] as MeasurableWorkload[], diagnostics: [] };
  const namespaces = (change: CapacityChange): string[] =>
    catalog.kind === 'absent'
      ? entriesServing(declared, change).flatMap((e) => (e.workload.namespace === null ? [] : [e.workload.namespace]))
      : partials
          .filter((p) => runsIn(servedBy(change), p))
          .flatMap((p) => {
            const ns = p.selector?.['namespace'] ?? declared.find((e) => e.name === p.name)?.workload.namespace;
            return ns === undefined || ns === null ? [] : [ns];
          });
  const inferred = catalog.kind === 'absent' || partials.length > 0 ? { inferred: jobNamespaces(changes, namespaces) } : {};
  const telemetry = await collectTelemetry(input, {
    changes,
    workloads: trusted.workloads,
    windowMinutes: req.policy.window,
    repo: req.repo.head,
    // A load test the PR adds does not count, and one it edits is read as the base has it.
    base: req.repo.base,
    ...inferred,
  });
  return { telemetry, diagnostics: trusted.diagnostics };
}

/** Per changed scope (`pool:<name>`, `queue:<name>`), the namespaces whose Job runs are asked for. */
function jobNamespaces(changes: readonly CapacityChange[], namespaces: (c: CapacityChange) => string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of changes) {
    const scope = scopeForChange(c);
    if (scope === null) continue;
    const key = `${scope.kind}:${scope.name}`;
    out.set(key, [...new Set([...(out.get(key) ?? []), ...namespaces(c)])].sort());
  }
  return out;
}
