import { diagnostic } from '../domain/diagnostic.js';
import type { Diagnostic } from '../domain/diagnostic.js';
import type {
  FillableField,
  InferenceWorkload,
  JobWorkload,
  PartialJobWorkload,
  RejectedWorkload,
  Suggestion,
  Workload,
} from '../domain/workload.js';
import { catalogShellSchema, workloadSchema } from './catalog-schema.js';
import type { ParsedWorkload } from './catalog-schema.js';
import { formatDeadline } from './clock.js';
import { formatClockNearest } from '../util/clock.js';
import { windowLength } from '../domain/window.js';
import { formatDuration } from './duration.js';
import { protoKeyPaths } from './unsafe-keys.js';
import { UNKNOWN } from './fields.js';
import { describeValue, friendlyErrors, issuesToDiagnostics, protoKeyDiagnostics } from './zod-diagnostics.js';
import { loadYaml } from './yaml-source.js';
import { itemAt } from '../util/indexed.js';

export interface CatalogResult {
  workloads: Workload[];
  diagnostics: Diagnostic[];
  /** Entries dropped for their errors, with the link they name, so a review knows what its need lacks. */
  rejected: RejectedWorkload[];
  /** The error that kept the whole file from being read (bad YAML, wrong shape); null when it was read. */
  unreadable: Diagnostic | null;
}

export type { RejectedWorkload } from '../domain/workload.js';

const SHAPE = 'expected a mapping with a `workloads:` list';

/**
 * Validates the workload catalog. Each workload is checked on its own: a bad one is reported and
 * dropped, the others are kept. Never throws.
 */
export function parseCatalog(file: string, text: string): CatalogResult {
  const source = loadYaml(file, text);
  if (source.kind === 'invalid') return unreadable(source.diagnostics);
  if (source.kind === 'empty') {
    return unreadable([...source.diagnostics, diagnostic(file, null, 'error', `file is empty: ${SHAPE}`)]);
  }
  const { value, lineOf } = source;
  const diagnostics = [...source.diagnostics];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    diagnostics.push(diagnostic(file, lineOf([]), 'error', `${SHAPE}, got ${describeValue(value)}`));
    return unreadable(diagnostics);
  }

  const shell = catalogShellSchema.safeParse(value, { error: friendlyErrors, reportInput: true });
  diagnostics.push(
    ...byLine([
      ...protoKeyDiagnostics(file, Object.hasOwn(value, '__proto__') ? [['__proto__']] : [], lineOf),
      ...(shell.success ? [] : issuesToDiagnostics(file, shell.error.issues, lineOf, [], { schema: catalogShellSchema, value })),
    ]),
  );
  const items = (value as Record<string, unknown>).workloads;
  if (!Array.isArray(items)) {
    const shellError = diagnostics.find((d) => d.severity === 'error');
    return { workloads: [], diagnostics, rejected: [], unreadable: shellError ?? diagnostic(file, lineOf([]), 'error', SHAPE) };
  }

  const workloads: Workload[] = [];
  const rejected: RejectedWorkload[] = [];
  const firstLineOfName = new Map<string, number | null>();
  // The first workload with a name keeps it; later ones are reported where they repeat it.
  const checkUnique = (name: string | null, index: number): Diagnostic | null => {
    if (name === null) return null;
    const namePath = ['workloads', index, 'name'];
    if (!firstLineOfName.has(name)) {
      firstLineOfName.set(name, lineOf(namePath));
      return null;
    }
    const first = firstLineOfName.get(name);
    const where = first === null || first === undefined ? '' : ` (first used at line ${first})`;
    return diagnostic(file, lineOf(namePath), 'error', `workloads[${index}].name: duplicate name "${name}"${where}`);
  };
  items.forEach((item: unknown, index) => {
    const path = ['workloads', index];
    const parsed = workloadSchema.safeParse(item, { error: friendlyErrors, reportInput: true });
    const suggested = new Map<Diagnostic, Suggestion>();
    const itemDiagnostics = [
      ...protoKeyDiagnostics(file, protoKeyPaths(item, path), lineOf),
      ...(parsed.success
        ? []
        : issuesToDiagnostics(file, parsed.error.issues, lineOf, path, { schema: workloadSchema, value: item }, suggested)),
    ];
    diagnostics.push(...byLine(itemDiagnostics));
    const duplicate = checkUnique(nameOf(item), index);
    if (duplicate !== null) diagnostics.push(duplicate);
    // A typo is the fix to show first: `gpusPerJb` makes `gpusPerJob` "required" too, and renaming it fixes both.
    const typo = byLine(itemDiagnostics).find((d) => suggested.has(d));
    const firstProblem = typo ?? byLine(itemDiagnostics)[0] ?? duplicate;
    if (firstProblem !== null) {
      const suggestion = suggested.get(firstProblem);
      rejected.push({ ...rejectedEntry(item, firstProblem), ...(suggestion ? { suggestion } : {}) });
      return;
    }
    if (!parsed.success) return;
    const undocumented = unknownFields(parsed.data);
    if (undocumented.length > 0) {
      const problems = undocumented.map(({ field, what }) =>
        diagnostic(
          file,
          lineOf([...path, ...field.split('.')]),
          'warning',
          `workloads[${index}].${field}: "unknown": write ${what} (the draft leaves it to your team); until then "${parsed.data.name}" is left out of the need`,
        ),
      );
      diagnostics.push(...problems);
      const entry = rejectedEntry(item, itemAt(problems, 0, 'one problem for each undocumented field, some found'));
      const partial = partialEntry(parsed.data, { file, line: lineOf(path) });
      const fillable = undocumented.flatMap(({ field, fillable: f }, i) =>
        f === null
          ? []
          : [{ field: f, path: `workloads[${index}].${field}`, warning: itemAt(problems, i, 'one problem for each undocumented field') }],
      );
      rejected.push(
        partial !== null && fillable.length === undocumented.length
          ? { ...entry, partial: { workload: partial, unknown: fillable } }
          : entry,
      );
      return;
    }
    const documented = parsed.data as DocumentedWorkload;
    const tooLong = windowProblem(documented, index);
    if (tooLong !== null) {
      const problem = diagnostic(file, lineOf([...path, 'runtime']), 'error', tooLong);
      diagnostics.push(problem);
      rejected.push(rejectedEntry(item, problem));
      return;
    }
    workloads.push(toWorkload(documented, { file, line: lineOf(path) }));
  });
  return { workloads, diagnostics, rejected, unreadable: null };
}

