import type { CapacityDecl, Diagnostic, ObjectAddress } from '../../domain/index.js';
import type { Accounting, CapacityParser, ParseOutcome, SetParseResult, Unfollowed, UnresolvedDecl } from '../parser.js';
import type { CoverageIo } from '../side-readers.js';
import { mapAddress } from './addresses.js';
import type { TerraformBudget } from './expr-budget.js';
import { dirOf } from './module-files.js';
import type { parseTerraformSet } from './terraform-parser.js';

/*
 * What following modules of this repository gives: the readings of each side, the calls read
 * through, and how a module's findings are placed where they were asked for.
 */

export type Side = Required<SetParseResult> & { notFollowed: Unfollowed[] };

export interface FollowedModules {
  base: Side;
  head: Side;
  /** Module calls read through their module: `file` and `module.<label>`. */
  calls: { file: string; subject: string }[];
  /** Variable files read with the module that declares their variables. */
  tfvars: string[];
  /** The folder of the module each of those files was read with. */
  tfvarsModules: Map<string, string>;
  /** Folders of the modules read through a call: their own readings would count the pools twice. */
  modules: string[];
  /** Changed root modules read once per variable file applied to them: the Terraform parser's reading with the defaults is replaced. */
  roots: string[];
}

export const empty = (): Side => ({ decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], replaces: [] });

/** A module's findings moved to where they were asked for: the call, or the variable file. */
export function place(
  out: Side,
  found: ReturnType<typeof parseTerraformSet> & { supersedes?: string[] },
  file: string,
  line: number,
  label: (name: string) => string,
  why: string,
): void {
  // An address is labelled as the name is: one per application of a root (root-follow.ts).
  const at = (a: ObjectAddress): ObjectAddress => ({ at: label(a.at), formerly: a.formerly.map(label) });
  out.decls.push(
    ...found.decls.map((d): CapacityDecl =>
      mapAddress({ ...d, file, line, name: label(d.name), parts: d.parts.map((p) => ({ ...p, line })) }, at),
    ),
  );
  out.unresolved.push(
    ...(found.unresolved ?? []).map((u): UnresolvedDecl =>
      mapAddress({ ...u, file, line, name: label(u.name), declaredIn: u.declaredIn ?? u.file }, at),
    ),
  );
  out.diagnostics.push(
    ...found.diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d): Diagnostic => ({ ...d, file, line, message: `${why}: ${d.message}` })),
  );
  out.notFollowed.push(...(found.notFollowed ?? []).map((n) => ({ ...n, file, line })));
  out.supersedes.push(...(found.supersedes ?? []));
}

/** What one local module call declares, read through the module. */
export interface CallReading {
  file: string;
  label: string;
  line: number;
  source: string;
  moduleDir: string;
  /** The `?ref=` of a module of this repository called by URL. */
  ref: string | null;
  found: Collected;
  /** Present in the repository but not read through (its instances unknown or too many): `found` only says so. */
  skipped?: true;
}

export type Collected = Required<ParseOutcome> &
  Accounting & {
    notFollowed: Unfollowed[];
    /** Templates rendered through the module: their own readings (YAML with `${…}`) give way. */
    supersedes?: string[];
    /** Folders of the modules its own calls were read through: their own readings give way too. */
    within?: string[];
  };

// Module readings per PR and side: instances times depth could grow without bound; past this a call is not followed.
export const MAX_READS = 256;

/** Module readings left for one side of the PR. */
export interface Readings {
  left: number;
  /** What evaluating every reading of this side may cost, together. */
  budget: TerraformBudget;
}
export type Budgets = Record<'base' | 'head', Readings>;

/** What the follow reads: the two sides, listings, and the repository's own names (module-source.ts). */
export interface FollowIo extends CoverageIo {
  repositories?: readonly string[];
  /**
   * The reader of Kubernetes objects declared in Terraform (manifests-parser.ts): a module read
   * through its call declares those too, with the call's values, and its own reading is dropped.
   */
  manifests?: CapacityParser | undefined;
  /** The folders inside a folder, where the listing can tell: to find the module a variable file beside it sets. */
  dirs?: (dir: string) => Promise<string[]>;
}

/** A module's own reading less the notes about the local calls that were read through. */
export function withoutCalls(found: ReturnType<typeof parseTerraformSet>, calls: readonly CallReading[]): Collected {
  // A call's notes sit on its file and on the values files of its folder (call-notes.ts).
  const read = new Set(calls.filter((c) => !c.skipped).map((c) => `${dirOf(c.file)}\u0000module.${c.label}`));
  const warned = (file: string, message: string) =>
    calls.some((c) => !c.skipped && c.file === file && message.startsWith(`module.${c.label} (source `));
  return {
    decls: found.decls,
    unresolved: found.unresolved ?? [],
    diagnostics: found.diagnostics.filter((d) => !warned(d.file, d.message)),
    notFollowed: (found.notFollowed ?? []).filter(
      (n) => !((n.reason === 'local-module' || n.reason === 'remote-module') && read.has(`${dirOf(n.file)}\u0000${n.subject}`)),
    ),
    // The override blocks merged into what it read (override-accounting.ts) stay accounted for.
    ...(found.accounted === undefined ? {} : { accounted: found.accounted }),
  };
}
