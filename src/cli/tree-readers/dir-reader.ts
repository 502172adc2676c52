import type { Dirent } from 'node:fs';
import { lstat, readFile, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../../domain/errors.js';
import { UnreadablePathError, linkToDirectory } from '../../domain/files.js';
import type { TreeReader } from '../../domain/files.js';
import { inGitDir, isInTree, safeRelativePath } from './repo-path.js';
import { decodeText } from '../../util/decode-text.js';

/** Directories that are never part of the infra tree being compared. */
const SKIPPED = new Set(['.git', 'node_modules']);

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** Links followed hop by hop to see where a chain passes; the system's own limit ends longer ones. */
const MAX_HOPS = 40;
const LOOP = 'a symbolic link to nothing, or round a loop: what it declares cannot be read';
/** A named pipe, a socket or a device: there, but no file to read. */
const NOT_REGULAR = 'a named pipe, socket or device, not a file: it was not read, so what it declares is unknown';

/** One side of a PR as a directory on disk. Symbolic links may not lead outside it. */
export class DirReader implements TreeReader {
  readonly kind = 'dir';
  readonly label: string;
  readonly root: string;
  private realRoot: Promise<string> | undefined;
  private listing: Promise<string[]> | undefined;

  constructor(root: string, label: string = root) {
    this.root = resolve(root);
    this.label = label;
  }

  async read(path: string): Promise<string | null> {
    const bytes = await this.readBytes(path);
    return bytes === null ? null : decodeText(bytes);
  }

  /** The file's bytes, or null when it is missing or not a file. */
  async readBytes(path: string): Promise<Buffer | null> {
    const rel = safeRelativePath(path, this.label);
    // git's own folder is no part of the tree a commit holds: nothing there is the repository's.
    if (inGitDir(rel)) return null;
    let real: string;
    try {
      real = await realpath(join(this.root, rel));
    } catch (err) {
      if (MISSING.has(errorCode(err))) return null;
      // As notAFile says of it: a path there but no file, an error on its own file, not on the run.
      if (errorCode(err) === 'ELOOP') throw new UnreadablePathError(path, LOOP);
      throw this.unreadable(path, err);
    }
    if (!isInTree(await this.resolvedRoot(), real) || (await this.leavesOnTheWay(join(this.root, rel)))) {
      throw new UnreadablePathError(path, `a symbolic link leading outside ${this.label}: what it declares cannot be read`);
    }
    try {
      // A named pipe would block the read for ever, a device stream without end: neither is a file.
      const kind = await stat(real);
      if (!kind.isFile() && !kind.isDirectory()) throw new UnreadablePathError(path, NOT_REGULAR);
      return await readFile(real);
    } catch (err) {
      if (err instanceof UnreadablePathError) throw err;
      if (MISSING.has(errorCode(err))) return null;
      throw this.unreadable(path, err);
    }
  }

  /**
   * Every file below the root as a sorted POSIX path, skipping `.git` (in any case) and `node_modules`.
   * Symbolic links count when they lead to a file inside the root; linked directories are not
   * entered, which also keeps link cycles out.
   */
  async listFiles(): Promise<string[]> {
    return (await this.walk()).files;
  }

  /**
   * The symbolic links below the root that lead to no file inside it (outside, nowhere, to a
   * directory, round a loop), path → the target they name: no file to list, but a change all the same.
   */
  async otherLinks(): Promise<Map<string, string>> {
    return (await this.walk()).others;
  }

  /** Whether the path is a directory itself, not a link to one (see TreeReader.isDirectory). */
  async isDirectory(path: string): Promise<boolean> {
    const full = join(this.root, safeRelativePath(path, this.label));
    return lstat(full).then(
      (entry) => entry.isDirectory(),
      () => false,
    );
  }

  /** Why the path is there but is no file (see TreeReader.notAFile); null otherwise. */
  async notAFile(path: string): Promise<string | null> {
    const rel = safeRelativePath(path, this.label);
    const full = join(this.root, rel);
    try {
      const entry = await lstat(full);
      if (!entry.isSymbolicLink()) return entry.isFile() || entry.isDirectory() ? null : NOT_REGULAR;
    } catch {
      return null; // nothing there
    }
    let real: string;
    try {
      real = await realpath(full);
    } catch {
      return LOOP;
    }
    if (!isInTree(await this.resolvedRoot(), real) || (await this.leavesOnTheWay(full)))
      return `a symbolic link leading outside ${this.label}: what it declares cannot be read`;
    if ((await stat(real)).isDirectory()) return linkToDirectory(toPosix(relative(await this.resolvedRoot(), real)));
    return null;
  }

  /**
   * Whether a chain of links starting at `full` passes outside the root before it ends inside:
   * a hop outside is not the repository's (a git checkout's link there reads whatever the machine
   * holds), so the chain leads outside wherever it ends, as a git tree reads it.
   */
  private async leavesOnTheWay(full: string): Promise<boolean> {
    let at = full;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      try {
        if (!(await lstat(at)).isSymbolicLink()) return false;
        at = resolve(dirname(at), await readlink(at));
      } catch {
        return false;
      }
      if (!isInTree(this.root, at)) return true;
    }
    return false;
  }

  private async walk(): Promise<{ files: string[]; others: Map<string, string> }> {
    const realRoot = await this.resolvedRoot();
    const files: string[] = [];
    const others = new Map<string, string>();
    const walk = async (dir: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        throw this.unreadable(relative(this.root, dir) || '.', err);
      }
      for (const entry of entries) {
        if (SKIPPED.has(entry.name) || inGitDir(entry.name)) continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) files.push(toPosix(relative(this.root, full)));
        else if (entry.isSymbolicLink()) {
          if ((await linksToFileInside(full, realRoot)) && !(await this.leavesOnTheWay(full)))
            files.push(toPosix(relative(this.root, full)));
          else others.set(toPosix(relative(this.root, full)), await readlink(full));
        }
      }
    };
    await walk(this.root);
    return { files: files.sort(), others };
  }

  /** Files directly inside `dir` (repository path, `''` for the root), from listFiles(). */
  async list(dir: string): Promise<string[]> {
    return filesIn(await this.allFiles(), dir);
  }

  /** Directories directly inside `dir` that hold files, from listFiles(). */
  async dirs(dir: string): Promise<string[]> {
    return dirsIn(await this.allFiles(), dir);
  }

  private allFiles(): Promise<string[]> {
    this.listing ??= this.listFiles().catch((err: unknown) => {
      this.listing = undefined;
      throw err;
    });
    return this.listing;
  }

  private resolvedRoot(): Promise<string> {
    this.realRoot ??= realpath(this.root).catch((err: unknown) => {
      this.realRoot = undefined;
      throw new InputError(`cannot read directory ${this.label}: ${errorCode(err) || String(err)}`, {
        file: this.label,
        cause: err,
      });
    });
    return this.realRoot;
  }

  private unreadable(path: string, err: unknown): InputError {
    return new InputError(`cannot read ${path} in ${this.label}: ${errorCode(err) || String(err)}`, {
      file: path,
      cause: err,
    });
  }
}

async function linksToFileInside(link: string, realRoot: string): Promise<boolean> {
  try {
    const target = await realpath(link);
    return isInTree(realRoot, target) && (await stat(target)).isFile();
  } catch {
    return false; // a dangling link is not a file
  }
}

function errorCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/** The paths directly inside `dir`, not in its subdirectories. */
export function filesIn(paths: Iterable<string>, dir: string): string[] {
  const prefix = dirPrefix(dir);
  const out: string[] = [];
  for (const p of paths) if (p.startsWith(prefix) && !p.slice(prefix.length).includes('/')) out.push(p);
  return out.sort();
}

/** The directories directly inside `dir` that hold a file somewhere below them, from file paths. */
export function dirsIn(paths: Iterable<string>, dir: string): string[] {
  const prefix = dirPrefix(dir);
  const out = new Set<string>();
  for (const p of paths) {
    if (!p.startsWith(prefix)) continue;
    const slash = p.indexOf('/', prefix.length);
    if (slash > prefix.length) out.add(p.slice(0, slash));
  }
  return [...out].sort();
}

const dirPrefix = (dir: string): string => (dir === '' || dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`);

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
