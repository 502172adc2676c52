import { judgedCatalog, type JudgedCatalog } from '../analysis/catalog-demand.js';
import type { ChangeSet, Diagnostic, PartialJobWorkload, Policy, RejectedWorkload, Workload } from '../domain/index.js';
import { parseCatalog } from '../workloads/catalog.js';

/**
 * What the review knows of the workload catalog, worked out once and read by every later step:
 * - `not-read`: nothing to judge, so the catalog was not read (most PRs touch no GPUs);
 * - `absent`: the head side has none, and the workloads come from manifests and telemetry;
 * - `unreadable`: the file is there but cannot be read as a catalog;
 * - `read`: its entries, the ones judged by (in enforce mode a PR cannot raise what it is judged
 *   against), the ones dropped for their errors, and how the head compares with the base.
 */
export type CatalogState =
  | { kind: 'not-read'; file: string }
  | { kind: 'absent'; file: string }
  | { kind: 'unreadable'; file: string; changedInPr: boolean; error: Diagnostic; diagnostics: Diagnostic[] }
  | {
      kind: 'read';
      file: string;
      changedInPr: boolean;
      /** The entries the review judges by. */
      workloads: Workload[];
      /** The base branch's entries; null when the base has no catalog. */
      base: Workload[] | null;
      /** Entries dropped for their errors (those leaving a runtime or start `unknown` among them). */
      rejected: RejectedWorkload[];
      /** Set in enforce mode when the PR changes the catalog: the head's entries weighed against the base's. */
      judged: { catalog: JudgedCatalog; head: Workload[] } | null;
      diagnostics: Diagnostic[];
    };

export interface CatalogSource {
  /** A catalog given outright (the CLI's `--catalog`), instead of the one in the head side. */
  given?: { file: string; text: string };
  changes: ChangeSet;
  policy: Policy;
  /** Whether any change is there to judge. */
  needed: boolean;
}

/** Reads the catalog at head (and base, to compare) and classifies it. */
export async function readCatalogState(src: CatalogSource): Promise<CatalogState> {
  const file = src.given?.file ?? src.policy.catalog;
  if (!src.needed) return { kind: 'not-read', file };
  const [headText, baseText] = src.given
    ? [src.given.text, src.given.text]
    : await Promise.all([src.changes.head.read(file), src.changes.base.read(file)]);
  if (headText === null) return { kind: 'absent', file };
  const changedInPr = headText !== baseText;
  const head = parseCatalog(file, headText);
  if (head.unreadable !== null) return { kind: 'unreadable', file, changedInPr, error: head.unreadable, diagnostics: head.diagnostics };
  const base = !changedInPr ? head.workloads : baseText === null ? null : parseCatalog(file, baseText).workloads;
  // The PR may document new workloads, not inflate the ones it is judged against.
  const judged =
    src.policy.mode === 'enforce' && changedInPr ? { catalog: judgedCatalog(base ?? [], head.workloads), head: head.workloads } : null;
  return {
    kind: 'read',
    file,
    changedInPr,
    workloads: judged?.catalog.workloads ?? head.workloads,
    base,
    rejected: head.rejected,
    judged,
    diagnostics: head.diagnostics,
  };
}

/** The catalog entries a review may fill: an `unknown` runtime or start, the deadline stated. */
export function partialsOf(state: CatalogState): PartialJobWorkload[] {
  return state.kind === 'read' ? state.rejected.flatMap((r) => (r.partial ? [r.partial.workload] : [])) : [];
}
