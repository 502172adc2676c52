import type { CapacityDecl, CapacityKind, Diagnostic, NotFollowed, ObjectAddress } from '../domain/index.js';

/**
 * An object that declares GPU capacity whose GPU count could not be read (a template
 * expression, a malformed quota, YAML that only parses once rendered). It is kept so the
 * comparison knows the object still exists on that side and does not report it as removed
 * or as 0 GPUs; the reason is in the diagnostics.
 */
export interface UnresolvedDecl {
  file: string;
  line: number;
  kind: CapacityKind;
  name: string;
  /**
   * Set when the count is unknown because nothing bounds it: a Karpenter pool with no limit on
   * this GPU resource. Messages then say "unbounded", which is what it means.
   */
  unboundedBy?: string;
  /** Terraform: the resource's address, as on a declaration (CapacityDecl.address). */
  address?: ObjectAddress;
  /**
   * Set when it stands for a whole list whose items could not be told (a pool list built by an
   * expression): a declaration of its kind and file the other side read is unknown here, never
   * added or removed.
   */
  wholeList?: true;
  /**
   * Terraform: the module file that declares it, when it was read through a local module call and
   * placed at the call. A change to that module's files shapes this count too.
   */
  declaredIn?: string;
}

export interface ParseResult {
  decls: CapacityDecl[];
  diagnostics: Diagnostic[];
  /** Declarations present on this side whose GPU count is unknown (see UnresolvedDecl). */
  unresolved?: UnresolvedDecl[];
}

/** Lines of one file a parser accounts for (1-based, inclusive). */
export interface AccountedLines {
  file: string;
  from: number;
  to: number;
  /** The object that holds these lines, rather than the lines alone: the default account. */
  object?: true;
}

/** What a parser accounts for, beside what it found. */
export interface Accounting {
  /**
   * What the parser read in full, so that GPU names there are accounted for (the floor under every
   * format: kit/signal-scan/, docs/change-kinds.md). Absent, each declaration, unresolved
   * declaration, thing not followed and diagnostic accounts for the object that holds its line (the Kubernetes
   * object, CloudFormation resource, HCL top-level block or YAML document: see `accountedOf`). A
   * parser that reads only part of an object says which lines it read, so a GPU resource it
   * dropped in the same object (a second resource group of a ClusterQueue, a MIG limit of a
   * NodePool) is still seen, and not followed.
   */
  accounted?: AccountedLines[];
}

/** What a result accounts for: its own `accounted`, or the objects of what it found (see Accounting). */
export function accountedOf(result: ParseResult & Coverage & Accounting): AccountedLines[] {
  if (result.accounted !== undefined) return result.accounted;
  // A diagnostic at a line is the parser speaking of the object there (a value it could not read,
  // a field the tool that applies it ignores): that object was read.
  const anchors: { file: string; line: number | null }[] = [
    ...result.decls,
    ...(result.unresolved ?? []),
    ...(result.notFollowed ?? []),
    ...result.diagnostics,
  ];
  return anchors.flatMap((a) => (a.line === null ? [] : [{ file: a.file, from: a.line, to: a.line, object: true as const }]));
}

/** What in the files could shape GPU capacity but was not followed (a module's inputs, say). */
export interface Coverage {
  notFollowed?: Unfollowed[];
}

/** What a parser returns: its findings, and what it could not follow when there is any. */
export type ParseOutcome = ParseResult & Coverage;

/**
 * Something not followed, with a fingerprint of what it was given: the same fingerprint at base
 * and head means what it shapes did not change, so the PR is not held up by it.
 */
export interface Unfollowed extends NotFollowed {
  fingerprint?: string;
}

/** What a parser that reads files together finds. */
export interface SetParseResult extends ParseResult {
  /**
   * Files this result reads in full context, whose per-file readings it replaces: a kustomize
   * patch looks like an object to the other readers but is only part of one.
   */
  supersedes?: string[];
  /**
   * Objects of other files this result reports under the name their render gives them (a base's
   * queue as each overlay renders it): their per-file readings are dropped, so the same cluster
   * object is not reported twice. The other findings of those files stay.
   */
  replaces?: ObjectRef[];
}

/** One object of one file, by the name it has in that file. */
export interface ObjectRef {
  file: string;
  kind: CapacityKind;
  name: string;
}

/** One file handed to a parser, by repository path. */
export interface SourceFile {
  path: string;
  text: string;
}

export interface CapacityParser {
  /** Short stable name, e.g. `kueue`. */
  id: string;
  /**
   * Optional path-only check, so callers can skip fetching files no parser could want.
   * When absent, every path is a candidate.
   */
  acceptsPath?(path: string): boolean;
  /** Cheap check on path and raw text before any full parse ("not mine" is a normal answer). */
  mightContain(path: string, text: string): boolean;
  /** Never throws: malformed input becomes diagnostics. */
  parse(path: string, text: string): ParseOutcome & Accounting;
  /**
   * For formats whose files depend on their siblings (a Terraform module is a directory):
   * reads the changed files together with the other files of the same directory that
   * `acceptsPath` takes. Callers that can list directories use it instead of `parse` for the
   * changed files this parser accepts. Never throws.
   */
  parseSet?(files: readonly SourceFile[]): SetParseResult & Coverage & Accounting;
  /**
   * With `parseSet`: which unchanged files of a changed file's directory to read as well
   * (default: those `acceptsPath` takes). Kustomize reads only the kustomization there.
   */
  acceptsSibling?(path: string): boolean;
  /**
   * With `parseSet`: repository paths a file names as inputs (a kustomization's resources and
   * patch files). Callers read them too, when present, and pass them to `parseSet`. Never throws.
   */
  references?(file: SourceFile): string[];
}
