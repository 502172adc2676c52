import { posix } from 'node:path';

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
  /**
   * The repository's own names, `host/owner/name` in lower case (`github.com/acme/infra`), where
   * the caller knows them (the CLI from git's remotes, the App from the pull request): a
   * Terraform module whose source names this repository by URL is then read from the tree.
   */
  repositories?: readonly string[];
}

/**
 * `host/owner/name` of a git URL (`https://github.com/Acme/Infra.git`, `git@github.com:acme/infra`,
 * `ssh://git@github.com/acme/infra.git`), in lower case; null when it is not one.
 */
export function repositoryName(url: string): string | null {
  let s = url
    .trim()
    .replace(/^git::/, '')
    .replace(/[?#].*$/, '');
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^@/]+@/, '');
  // scp-like `host:owner/name`
  s = s.replace(/^([^/:]+):(?!\d+\/)/, '$1/').replace(/^([^/:]+):\d+\//, '$1/');
  const m = /^([^/]+)\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(s);
  return m ? `${m[1]}/${m[2]}/${m[3]}`.toLowerCase() : null;
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
