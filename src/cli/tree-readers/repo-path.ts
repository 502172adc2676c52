import { isAbsolute, posix, relative, sep } from 'node:path';
import { InputError } from '../../domain/errors.js';

/**
 * A path inside the tree, normalised to POSIX form (`a/./b` → `a/b`). Absolute paths and paths
 * climbing out with `..` are refused: repository files name other files, and those names must
 * not reach the rest of the disk.
 */
export function safeRelativePath(path: string, label: string): string {
  if (path === '' || path.includes('\0')) {
    throw new InputError(`invalid path ${JSON.stringify(path)} in ${label}`, { file: path });
  }
  if (posix.isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\')) {
    throw new InputError(`path ${path} is absolute; only paths inside ${label} can be read`, { file: path });
  }
  const normal = posix.normalize(path);
  if (normal === '..' || normal.startsWith('../')) {
    throw new InputError(`path ${path} leads outside ${label}`, { file: path });
  }
  return normal.replace(/\/+$/, '');
}

/** True when `child` is `parent` or below it (both absolute and resolved). */
function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * True when `child` is inside `parent` and in the repository's tree: not under a `.git` folder (in
 * any case, as git refuses it on case-insensitive disks), which holds git's own files, never one a
 * commit tracks. A link into it reads what the machine holds, as a link out of the tree does.
 */
export function isInTree(parent: string, child: string): boolean {
  return isInside(parent, child) && !inGitDir(relative(parent, child).split(sep).join('/'));
}

/** Whether a POSIX repository path passes through a `.git` folder (see isInTree). */
export function inGitDir(path: string): boolean {
  return path.split('/').some((part) => part.toLowerCase() === '.git');
}
