/** Reads one side of a pull request (base or head). */
export interface TreeReader {
  /** A name for messages: a directory, a git ref, `owner/repo@sha`. */
  readonly label: string;
  /** The file's text, or null when it does not exist on this side. */
  read(path: string): Promise<string | null>;
  /**
   * Paths of the files directly inside `dir` (a repository path, `''` for the root), for
   * formats that read a changed file with its siblings. Optional: without it, only the
   * changed files are read.
   */
  list?(dir: string): Promise<string[]>;
  /**
   * Paths of the directories directly inside `dir`, for finding Kustomize overlays whatever
   * their folders are called. Optional: without it, overlays are looked for by the usual names.
   */
  dirs?(dir: string): Promise<string[]>;
}

/** The two sides of a pull request and the paths that differ between them. */
export interface ChangeSet {
  base: TreeReader;
  head: TreeReader;
  changedPaths(): Promise<string[]>;
}
