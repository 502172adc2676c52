import { type CatalogSplit, judgeCatalog, type JudgedCatalog, measuredEntries, splitCatalog } from '../analysis/index.js';
import type { ChangeSet, Diagnostic, PartialJobWorkload, Policy, RejectedWorkload, ReviewMeasurements, Workload } from '../domain/index.js';
import { diagnostic, readOrWhy, UnreadablePathError } from '../domain/index.js';
import { parseCatalog } from '../workloads/index.js';
import type { GivenCatalog } from './input.js';

/**
 * What the review knows of the workload catalog, worked out once and read by every later step:
 * - `not-read`: nothing to judge, so the catalog was not read (most PRs touch no GPUs);
 * - `absent`: the head side has none, and the workloads come from manifests and telemetry;
 * - `unreadable`: the file is there but cannot be read as a catalog;
 * - `read`: its entries, the ones dropped for their errors, and how the head compares with the
 *   base: a PR may document new workloads, not write the demand that justifies it, so what it adds
 *   or raises is measured as the base has it where it has it, and weighed once measured.
 */
export type CatalogState =
  | { kind: 'not-read'; file: string }
  | { kind: 'absent'; file: string }
  | { kind: 'unreadable'; file: string; changedInPr: boolean; error: Diagnostic; diagnostics: Diagnostic[] }
  | {
      kind: 'read';
      file: string;
      changedInPr: boolean;
      /** The entries measured, then (once weighed) the ones the review judges by. */
      workloads: Workload[];
      /** The base branch's entries; null when the base has no catalog. */
      base: Workload[] | null;
      /** Entries the base branch's catalog has, whole or with `unknown` fields: a filled one of these is not the PR's. */
      baseNames: ReadonlySet<string>;
      /** Entries dropped for their errors (those leaving a runtime or start `unknown` among them). */
      rejected: RejectedWorkload[];
      /** Set when the PR changes the catalog: the head's entries against the base's. */
      split: CatalogSplit | null;
      /** Set once weighed (weighCatalog): what the PR declares, with what measured it. */
      judged: JudgedCatalog | null;
      diagnostics: Diagnostic[];
    };

export interface CatalogSource {
  /** A catalog given outright (the CLI's `--catalog`), instead of the one in the head side. */
  given?: GivenCatalog;
  changes: ChangeSet;
  /** Whether any change is there to judge. */
  needed: boolean;
  policy: Policy;
}

/** Reads the catalog at head (and base, to compare) and classifies it. */
export async function readCatalogState(src: CatalogSource): Promise<CatalogState> {
  const file = src.given?.file ?? src.policy.catalog;
  if (!src.needed) return { kind: 'not-read', file };
  const [headText, baseText] = src.given
    ? [src.given.text, src.given.base === undefined ? src.given.text : src.given.base]
    : await Promise.all([readOrWhy(src.changes.head, file), readOrWhy(src.changes.base, file)]);
  if (headText instanceof UnreadablePathError) {
    // A catalog that is no file of the repository (a link leading out, a submodule) is no catalog to judge by.
    const error = diagnostic(file, null, 'error', headText.why);
    return { kind: 'unreadable', file, changedInPr: true, error, diagnostics: [error] };
  }
  if (headText === null) return { kind: 'absent', file };
  const changedInPr = headText !== baseText;
  const head = parseCatalog(file, headText);
  if (head.unreadable !== null) return { kind: 'unreadable', file, changedInPr, error: head.unreadable, diagnostics: head.diagnostics };
  const baseCatalog = !changedInPr
    ? head
    : baseText === null || baseText instanceof UnreadablePathError
      ? null
      : parseCatalog(file, baseText);
  const base = baseCatalog?.workloads ?? null;
  const split = changedInPr ? splitCatalog(base ?? [], head.workloads) : null;
  return {
    kind: 'read',
    file,
    changedInPr,
    workloads: split === null ? head.workloads : measuredEntries(split),
    base,
    baseNames: new Set([...(base ?? []), ...partialsIn(baseCatalog?.rejected ?? [])].map((w) => w.name)),
    rejected: head.rejected,
    split,
    judged: null,
    diagnostics: head.diagnostics,
  };
}

/**
 * The catalog weighed once measured: an entry the PR adds or raises counts as written only with
 * measured support, else a raised one is judged as the base has it and an added one left out.
 * Entries a review filled (after the split) are the PR's unless the base has them.
 */
export function weighCatalog(catalog: CatalogState, measured: ReviewMeasurements | null, policy: Policy): CatalogState {
  if (catalog.kind !== 'read' || catalog.split === null) return catalog;
  const filled = catalog.workloads.slice(catalog.split.entries.length);
  const judged = judgeCatalog(catalog.split, measured, policy, { workloads: filled, baseNames: catalog.baseNames });
  return { ...catalog, workloads: judged.workloads, judged };
}

/** The catalog entries a review may fill: an `unknown` runtime or start, the deadline stated. */
export function partialsOf(state: CatalogState): PartialJobWorkload[] {
  return state.kind === 'read' ? partialsIn(state.rejected) : [];
}

function partialsIn(rejected: readonly RejectedWorkload[]): PartialJobWorkload[] {
  return rejected.flatMap((r) => (r.partial ? [r.partial.workload] : []));
}
