import { posix } from 'node:path';
import { InputError } from './errors.js';

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
  /**
   * Why `path` is there on this side but is no file `read` can give: a git submodule (its files
   * are another repository's), a symbolic link leading outside the tree, nowhere, round a loop or
   * to a directory. Null for a file, a link to a file inside the tree, or nothing at all. Asked
   * of changed paths whatever their names: a submodule or a linked directory can stand for any
   * files. Optional: a reader without it holds no such entries.
   */
  notAFile?(path: string): Promise<string | null>;
}

/** The two sides of a pull request and the paths that differ between them. */
export interface ChangeSet {
  base: TreeReader;
  head: TreeReader;
  changedPaths(): Promise<string[]>;
}

/**
 * Where a link at `path` pointing to `target` leads, as a repository path; null when it leaves the
 * repository (an absolute target, or one climbing above the root).
 */
export function linkTarget(path: string, target: string): string | null {
  if (target === '' || target.includes('\0') || posix.isAbsolute(target)) return null;
  const joined = posix.normalize(posix.join(posix.dirname(path), target));
  if (joined === '..' || joined.startsWith('../') || joined === '.') return null;
  return joined.replace(/\/+$/, '');
}

/** Links followed in a chain before it counts as a loop: kustomize and Argo CD give up sooner. */
export const MAX_LINK_HOPS = 8;

/**
 * A path that is there but cannot be read as a file: a git submodule, a symbolic link leading
 * outside the tree (or nowhere, or round a loop, or to a directory), a file over the size limit.
 * Detection reports it as an error on its file, never as the file removed or unchanged; elsewhere
 * (the policy, the catalog) it is bad input naming the file.
 */
export class UnreadablePathError extends InputError {
  constructor(
    readonly path: string,
    /** What the path is and why it was not read: "a git submodule …". */
    readonly why: string,
  ) {
    super(`${path}: ${why}`, { file: path });
    this.name = 'UnreadablePathError';
  }
}

/** Why a git submodule is not read. */
export function submoduleReason(commit: string | null): string {
  const at = commit === null ? '' : ` (at commit ${commit.slice(0, 12)})`;
  return `a git submodule${at}: its files belong to another repository and were not read, so what it declares is unknown`;
}

/** Why a symbolic link to a directory is not read. */
export function linkToDirectory(target: string): string {
  return `a symbolic link to the directory ${target}: the files it stands for were not read, so what it declares is unknown`;
}
