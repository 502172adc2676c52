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
  /**
   * A hash of the file's content that the host gives without the file being downloaded (git's
   * blob id), or null when there is no file or none is given. Asked of a side the review could not
   * read (over the size limit, refused), so that what a grant binds to is its content, never only
   * its size. Optional: without it, such a side is known by why it was not read.
   */
  contentId?(path: string): Promise<string | null>;
  /**
   * Whether `path` is a plain directory on this side (not a link to one, not a submodule). Asked
   * only of the policy's paths, after `read` gave no text: a directory where the policy should be
   * is not "no policy". Optional: without it, such a path reads as nothing there.
   */
  isDirectory?(path: string): Promise<boolean>;
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

/**
 * True when a link's target can only be a directory: it ends in `/` or in a `.` or `..` part
 * (`queues.yaml/`, `prod/.`). A checkout reads no file through such a link, whatever `linkTarget`
 * (which drops the trailing `/`) says it leads to: a file there is ENOTDIR, not the file.
 */
export function asksForDirectory(target: string): boolean {
  return /(?:^|\/)(?:\.\.?)?$/.test(target);
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

/**
 * A side's text; null when nothing is there; the UnreadablePathError when the path is there but no
 * file (detection names it on its file): for the review's own inputs, read beside detection.
 */
export async function readOrWhy(tree: TreeReader, path: string): Promise<string | null | UnreadablePathError> {
  try {
    return await tree.read(path);
  } catch (err) {
    if (err instanceof UnreadablePathError) return err;
    throw err;
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

/** Why a link whose target asks for a directory (`queues.yaml/`) and finds a file is not read. */
export function linkToFileAsDirectory(file: string): string {
  return `a symbolic link to ${file}/, a file where the link asks for a directory: a checkout reads nothing there`;
}

/** What a tree holds at a path, for `resolvePath`: asked of one commit's entries. */
export interface TreeEntries {
  isFile(path: string): boolean;
  /** The target a symbolic link at `path` names, undefined when `path` is no link. */
  linkAt(path: string): Promise<string | undefined>;
  /** The commit a submodule at `path` is at, undefined when `path` is no submodule. */
  submoduleAt(path: string): string | undefined;
  /** True when `path` is a directory holding something. */
  isDirectory(path: string): Promise<boolean>;
  /** True when the tree has a link or a submodule at all: none, and no path needs walking. */
  hasSpecial: boolean;
}

/**
 * The regular file `rel` stands for in a tree, symbolic links followed as a checkout would (in
 * any of its directories too, at most MAX_LINK_HOPS); null when nothing is at `rel`. What is there
 * but is no file of the tree — a submodule or a path inside one, a link leading outside, to
 * nothing, to a directory or round a loop — is an UnreadablePathError naming `asked`.
 */
export async function resolvePath(rel: string, asked: string, tree: TreeEntries): Promise<string | null> {
  let at = rel;
  // Whether the path reached must be a directory: a link's target spelt with a trailing `/`.
  let dirOnly = false;
  for (let hops = 0; ; hops++) {
    if (tree.isFile(at) && dirOnly) throw new UnreadablePathError(asked, linkToFileAsDirectory(at));
    if (tree.isFile(at)) return at;
    if (!tree.hasSpecial) return null;
    const sub = await enclosing(at, async (p) => tree.submoduleAt(p) !== undefined);
    if (sub !== null) {
      const why = submoduleReason(tree.submoduleAt(sub) ?? null);
      throw new UnreadablePathError(asked, sub === at && hops === 0 ? why : `in ${sub}, ${why}`);
    }
    const link = await enclosing(at, async (p) => (await tree.linkAt(p)) !== undefined);
    if (link === null) {
      if (hops === 0) return null;
      throw new UnreadablePathError(
        asked,
        (await tree.isDirectory(at)) ? linkToDirectory(at) : `a symbolic link to ${at}, which is not there`,
      );
    }
    if (hops >= MAX_LINK_HOPS) throw new UnreadablePathError(asked, `a symbolic link that loops (more than ${MAX_LINK_HOPS} links)`);
    const target = (await tree.linkAt(link)) ?? '';
    const through = await dotDotThroughLink(link, target, async (p) => (await tree.linkAt(p)) !== undefined);
    if (through !== null) throw new UnreadablePathError(asked, dotDotThrough(through));
    const next = linkTarget(link, target);
    if (next === null)
      throw new UnreadablePathError(asked, 'a symbolic link leading outside the repository: what it declares cannot be read');
    // Below a linked directory, the rest of the path follows its target: a directory by then.
    if (link === at) dirOnly ||= asksForDirectory(target);
    at = link === at ? next : `${next}${at.slice(link.length)}`;
  }
}

/** Why a link whose target takes `..` out of a linked directory is not read. */
export function dotDotThrough(linked: string): string {
  return `a symbolic link whose target takes \`..\` through the linked directory ${linked}: a checkout goes to the parent of where that link leads, which was not followed, so what it declares is unknown`;
}

/**
 * The linked directory a `..` of `target` (read from the link at `link`) climbs out of, or null.
 * A checkout takes `lnk/..` as the parent of where `lnk` leads, while `linkTarget` takes it
 * lexically, as the folder holding `lnk`: the two part wherever the `..` leaves a link or a path
 * below one. The folders holding the link are directories of the tree (no entry stands below a
 * link), so only a `..` out of a folder the target itself names is asked about.
 */
export async function dotDotThroughLink(link: string, target: string, isLink: (path: string) => Promise<boolean>): Promise<string | null> {
  if (!target.split('/').includes('..')) return null;
  const stack = posix.dirname(link) === '.' ? [] : posix.dirname(link).split('/');
  // The first `real` parts of `stack` are known directories of the tree.
  let real = stack.length;
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') {
      stack.push(part);
      continue;
    }
    // Above the root: `linkTarget` names it a link leading outside.
    if (stack.length === 0) return null;
    for (let depth = stack.length; depth > real; depth--) {
      const dir = stack.slice(0, depth).join('/');
      if (await isLink(dir)) return dir;
    }
    stack.pop();
    real = Math.min(real, stack.length);
  }
  return null;
}

/** `path` itself or the nearest of its directories for which `is` holds; null when none does. */
async function enclosing(path: string, is: (p: string) => Promise<boolean>): Promise<string | null> {
  if (await is(path)) return path;
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    const dir = path.slice(0, slash);
    if (await is(dir)) return dir;
  }
  return null;
}

/** Why `path` is there but is no file (see TreeReader.notAFile), from `resolvePath`. */
export async function notAFileIn(rel: string, asked: string, tree: TreeEntries): Promise<string | null> {
  try {
    await resolvePath(rel, asked, tree);
    return null;
  } catch (err) {
    if (err instanceof UnreadablePathError) return err.why;
    throw err;
  }
}