function unreadable(diagnostics: Diagnostic[]): CatalogResult {
  const first = diagnostics.find((d) => d.severity === 'error') ?? null;
  return { workloads: [], diagnostics, rejected: [], unreadable: first };
}

/** The links a dropped entry names, read from its raw fields where they are strings. */
function rejectedEntry(item: unknown, problem: Diagnostic): RejectedWorkload {
  const field = (key: string): string | null => {
    if (item === null || typeof item !== 'object') return null;
    const v = (item as Record<string, unknown>)[key];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
  };
  return { name: nameOf(item), queue: field('queue'), pool: field('pool'), problem };
}

/** Problems in file order; a stable sort keeps zod's order within a line. */
function byLine(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function nameOf(item: unknown): string | null {
  if (item === null || typeof item !== 'object') return null;
  const name = (item as Record<string, unknown>).name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

/** A parsed entry none of whose fields is `unknown`: what the planner can use. */
type DocumentedWorkload = Omit<JobWorkload, 'source'> | Omit<InferenceWorkload, 'source'>;

/** The fields a draft left `unknown`, with what the team must write there and whether a review may fill it. */
function unknownFields(w: ParsedWorkload): { field: string; what: string; fillable: FillableField | null }[] {
  if (w.type === 'inference') return [];
  return [
    ...(w.runtime === UNKNOWN ? [{ field: 'runtime', what: 'how long one run takes', fillable: 'runtime' as const }] : []),
    ...(w.window.earliestStart === UNKNOWN
      ? [{ field: 'window.earliestStart', what: 'the earliest time a run may start (UTC)', fillable: 'earliestStart' as const }]
      : []),
    ...(w.window.deadline === UNKNOWN ? [{ field: 'window.deadline', what: 'when its results are needed (UTC)', fillable: null }] : []),
  ];
}

/** A batch or training entry whose deadline is stated, with its `unknown` fields as null; null for any other. */
function partialEntry(w: ParsedWorkload, source: { file: string; line: number | null }): PartialJobWorkload | null {
  if (w.type === 'inference' || w.window.deadline === UNKNOWN) return null;
  const known = <T>(v: T | typeof UNKNOWN): T | null => (v === UNKNOWN ? null : v);
  return { ...w, runtime: known(w.runtime), window: { earliestStart: known(w.window.earliestStart), deadline: w.window.deadline }, source };
}

function windowProblem(w: DocumentedWorkload, index: number): string | null {
  if (w.type === 'inference') return null;
  const length = windowLength(w.window);
  if (w.runtime <= length) return null;
  const window = `${formatClockNearest(w.window.earliestStart)}–${formatDeadline(w.window.deadline)}`;
  return (
    `workloads[${index}].runtime: workload "${w.name}" runs ${formatDuration(w.runtime)}, ` +
    `longer than its window ${window} (${formatDuration(length)})`
  );
}

function toWorkload(w: DocumentedWorkload, source: { file: string; line: number | null }): Workload {
  return { ...w, source };
}
