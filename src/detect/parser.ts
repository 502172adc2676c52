import type { CapacityDecl, CapacityKind, Diagnostic, NotFollowed } from '../domain/index.js';

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
}

export interface ParseResult {
  decls: CapacityDecl[];
  diagnostics: Diagnostic[];
  /** Declarations present on this side whose GPU count is unknown (see UnresolvedDecl). */
  unresolved?: UnresolvedDecl[];
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
  parse(path: string, text: string): ParseOutcome;
  /**
   * For formats whose files depend on their siblings (a Terraform module is a directory):
   * reads the changed files together with the other files of the same directory that
   * `acceptsPath` takes. Callers that can list directories use it instead of `parse` for the
   * changed files this parser accepts. Never throws.
   */
  parseSet?(files: readonly SourceFile[]): SetParseResult & Coverage;
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
